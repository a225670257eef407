// OAuth2 in real n8n: client credentials (a token on first use, a new one after expiry), and, without Chromium, the
// authorization code flow connected over n8n's REST API. The refresh of an authorization-code credential is shared
// with the Chromium checks (browser/oauth2.mjs).
import { VERSION } from '../../realN8n/n8n.mjs';
import { authorizationCodeCredential, connectOAuth2 } from '../../realN8n/sandbox.mjs';
import { buildWorkflow } from '../workflow.mjs';

export async function clientCredentialsChecks(ctx) {
	console.log('\nOAuth2 client credentials');
	await ctx.check('fetches a token on first use, and a new one after the sandbox expires it', () =>
		clientCredentialsFlow(ctx),
	);
}

/** Client credentials: the token request happens on first use, and again after the sandbox expires the token. */
async function clientCredentialsFlow(ctx) {
	const { n8n, sandbox, assert, assertMatch } = ctx;
	await sandbox.control.reset('demo');
	const client = await ctx.freshClientCredentials();
	const testCase = {
		file: 'oauth2-client-credentials.json',
		name: 'OAuth2 client credentials',
		credential: 'oauth2ClientCredentials',
		workflow: {
			nodes: [
				{
					name: 'Stora',
					parameters: { resource: 'site', operation: 'getAll', returnAll: false, limit: 1 },
				},
			],
		},
	};
	const workflow = await n8n.createWorkflow(
		buildWorkflow(testCase, ctx.credentials, 'e2e-oauth2-cc'),
	);
	ctx.workflows.push(workflow);
	await n8n.activate(workflow);
	const [firstSite] = await sandbox.control.state('sites');

	await sandbox.control.clearRequests();
	let response = await n8n.callWebhook('e2e-oauth2-cc', { body: {} });
	assertMatch(
		response,
		{ status: 200, body: { $length: 1 } },
		`first run (${response.text.slice(0, 300)})`,
	);
	assert(typeof firstSite?.id === 'string', 'no site in the demo seed');
	assertMatch(
		await sandbox.control.requests(),
		[
			{
				method: 'POST',
				path: '/oauth2/token',
				status: 200,
				body: { grant_type: 'client_credentials' },
			},
			{
				method: 'GET',
				path: '/2025-09/sites',
				status: 200,
				headers: { authorization: 'Bearer ***' },
			},
		],
		'sandbox requests of the first run',
	);

	// Expire exactly the token n8n holds (the sandbox runs in this process, so its token store is at hand).
	const clientId = client.client_id;
	const tokens = [...sandbox.core.auth.tokens.values()].filter((t) => t.clientId === clientId);
	assert(tokens.length === 1, `expected one token for the client, found ${tokens.length}`);
	await sandbox.control.expireTokens(tokens[0].token);

	await sandbox.control.clearRequests();
	response = await n8n.callWebhook('e2e-oauth2-cc', { body: {} });
	assertMatch(
		response,
		{ status: 200, body: { $length: 1 } },
		`run after expiry (${response.text.slice(0, 300)})`,
	);
	assertMatch(
		await sandbox.control.requests(),
		afterExpiry(
			{ method: 'GET', path: '/2025-09/sites' },
			{
				method: 'POST',
				path: '/oauth2/token',
				status: 200,
				body: { grant_type: 'client_credentials' },
			},
		),
		'sandbox requests after the token expired',
	);
	await n8n.deactivate(workflow);
}

/**
 * The requests an expired OAuth2 token costs on this n8n: n8n 2.x refreshes on the first 401; n8n 1.x hands the 401
 * back, and the package sends the request once more for n8n to refresh (versions.mjs, api.statusErrorExceptions).
 */
function afterExpiry(request, tokenRequest) {
	const rejected = Array.from({ length: VERSION.api.statusErrorExceptions ? 1 : 2 }, () => ({
		...request,
		status: 401,
	}));
	return [...rejected, tokenRequest, { ...request, status: 200 }];
}

/** Chromium connects the credential in the editor (browser/oauth2.mjs); without it, this flow over n8n's REST API. */
export async function authorizationCodeChecks(ctx) {
	const { n8n, sandbox, check, assertMatch, callback } = ctx;
	console.log(
		"\nOAuth2 authorization code with PKCE (connected over n8n's REST API, without Chromium)",
	);
	let client;
	await check(
		`n8n's authorization URL → sandbox consent page → approved → n8n exchanges the code (${VERSION.api.pkceSwitch ? 'PKCE S256' : 'no PKCE: n8n before 2.41 ignores Use PKCE'}) and stores the tokens`,
		async () => {
			await sandbox.control.reset('demo');
			client = await sandbox.control.oauthClient([callback]);
			const credential = await n8n.createCredential(
				'Stora sandbox (OAuth2)',
				'storaOAuth2Api',
				authorizationCodeCredential(sandbox, client),
			);
			await sandbox.control.clearRequests();
			// n8n before 2.41 ignores the credential's Use PKCE (versions.mjs, api.pkceSwitch; the README says so).
			const pkce = VERSION.api.pkceSwitch;
			await connectOAuth2(n8n, credential, sandbox, { pkce });
			const verifier = pkce ? { $regex: '^[A-Za-z0-9._~-]{43,128}$' } : { $absent: true };
			assertMatch(
				(await sandbox.control.requests()).filter((r) => r.path === '/oauth2/token'),
				[
					{
						method: 'POST',
						status: 200,
						body: {
							grant_type: 'authorization_code',
							code_verifier: verifier,
							redirect_uri: callback,
						},
					},
				],
				'token request of the code exchange',
			);
			ctx.credentials.oauth2AuthorizationCode = credential;
		},
	);
	if (ctx.credentials.oauth2AuthorizationCode) await refreshCheck(ctx, client);
}

/** The check that a connected authorization-code credential (`client` its sandbox client) runs and refreshes. */
export async function refreshCheck(ctx, client) {
	await ctx.check(
		'workflow runs with the connected credential; after expiry n8n refreshes and persists the rotated refresh token',
		() => authorizationCodeRefreshes(ctx, client, 'oauth2AuthorizationCode', 'e2e-oauth2-code'),
	);
}

/**
 * A workflow with an authorization-code credential (`credentialKey` in ctx.credentials, `client` its sandbox client):
 * it runs with the stored token; then, twice, the sandbox expires the access token and n8n must refresh it with the
 * refresh token issued last (the sandbox revokes each one presented), which proves the rotated one was stored.
 */
async function authorizationCodeRefreshes(ctx, client, credentialKey, webhookPath) {
	const { n8n, sandbox, assert, assertMatch } = ctx;
	const testCase = {
		file: `${webhookPath}.json`,
		name: 'OAuth2 authorization code',
		credential: credentialKey,
		workflow: {
			nodes: [
				{
					name: 'Stora',
					parameters: { resource: 'site', operation: 'getAll', returnAll: false, limit: 2 },
				},
			],
		},
	};
	const workflow = await n8n.createWorkflow(buildWorkflow(testCase, ctx.credentials, webhookPath));
	ctx.workflows.push(workflow);
	await n8n.activate(workflow);
	const auth = sandbox.core.auth;
	const refreshTokens = () =>
		[...auth.refreshTokens.values()].filter((t) => t.clientId === client.client_id);
	const accessTokens = () =>
		[...auth.tokens.values()].filter((t) => t.clientId === client.client_id && !t.revoked);

	await sandbox.control.clearRequests();
	let response = await n8n.callWebhook(webhookPath, { body: {} });
	assertMatch(
		response,
		{ status: 200, body: { $length: 2 } },
		`run with the stored token (${response.text.slice(0, 300)})`,
	);
	assertMatch(
		await sandbox.control.requests(),
		[{ method: 'GET', path: '/2025-09/sites', status: 200 }],
		'requests of the first run',
	);

	const [first] = refreshTokens();
	for (const round of [1, 2]) {
		const [current] = accessTokens().slice(-1);
		const presented = refreshTokens().find((t) => !t.revoked);
		await sandbox.control.expireTokens(current.token);
		await sandbox.control.clearRequests();
		response = await n8n.callWebhook(webhookPath, { body: {} });
		assertMatch(
			response,
			{ status: 200, body: { $length: 2 } },
			`run ${round} after the access token expired (${response.text.slice(0, 300)})`,
		);
		assertMatch(
			await sandbox.control.requests(),
			afterExpiry(
				{ method: 'GET', path: '/2025-09/sites' },
				{
					method: 'POST',
					path: '/oauth2/token',
					status: 200,
					body: { grant_type: 'refresh_token', refresh_token: presented.token },
				},
			),
			`requests of refresh ${round} (n8n must present the refresh token issued last)`,
		);
		assert(
			presented.revoked,
			`refresh ${round}: the sandbox did not revoke the presented refresh token`,
		);
	}
	assert(
		first.revoked && refreshTokens().filter((t) => !t.revoked).length === 1,
		'expected exactly one live refresh token after two rotations',
	);
	await n8n.deactivate(workflow);
	// The request log keeps refresh tokens visible (the rotation is proven with them): not for the secrets check.
	await sandbox.control.clearRequests();
}
