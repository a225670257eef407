/**
 * The node with the Stora OAuth2 API credential, through n8n-core's own OAuth2 request path: client credentials
 * (token fetched, then fetched again after it expires) and authorization code with PKCE (refresh with rotation, the
 * new refresh token kept in the credential), and the Scope it asks for by default. What each operation needs is
 * helpers/scopes.test.ts.
 */
import { createHash, randomBytes } from 'node:crypto';

import { StoraOAuth2Api } from '../../credentials/StoraOAuth2Api.credentials';
import { ALL_SCOPES, DEFAULT_SCOPES, OPTIONAL_SCOPES } from '../../nodes/Stora/helpers/scopes';
import { oauthCredentials, runStora, type CredentialStore } from '../helpers/n8n';
import { useSandboxForNode } from '../helpers/sandboxFixture';

/**
 * The scopes Stora's docs show (auth-errors-limits.md): the scope table's visible rows, then its cut-off tail as the
 * endpoint pages (timeline, unit, unit type, webhook endpoint read) and the spec (unit allocation read) name it.
 */
const DOCUMENTED_SCOPES = [
	...[
		'access_token:read',
		'application:read',
		'contact:read',
		'contact:write',
		'contract:read',
		'contract_template:read',
	],
	...[
		'coupon:read',
		'credit_note:read',
		'deal:read',
		'deal:write',
		'deal_stage:read',
		'identity_verification:read',
	],
	...[
		'invoice:read',
		'note:read',
		'note:write',
		'order:read',
		'order:write',
		'product:read',
		'product:write',
	],
	...[
		'product_category:read',
		'protection_level:read',
		'protection_level:write',
		'site:read',
		'staff:read',
	],
	...['subscription:read', 'task:read', 'task:write', 'tenancy:read'],
	...[
		'timeline_event:write',
		'timeline_source:read',
		'unit:read',
		'unit:write',
		'unit_allocation:read',
	],
	...['unit_type:read', 'unit_type:write', 'webhook_endpoint:read'],
].map((scope) => `public.${scope}`);

const scopeProperty = () =>
	new StoraOAuth2Api().properties.find((property) => property.name === 'scope')!;
const withScope = (store: CredentialStore, scope: string): CredentialStore => ({
	storaOAuth2Api: { ...store.storaOAuth2Api, scope },
});

const REDIRECT = 'http://127.0.0.1:5678/rest/oauth2-credential/callback';
const getSites = {
	authentication: 'oAuth2',
	resource: 'site',
	operation: 'getAll',
	returnAll: false,
	limit: 2,
};

describe('Stora node with OAuth2', () => {
	const fixture = useSandboxForNode();
	const client = () => fixture.client;

	const expireAll = async () =>
		await fetch(`${fixture.sandbox.url}/__sandbox/expire-tokens`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: '{}',
		});

	it('client credentials: fetches a token, then a new one after the sandbox expires it', async () => {
		const app = await client().oauthClient([REDIRECT]);
		const store = oauthCredentials(fixture.sandbox.url, app);

		const first = await runStora({ credentials: store, parameters: getSites });
		expect(first.error).toBeUndefined();
		expect(first.items).toHaveLength(2);
		const firstToken = (store.storaOAuth2Api.oauthTokenData as { access_token: string })
			.access_token;
		expect(firstToken).toBeTruthy();

		await expireAll();
		const second = await runStora({ credentials: store, parameters: getSites });
		expect(second.error).toBeUndefined();
		expect(second.items).toHaveLength(2);
		const secondToken = (store.storaOAuth2Api.oauthTokenData as { access_token: string })
			.access_token;
		expect(secondToken).not.toBe(firstToken);

		const calls = (await client().requests()).map((request) => `${request.path} ${request.status}`);
		expect(calls).toEqual([
			'/oauth2/token 200',
			'/2025-09/sites 200',
			'/2025-09/sites 401',
			'/oauth2/token 200',
			'/2025-09/sites 200',
		]);
		const tokenRequest = (await client().requests())[0];
		expect(tokenRequest.headers['content-type']).toContain('application/x-www-form-urlencoded');
		expect(tokenRequest.body).toMatchObject({
			grant_type: 'client_credentials',
			client_id: app.client_id,
		});
	});

	it('authorization code with PKCE: refreshes an expired token and keeps the rotated refresh token', async () => {
		const app = await client().oauthClient([REDIRECT]);
		const verifier = randomBytes(48).toString('base64url');
		const challenge = createHash('sha256').update(verifier).digest('base64url');
		const params = {
			client_id: app.client_id,
			redirect_uri: REDIRECT,
			response_type: 'code',
			scope: 'public.site:read',
			state: 'n8n-state',
			code_challenge: challenge,
			code_challenge_method: 'S256',
		};
		// The operator approves on the consent page.
		const consent = await fetch(
			`${fixture.sandbox.url}/oauth2/authorize?${new URLSearchParams(params)}`,
		);
		expect(await consent.text()).toContain('Approve');
		const approved = await fetch(`${fixture.sandbox.url}/oauth2/authorize`, {
			method: 'POST',
			redirect: 'manual',
			headers: { 'content-type': 'application/x-www-form-urlencoded' },
			body: new URLSearchParams({ ...params, decision: 'approve' }).toString(),
		});
		const code = new URL(approved.headers.get('location') as string).searchParams.get(
			'code',
		) as string;
		// n8n exchanges the code (form-encoded, client id and secret in the body, with the PKCE verifier).
		const exchange = await fetch(`${fixture.sandbox.url}/oauth2/token`, {
			method: 'POST',
			headers: { 'content-type': 'application/x-www-form-urlencoded' },
			body: new URLSearchParams({
				grant_type: 'authorization_code',
				client_id: app.client_id,
				client_secret: app.client_secret,
				code,
				redirect_uri: REDIRECT,
				code_verifier: verifier,
			}).toString(),
		});
		const tokens = (await exchange.json()) as { access_token: string; refresh_token: string };
		expect(exchange.status).toBe(200);

		const store = oauthCredentials(fixture.sandbox.url, app, 'authorizationCode', { ...tokens });
		const first = await runStora({ credentials: store, parameters: getSites });
		expect(first.error).toBeUndefined();

		await expireAll();
		const second = await runStora({ credentials: store, parameters: getSites });
		expect(second.error).toBeUndefined();
		expect(second.items).toHaveLength(2);

		const stored = store.storaOAuth2Api.oauthTokenData as {
			access_token: string;
			refresh_token: string;
		};
		expect(stored.access_token).not.toBe(tokens.access_token);
		expect(stored.refresh_token).not.toBe(tokens.refresh_token);

		// The first refresh token was revoked by the rotation; the stored one still works.
		const refresh = async (refreshToken: string) =>
			await fetch(`${fixture.sandbox.url}/oauth2/token`, {
				method: 'POST',
				headers: { 'content-type': 'application/x-www-form-urlencoded' },
				body: new URLSearchParams({
					grant_type: 'refresh_token',
					client_id: app.client_id,
					client_secret: app.client_secret,
					refresh_token: refreshToken,
				}).toString(),
			});
		expect((await refresh(tokens.refresh_token)).status).toBe(400);
		expect((await refresh(stored.refresh_token)).status).toBe(200);
	});

	describe("the credential's Scope", () => {
		it('asks by default only for scopes the docs show, which an app limited to them is granted', async () => {
			const scope = String(scopeProperty().default);
			expect(scope.split(' ').sort()).toEqual([...DEFAULT_SCOPES].sort());
			expect(scope.split(' ').filter((name) => !DOCUMENTED_SCOPES.includes(name))).toEqual([]);

			const app = await client().oauthClient([REDIRECT], DOCUMENTED_SCOPES);
			const store = withScope(oauthCredentials(fixture.sandbox.url, app), scope);
			const result = await runStora({ credentials: store, parameters: getSites });
			expect(result.error).toBeUndefined();
			const [tokenRequest] = await client().requests();
			expect(tokenRequest).toMatchObject({ path: '/oauth2/token', status: 200 });
			expect(tokenRequest.body).toMatchObject({ grant_type: 'client_credentials', scope });

			// With a scope the docs do not show, the same app gets no token at all: why the extras are opt-in.
			await client().clearRequests();
			const extra = withScope(
				oauthCredentials(fixture.sandbox.url, app),
				`${scope} public.opportunity:write`,
			);
			expect((await runStora({ credentials: extra, parameters: getSites })).error).toBeDefined();
			const calls = new Set(
				(await client().requests()).map((request) => `${request.path} ${request.status}`),
			);
			expect([...calls]).toEqual(['/oauth2/token 400']);
		});

		it('names every optional scope and what needs it in the Scope description; one added is granted', async () => {
			const { description, default: scope } = scopeProperty();
			for (const [name, neededBy] of Object.entries(OPTIONAL_SCOPES)) {
				expect(String(scope).split(' ')).not.toContain(name);
				expect(description).toContain(name);
				expect(neededBy).toMatch(/\w/);
			}
			expect([...ALL_SCOPES].sort()).toEqual(
				[...DEFAULT_SCOPES, ...Object.keys(OPTIONAL_SCOPES)].sort(),
			);

			const app = await client().oauthClient([REDIRECT]);
			const store = withScope(
				oauthCredentials(fixture.sandbox.url, app),
				`${String(scope)} public.webhook_endpoint:write`,
			);
			const info = await runStora({
				credentials: store,
				parameters: { authentication: 'oAuth2', resource: 'accessToken', operation: 'getInfo' },
			});
			expect(info.error).toBeUndefined();
			expect(info.items[0].json.scope).toContain('public.webhook_endpoint:write');
		});
	});
});
