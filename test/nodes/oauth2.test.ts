/**
 * The node with the Stora OAuth2 API credential, through n8n-core's own OAuth2 request path: client credentials
 * (token fetched, then fetched again after it expires) and authorization code with PKCE (refresh with rotation, the
 * new refresh token kept in the credential).
 */
import { createHash, randomBytes } from 'node:crypto';

import { oauthCredentials, runStora } from '../helpers/n8n';
import { useSandbox } from '../helpers/sandboxFixture';

const REDIRECT = 'http://127.0.0.1:5678/rest/oauth2-credential/callback';
const getSites = { authentication: 'oAuth2', resource: 'site', operation: 'getAll', returnAll: false, limit: 2 };

describe('Stora node with OAuth2', () => {
	const fixture = useSandbox();
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
		const firstToken = (store.storaOAuth2Api.oauthTokenData as { access_token: string }).access_token;
		expect(firstToken).toBeTruthy();

		await expireAll();
		const second = await runStora({ credentials: store, parameters: getSites });
		expect(second.error).toBeUndefined();
		expect(second.items).toHaveLength(2);
		const secondToken = (store.storaOAuth2Api.oauthTokenData as { access_token: string }).access_token;
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
		expect(tokenRequest.body).toMatchObject({ grant_type: 'client_credentials', client_id: app.client_id });
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
		const consent = await fetch(`${fixture.sandbox.url}/oauth2/authorize?${new URLSearchParams(params)}`);
		expect(await consent.text()).toContain('Approve');
		const approved = await fetch(`${fixture.sandbox.url}/oauth2/authorize`, {
			method: 'POST',
			redirect: 'manual',
			headers: { 'content-type': 'application/x-www-form-urlencoded' },
			body: new URLSearchParams({ ...params, decision: 'approve' }).toString(),
		});
		const code = new URL(approved.headers.get('location') as string).searchParams.get('code') as string;
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

		const stored = store.storaOAuth2Api.oauthTokenData as { access_token: string; refresh_token: string };
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
});
