// "Credentials": both Stora credential types created over n8n's REST API, and n8n's connection test of the access
// token: good, bad, under every fault of the matrix, and with a wrong Base URL.
import { freePort, N8N_VERSION } from '../../realN8n/n8n.mjs';
import { faultMatrix } from '../../helpers/faults.ts';
import { recordFigures } from '../../helpers/figures.ts';

export async function credentialChecks(ctx) {
	const { n8n, sandbox, check, assert, assertMatch, callback } = ctx;
	console.log('\nCredentials');
	await check(
		"Stora API credential (access token): created, and n8n's connection test passes",
		async () => {
			const data = { baseUrl: sandbox.url, accessToken: sandbox.token };
			const credential = await n8n.createCredential('Stora sandbox (token)', 'storaApi', data);
			ctx.credentials.accessToken = credential;
			const result = await n8n.testCredential({
				id: credential.id,
				name: credential.name,
				type: 'storaApi',
				data,
			});
			assertMatch(result, { status: 'OK' }, 'credential test');
		},
	);
	await check(
		"Stora API credential: n8n's connection test reports a bad token with the credential's own message",
		async () => {
			const data = { baseUrl: sandbox.url, accessToken: 'not-a-valid-token' };
			const result = await n8n.testCredential({
				id: ctx.credentials.accessToken?.id,
				name: 'bad',
				type: 'storaApi',
				data,
			});
			assertMatch(
				result,
				{ status: 'Error', message: { $contains: 'Stora rejected the access token' } },
				'credential test',
			);
		},
	);
	await check(
		"Stora API credential: n8n's connection test under every fault of the matrix passes or says what happened",
		() => connectionTestUnderFaults(ctx),
	);
	await check(
		"Stora API credential: n8n's connection test names an unreachable host and a wrong Base URL in its own words",
		async () => {
			const closed = await freePort();
			const cases = [
				[`http://127.0.0.1:${closed}`, `Could not reach http://127.0.0.1:${closed}`],
				[`${sandbox.url}/2025-09`, 'the Base URL does not point at the Stora Public API'],
				['public-api.stora.co', 'is not a web address'],
			];
			for (const [baseUrl, expected] of cases) {
				const result = await n8n.testCredential({
					id: ctx.credentials.accessToken?.id,
					name: 'wrong',
					type: 'storaApi',
					data: { baseUrl, accessToken: sandbox.token },
				});
				assertMatch(
					result,
					{ status: 'Error', message: { $contains: expected } },
					`credential test with Base URL ${baseUrl}`,
				);
			}
		},
	);
	// The sandbox forgets OAuth clients on reset, and every case starts from a reset: a case using client credentials
	// gets a new client and a new credential (so its first request is also the token request).
	ctx.freshClientCredentials = async () => {
		const client = await sandbox.control.oauthClient([callback]);
		ctx.credentials.oauth2ClientCredentials = await n8n.createCredential(
			'Stora sandbox (client credentials)',
			'storaOAuth2Api',
			{
				grantType: 'clientCredentials',
				baseUrl: sandbox.url,
				clientId: client.client_id,
				clientSecret: client.client_secret,
			},
		);
		return client;
	};
	await check('Stora OAuth2 API credential (client credentials): created', async () => {
		await ctx.freshClientCredentials();
	});
}

/** The connection test under each fault of the jest fault matrix: the package's own message, never the token. */
async function connectionTestUnderFaults({ n8n, sandbox, assert, credentials }) {
	const data = { baseUrl: sandbox.url, accessToken: sandbox.token };
	// The jest fault matrix's faults; the timeout against n8n's credential test, which waits 1 s an attempt.
	const faults = faultMatrix(1000);
	const outcomes = [];
	for (const [name, fault] of Object.entries(faults)) {
		await sandbox.control.fault({ method: 'GET', path: '/2025-09/sites' }, [fault]);
		const result = await n8n.testCredential({
			id: credentials.accessToken?.id,
			name: 'faults',
			type: 'storaApi',
			data,
		});
		// Every answer is the package's own message (its connection test function), on every n8n version.
		assert(
			result.status === 'OK' ||
				(result.status === 'Error' && /Stora|Could not reach/.test(String(result.message ?? ''))),
			`${name}: ${JSON.stringify(result)}`,
		);
		assert(!JSON.stringify(result).includes(sandbox.token), `${name}: the token is in the answer`);
		if (/^(429|500|502)/.test(name))
			assert(
				result.status === 'Error' && /Stora/.test(result.message),
				`${name}: ${JSON.stringify(result)}`,
			);
		if (/^reset/.test(name))
			assert(
				result.status === 'Error' && /Could not reach/.test(result.message),
				`${name}: ${JSON.stringify(result)}`,
			);
		// The sandbox's address changes with every run: the figure names it by its role.
		outcomes.push({
			name,
			answer:
				result.status === 'OK'
					? 'OK'
					: `“${String(result.message).replaceAll(sandbox.url, '<Base URL>')}”`,
		});
	}
	await sandbox.control.clearFaults?.();
	// Faults with the same answer in one group: "429 with Retry-After, 429 without Retry-After: “Stora is ...”".
	const groups = new Map();
	for (const { name, answer } of outcomes)
		groups.set(answer, [...(groups.get(answer) ?? []), name]);
	recordFigures('reliability', 'credentialTest', {
		cells: [
			`The same ${outcomes.length} faults on n8n's credential test (n8n runs it once, without retries)`,
			'`test/e2e/run.mjs`',
			[...groups].map(([answer, names]) => `${names.join(', ')}: ${answer}`).join('; '),
		],
		figures: {
			faults: outcomes.length,
			ok: outcomes.filter((outcome) => outcome.answer === 'OK').length,
			n8n: N8N_VERSION,
		},
	});
}
