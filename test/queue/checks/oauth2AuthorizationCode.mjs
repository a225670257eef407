// OAuth2 authorization code with refresh-token rotation across workers: n8n's own connect flow (PKCE) stores the
// first pair; after each expiry the worker that runs must present the refresh token issued last, also when the other
// worker stored it.
import { assert } from '../../realN8n/harness.mjs';
import { authorizationCodeCredential, connectOAuth2 } from '../../realN8n/sandbox.mjs';
import { chain, storaNode, webhookNode } from '../../realN8n/workflow.mjs';
import { workerOf } from '../cluster.mjs';
import { ANSWER_ALL, callWebhook, executionRows, oauthCallback } from '../helpers.mjs';

export const title = () =>
	'OAuth2 authorization code: n8n stores the first token pair; after each expiry a worker refreshes with the refresh token the previous worker stored (rotation)';

export async function run(ctx) {
	const { main, sandbox, cluster, reset, figure } = ctx;
	await reset();
	const client = await sandbox.control.oauthClient([oauthCallback(ctx)]);
	const credential = await main.createCredential(
		'Stora sandbox (authorization code)',
		'storaOAuth2Api',
		authorizationCodeCredential(sandbox, client),
	);
	await sandbox.control.clearRequests();
	await connectOAuth2(main, credential, sandbox);
	const codeRequests = (await sandbox.control.requests()).filter((r) => r.path === '/oauth2/token');
	assert(
		codeRequests.length === 1 &&
			codeRequests[0].status === 200 &&
			codeRequests[0].body?.grant_type === 'authorization_code' &&
			/^[A-Za-z0-9._~-]{43,128}$/.test(codeRequests[0].body?.code_verifier ?? ''),
		`token requests of the connection: ${JSON.stringify(codeRequests.map((r) => [r.status, r.body?.grant_type]))}`,
	);

	const workflow = await main.createWorkflow(
		chain('queue: authorization code', [
			webhookNode('queue-oauth2-code', ANSWER_ALL),
			storaNode(
				'Stora',
				{ resource: 'site', operation: 'getAll', returnAll: false, limit: 2 },
				credential,
			),
		]),
	);
	ctx.workflows.push(workflow);
	await main.activate(workflow);
	const refreshTokens = () =>
		[...sandbox.core.auth.refreshTokens.values()].filter((t) => t.clientId === client.client_id);
	const accessTokens = () =>
		[...sandbox.core.auth.tokens.values()].filter((t) => t.clientId === client.client_id);

	await sandbox.control.clearRequests();
	let response = await callWebhook(ctx, 'queue-oauth2-code', {});
	assert(
		response.status === 200 && response.body?.length === 2,
		`first run: HTTP ${response.status} ${response.text.slice(0, 300)}`,
	);
	const rounds = [];
	// Refresh until a worker has used a refresh token that the other worker obtained (at least 3 rounds, at most 8).
	for (let round = 1; round <= 8; round++) {
		const presented = refreshTokens().find((t) => !t.revoked);
		const [current] = accessTokens().slice(-1);
		await sandbox.control.expireTokens(current.token);
		await sandbox.control.clearRequests();
		response = await callWebhook(ctx, 'queue-oauth2-code', {});
		assert(
			response.status === 200 && response.body?.length === 2,
			`round ${round}: HTTP ${response.status} ${response.text.slice(0, 300)}`,
		);
		const requests = await sandbox.control.requests();
		const shape = requests.map((r) => `${r.method} ${r.path} ${r.status}`).join(', ');
		assert(
			shape === 'GET /2025-09/sites 401, POST /oauth2/token 200, GET /2025-09/sites 200' &&
				requests[1].body?.grant_type === 'refresh_token' &&
				requests[1].body?.refresh_token === presented.token,
			`round ${round}: ${shape} (n8n must present the refresh token issued last)`,
		);
		assert(presented.revoked, `round ${round}: the presented refresh token was not revoked`);
		const [latest] = executionRows(ctx, workflow.id);
		rounds.push(workerOf(cluster.workers, latest.id));
		const handedOver = rounds.some((w, i) => i > 0 && w !== rounds[i - 1]);
		if (round >= 3 && handedOver) break;
	}
	const handovers = rounds.filter((w, i) => i > 0 && w !== rounds[i - 1]).length;
	assert(
		handovers > 0,
		`every refresh ran on ${rounds[0]}: no worker used a refresh token another worker stored`,
	);
	assert(
		refreshTokens().filter((t) => !t.revoked).length === 1,
		'expected exactly one live refresh token',
	);
	figure(
		`authorization code: ${rounds.length} refreshes in a row by ${rounds.join(' → ')}, each presenting the refresh token issued last (${handovers} handovers between workers)`,
	);
	await main.deactivate(workflow);
}
