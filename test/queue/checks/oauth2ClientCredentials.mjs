// OAuth2 client credentials across workers: the first run fetches a token, the next runs (on either worker) reuse
// the one n8n stored, and after the sandbox expires it a worker fetches a new one.
import { assert } from '../../realN8n/harness.mjs';
import { chain, storaNode, webhookNode } from '../../realN8n/workflow.mjs';
import { workerOf } from '../cluster.mjs';
import { ANSWER_ALL, callWebhook, executionRows, oauthCallback } from '../helpers.mjs';

export const title = () =>
	'OAuth2 client credentials on the workers: a token is fetched on first use and shared, and fetched again after it expires';

export async function run(ctx) {
	const { main, sandbox, cluster, reset, figure } = ctx;
	await reset();
	const client = await sandbox.control.oauthClient([oauthCallback(ctx)]);
	const credential = await main.createCredential(
		'Stora sandbox (client credentials)',
		'storaOAuth2Api',
		{
			grantType: 'clientCredentials',
			baseUrl: sandbox.url,
			clientId: client.client_id,
			clientSecret: client.client_secret,
		},
	);
	const workflow = await main.createWorkflow(
		chain('queue: client credentials', [
			webhookNode('queue-oauth2-cc', ANSWER_ALL),
			storaNode(
				'Stora',
				{ resource: 'site', operation: 'getAll', returnAll: false, limit: 1 },
				credential,
			),
		]),
	);
	ctx.workflows.push(workflow);
	await main.activate(workflow);
	const shapes = [];
	const runOnce = async (label) => {
		await sandbox.control.clearRequests();
		const response = await callWebhook(ctx, 'queue-oauth2-cc', {});
		assert(
			response.status === 200 && Array.isArray(response.body) && response.body.length === 1,
			`${label}: HTTP ${response.status} ${response.text.slice(0, 300)}`,
		);
		const [latest] = executionRows(ctx, workflow.id);
		const requests = (await sandbox.control.requests()).map(
			(r) =>
				`${r.method} ${r.path} ${r.status}${r.path === '/oauth2/token' ? ` ${r.body?.grant_type}` : ''}`,
		);
		shapes.push(`${label} on ${workerOf(cluster.workers, latest.id)}: ${requests.join(', ')}`);
		return requests;
	};
	const tokens = () =>
		[...sandbox.core.auth.tokens.values()].filter((t) => t.clientId === client.client_id);
	let requests = await runOnce('run 1');
	assert(
		requests.join() === 'POST /oauth2/token 200 client_credentials,GET /2025-09/sites 200',
		`run 1: ${requests.join(', ')}`,
	);
	for (const n of [2, 3]) {
		requests = await runOnce(`run ${n}`);
		assert(
			requests.join() === 'GET /2025-09/sites 200',
			`run ${n} (the stored token should be reused): ${requests.join(', ')}`,
		);
	}
	assert(tokens().length === 1, `${tokens().length} tokens issued for 3 runs`);
	await sandbox.control.expireTokens(tokens()[0].token);
	requests = await runOnce('after expiry');
	assert(
		requests.join() ===
			'GET /2025-09/sites 401,POST /oauth2/token 200 client_credentials,GET /2025-09/sites 200',
		`after expiry: ${requests.join(', ')}`,
	);
	requests = await runOnce('next run');
	assert(
		requests.join() === 'GET /2025-09/sites 200',
		`the run after the refresh: ${requests.join(', ')}`,
	);
	const workers = new Set(shapes.map((s) => /on (worker-\d+)/.exec(s)?.[1]));
	assert(workers.size === cluster.workers.length, `all runs on ${[...workers].join(', ')}`);
	figure(`client credentials: ${shapes.join('; ')}`);
	await main.deactivate(workflow);
}
