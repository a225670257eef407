// "Stora Trigger as n8n runs it" (test/realN8n/triggerLife.mjs): test listens, the lifecycle of its endpoints, no
// event lost when n8n cannot take a delivery, and n8n's own timeout of a listen left to itself.
import {
	atLeastOnce,
	listenUntilTimeout,
	sqliteLock,
	sqliteRefusal,
	stoppedMidDelivery,
	triggerLifecycle,
} from '../../realN8n/triggerLife.mjs';
import { log, VERSION } from '../../realN8n/n8n.mjs';
import { chain, noOpNode, storaTriggerNode } from '../../realN8n/workflow.mjs';

/** What `--only` names to run the Stora Trigger's checks alone (these, forged.mjs's and the examples with a Stora Trigger). */
export const TRIGGER_ONLY = 'stora-trigger';

export async function triggerChecks({ n8n, sandbox, credentials, check, assert, tarball }) {
	// Started first and checked after the other trigger checks: a test listen nobody stops, which n8n's own 2-minute
	// timeout must end.
	let timeoutChecked;
	await sandbox.control.reset('demo');
	const credential = credentials.accessToken;
	console.log('\nStora Trigger as n8n runs it (test/e2e/triggerLife.mjs)');
	await check(
		"a test listen left to itself registers one endpoint (n8n's timeout must remove it: checked below)",
		async () => {
			timeoutChecked = await listenUntilTimeout({ sandbox, tarball });
		},
	);
	await check(
		'Execute step, a new listen, Stop Listening, an event, a crash leftover, publish, save, republish, unpublish: Stora holds exactly the endpoints that should exist after each',
		async () => {
			const { steps } = await triggerLifecycle({ n8n, sandbox, credential });
			log(`${steps.length} steps: ${steps.join(' → ')}`);
		},
	);
	for (const mode of ['fresh', 'first']) {
		await check(
			`no event lost (retries signed with the ${mode} timestamp): n8n cannot store the execution, Stora's retry starts it once with its data`,
			async () => {
				const figures = await atLeastOnce({
					n8n,
					sandbox,
					credential,
					mode,
					refusal: sqliteRefusal(n8n.userFolder),
				});
				log(
					`first attempt ${figures.first}, retry ${figures.retry}, ${figures.executions} execution(s)`,
				);
			},
		);
	}
	// n8n 1.123 answers before it stores: whether its execution survives a lock depends on when the lock ends.
	if (!VERSION.api.answersBeforeStoring)
		await check(
			"no event lost when n8n's SQLite database is locked by another connection: n8n answers 500, Stora's retry starts the execution once",
			async () => {
				const figures = await atLeastOnce({
					n8n,
					sandbox,
					credential,
					mode: 'fresh',
					refusal: sqliteLock(n8n.userFolder),
				});
				log(
					`locked database: first attempt ${figures.first}, retry ${figures.retry}, ${figures.executions} execution(s)`,
				);
			},
		);
	if (!VERSION.api.answersBeforeStoring)
		await check(
			"no event lost when n8n stops while it handles a delivery: started again on its folder and port, Stora's retry starts the execution once",
			async () => {
				const figures = await stoppedMidDelivery({ sandbox, tarball });
				log(
					`n8n stopped mid-delivery: first attempt ${figures.first}, retry ${figures.retry}, ${figures.executions} execution(s)`,
				);
			},
		);
	await check(
		'publishing with a token that lacks the write scope fails, the message n8n answers with naming the scope and where to add it',
		async () => {
			// n8n 2.x answers with the message of a failed publication, n8n 1.x with its description: both say it.
			const readOnly = await n8n.createCredential('Stora (no webhook write scope)', 'storaApi', {
				baseUrl: sandbox.url,
				accessToken: await sandbox.control.token(['public.webhook_endpoint:read']),
			});
			const workflow = await n8n.createWorkflow(
				chain('Stora Trigger without the write scope', [
					storaTriggerNode('Stora Trigger', { events: ['contact.created'] }, readOnly),
					noOpNode(),
				]),
			);
			const refusal = await n8n.activate(workflow).then(
				() => undefined,
				(error) => error.message,
			);
			await n8n.deleteWorkflow(workflow);
			assert(refusal, 'publishing succeeded without the public.webhook_endpoint:write scope');
			for (const part of [
				'public.webhook_endpoint:write',
				'access token in Stora BackOffice',
				'Scope of the Stora OAuth2 credential',
			])
				assert(
					refusal.includes(part),
					`the refusal does not say "${part}": ${refusal.slice(0, 500)}`,
				);
		},
	);
	await sandbox.control.configure({ retry_timestamp: 'fresh' });
	// Before any later check resets the sandbox (which would remove the endpoint for it).
	await check(
		"n8n's 2-minute timeout ended the listen left to itself, and its endpoint is gone from Stora",
		async () => {
			assert(timeoutChecked, 'the listen was not started');
			await timeoutChecked();
		},
	);
}
