// "Secrets": no secret the sandbox issued during the run shows up where n8n or the sandbox writes.
import { log, N8N_VERSION } from '../../realN8n/n8n.mjs';
import { assertNoSecretLeaked, collectSecrets } from '../../realN8n/secrets.mjs';
import { recordFigures } from '../../helpers/figures.ts';

/** Every secret the sandbox issues, remembered before a reset forgets it, for the leak check at the end. */
export function rememberSecrets(sandbox) {
	const secrets = new Set();
	const reset = sandbox.control.reset.bind(sandbox.control);
	sandbox.control.reset = async (seed) => {
		collectSecrets(sandbox, secrets);
		return await reset(seed);
	};
	return secrets;
}

export async function secretsChecks({ n8n, sandbox, check, workflows, only }, secrets) {
	console.log('\nSecrets');
	await check(
		"no token, client secret, refresh token or webhook secret in n8n's log, any execution's error or the sandbox's request log",
		async () => {
			collectSecrets(sandbox, secrets);
			const figures = await assertNoSecretLeaked({
				n8n,
				sandbox,
				workflowIds: workflows.map((w) => w.id),
				secrets,
			});
			// Only a full run has made every kind of request whose traces are searched.
			if (only)
				log(
					`secrets: ${figures.secrets} searched for in ${figures.places} places (${figures.bytes} bytes)`,
				);
			else {
				recordFigures('reliability', 'secrets', {
					cells: [
						'Secrets',
						'`test/realN8n/secrets.mjs` (from `test/e2e/run.mjs`)',
						`none of ${figures.secrets} secrets (tokens, client secrets, refresh tokens, webhook secrets) in n8n's log, any execution's error or the sandbox's request log (${figures.places} places, ${Math.round(figures.bytes / 1000).toLocaleString('en')} kB searched)`,
					],
					figures: { ...figures, n8n: N8N_VERSION },
				});
			}
		},
	);
}
