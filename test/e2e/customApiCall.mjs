// "Custom API Call". n8n's editor adds it to the Stora node's resource and operation lists and points the
// user to the HTTP Request node with the Stora credential as a predefined credential type. This follows that route in
// real n8n: an HTTP Request node with each Stora credential calls a request the Stora node does not offer (a given
// page of a list: the node walks pages itself), and with OAuth2 n8n fetches a new token after the sandbox expires it.
import { chain, node } from '../realN8n/workflow.mjs';

/** A manual-trigger workflow whose HTTP Request node calls `url` with the predefined credential `type`. */
function httpRequestWorkflow(name, type, credential, url) {
	return chain(name, [
		node('Start', 'n8n-nodes-base.manualTrigger', 1, {}),
		node(
			'Stora custom call',
			'n8n-nodes-base.httpRequest',
			4.2,
			{ authentication: 'predefinedCredentialType', nodeCredentialType: type, url, options: {} },
			{
				credentials: { [type]: { id: credential.id, name: credential.name } },
			},
		),
	]);
}

const outputOf = (execution) =>
	execution.data?.resultData?.runData?.['Stora custom call']?.[0]?.data?.main?.[0]?.[0]?.json;

export async function customApiCallChecks(ctx) {
	const { n8n, sandbox, check, assert } = ctx;
	console.log(
		'\nCustom API Call: the HTTP Request node with a Stora credential (test/e2e/customApiCall.mjs)',
	);
	const url = `${sandbox.url}/2025-09/sites?limit=1&page=2`;
	const run = async (workflow) => {
		const execution = await n8n.runManually(workflow.id, 'Start');
		assert(
			execution.status === 'success',
			`the HTTP Request node failed: ${JSON.stringify(execution.data?.resultData?.error ?? {}).slice(0, 400)}`,
		);
		return outputOf(execution);
	};

	await check(
		'Custom API Call with the Stora API credential: the HTTP Request node sends the token and gets page 2 of the sites',
		async () => {
			await sandbox.control.reset('demo');
			const workflow = await n8n.createWorkflow(
				httpRequestWorkflow(
					'Custom API Call (access token)',
					'storaApi',
					ctx.credentials.accessToken,
					url,
				),
			);
			ctx.workflows.push(workflow);
			await sandbox.control.clearRequests();
			const output = await run(workflow);
			const sites = output?.sites ?? [];
			assert(
				sites.length === 1 && typeof sites[0].id === 'string',
				`the answer holds ${JSON.stringify(output).slice(0, 300)}`,
			);
			const requests = await sandbox.control.requests();
			assert(
				requests.length === 1 &&
					requests[0].path === '/2025-09/sites' &&
					requests[0].headers?.authorization === 'Bearer ***',
				`the sandbox saw ${JSON.stringify(requests).slice(0, 400)}`,
			);
		},
	);

	await check(
		'Custom API Call with the Stora OAuth2 credential (client credentials): a token on first use, a new one after the sandbox expires it',
		async () => {
			await sandbox.control.reset('demo');
			const client = await ctx.freshClientCredentials();
			const workflow = await n8n.createWorkflow(
				httpRequestWorkflow(
					'Custom API Call (OAuth2)',
					'storaOAuth2Api',
					ctx.credentials.oauth2ClientCredentials,
					url,
				),
			);
			ctx.workflows.push(workflow);
			await sandbox.control.clearRequests();
			assert(
				(await run(workflow))?.sites?.length === 1,
				'the first call did not answer with a site',
			);
			const first = (await sandbox.control.requests()).map(
				(r) => `${r.method} ${r.path} ${r.status}`,
			);
			assert(
				first[0] === 'POST /oauth2/token 200' && first.at(-1) === 'GET /2025-09/sites 200',
				`first call: ${first.join(', ')}`,
			);

			const tokens = [...sandbox.core.auth.tokens.values()].filter(
				(t) => t.clientId === client.client_id,
			);
			await sandbox.control.expireTokens(tokens.at(-1).token);
			await sandbox.control.clearRequests();
			assert(
				(await run(workflow))?.sites?.length === 1,
				'the call after expiry did not answer with a site',
			);
			const after = (await sandbox.control.requests()).map(
				(r) => `${r.method} ${r.path} ${r.status}`,
			);
			assert(
				after.includes('POST /oauth2/token 200') && after.at(-1) === 'GET /2025-09/sites 200',
				`after expiry: ${after.join(', ')}`,
			);
		},
	);
}
