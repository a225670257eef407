/**
 * The sandbox OAuth 2 server over real HTTP: token grants, consent page, PKCE, refresh rotation, expiry. The access
 * token's own routes (token info, introspection): resources/accessTokenRoutes.test.ts.
 */
import { createHash, randomBytes } from 'node:crypto';

import {
	OAUTH_READ as READ,
	OAUTH_REDIRECT as REDIRECT,
	OAUTH_WRITE as WRITE,
	useOAuthApp,
} from './fixture';

describe('sandbox OAuth 2', () => {
	const { time, fx, app, token } = useOAuthApp();

	/** Walks the consent flow: GET the page, POST approve, return the redirect Location. */
	async function approve(params: Record<string, string>, decision = 'approve') {
		const page = await fx.call('GET', `/oauth2/authorize?${new URLSearchParams(params)}`, {
			token: null,
		});
		expect(page.status).toBe(200);
		const res = await fx.call('POST', '/oauth2/authorize', {
			form: { ...params, decision },
			token: null,
		});
		expect(res.status).toBe(302);
		return new URL(res.headers.get('location')!);
	}

	describe('client_credentials', () => {
		it('issues a token from a JSON body that works against the API with the granted scope only', async () => {
			const res = await token({
				grant_type: 'client_credentials',
				client_id: app.clientId,
				client_secret: app.clientSecret,
				scope: READ,
			});
			expect(res.status).toBe(200);
			expect(res.body).toEqual({
				access_token: expect.any(String),
				token_type: 'Bearer',
				expires_in: 7200,
				scope: READ,
				created_at: Math.floor(time.clock().getTime() / 1000),
				refresh_token: null,
			});
			expect(res.headers.get('cache-control')).toBe('no-store');
			expect(
				(await fx.call('GET', '/2025-09/widgets', { token: res.body.access_token })).status,
			).toBe(200);
			const write = await fx.call('POST', '/2025-09/widgets', {
				token: res.body.access_token,
				body: { name: 'x' },
			});
			expect(write.status).toBe(403);
			expect(write.body.error.message).toContain(WRITE);
		});

		it('accepts a form body with HTTP Basic client authentication and several scopes', async () => {
			const basic = Buffer.from(`${app.clientId}:${app.clientSecret}`).toString('base64');
			const res = await token(
				{ grant_type: 'client_credentials', scope: `${READ} ${WRITE}` },
				true,
				{ Authorization: `Basic ${basic}` },
			);
			expect(res.status).toBe(200);
			expect(res.body.scope).toBe(`${READ} ${WRITE}`);
			const created = await fx.call('POST', '/2025-09/widgets', {
				token: res.body.access_token,
				body: { name: 'By app' },
			});
			expect(created.status).toBe(201);
		});

		it('answers RFC 6749 errors', async () => {
			const wrongSecret = await token({
				grant_type: 'client_credentials',
				client_id: app.clientId,
				client_secret: 'nope',
				scope: READ,
			});
			expect(wrongSecret.status).toBe(401);
			expect(wrongSecret.body).toEqual({
				error: 'invalid_client',
				error_description: expect.any(String),
			});

			const badBasic = await token({ grant_type: 'client_credentials' }, true, {
				Authorization: `Basic ${Buffer.from('x:y').toString('base64')}`,
			});
			expect(badBasic.status).toBe(401);
			expect(badBasic.headers.get('www-authenticate')).toMatch(/^Basic/);

			const scope = await token({
				grant_type: 'client_credentials',
				client_id: app.clientId,
				client_secret: app.clientSecret,
				scope: 'public.contact:write',
			});
			expect(scope.status).toBe(400);
			expect(scope.body.error).toBe('invalid_scope');

			const grant = await token({
				grant_type: 'password',
				client_id: app.clientId,
				client_secret: app.clientSecret,
			});
			expect(grant.body.error).toBe('unsupported_grant_type');
			expect((await token({ client_id: app.clientId })).body.error).toBe('invalid_request');

			const malformed = await fx.call('POST', '/oauth2/token', {
				raw: '{"grant_type":',
				token: null,
			});
			expect(malformed.status).toBe(400);
			expect(malformed.body.error).toBe('invalid_request');
		});
	});

	describe('authorization_code', () => {
		it('renders an HTML consent page naming the client and the scopes, with an Approve form', async () => {
			const params = {
				client_id: app.clientId,
				redirect_uri: REDIRECT,
				response_type: 'code',
				scope: READ,
				state: 's1',
			};
			const page = await fx.call('GET', `/oauth2/authorize?${new URLSearchParams(params)}`, {
				token: null,
				headers: { Accept: 'text/html' },
			});
			expect(page.status).toBe(200);
			expect(page.headers.get('content-type')).toMatch(/^text\/html/);
			expect(page.text).toContain('Acme Integration');
			expect(page.text).toContain(READ);
			expect(page.text).not.toContain(WRITE);
			expect(page.text).toMatch(/<form method="post" action="\/oauth2\/authorize">/);
			expect(page.text).toContain('value="approve"');
			expect(page.text).toContain('name="state" value="s1"');
		});

		it('refuses unknown clients and unregistered redirect URIs without redirecting', async () => {
			const unknown = await fx.call(
				'GET',
				`/oauth2/authorize?client_id=nope&redirect_uri=${encodeURIComponent(REDIRECT)}&response_type=code`,
				{ token: null },
			);
			expect(unknown.status).toBe(400);
			const evil = await fx.call(
				'GET',
				`/oauth2/authorize?client_id=${app.clientId}&redirect_uri=${encodeURIComponent('https://evil.test/cb')}&response_type=code`,
				{ token: null },
			);
			expect(evil.status).toBe(400);
			expect(evil.headers.get('location')).toBeNull();
		});

		it('redirects with code and state, and exchanges the code once (PKCE S256)', async () => {
			const verifier = randomBytes(48).toString('base64url');
			const challenge = createHash('sha256').update(verifier).digest('base64url');
			const location = await approve({
				client_id: app.clientId,
				redirect_uri: REDIRECT,
				response_type: 'code',
				scope: `${READ} ${WRITE}`,
				state: 'xyz',
				code_challenge: challenge,
				code_challenge_method: 'S256',
			});
			expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
			expect(location.searchParams.get('state')).toBe('xyz');
			const code = location.searchParams.get('code')!;
			expect(code).toBeTruthy();

			const exchange = (extra: Record<string, string>) =>
				token(
					{
						grant_type: 'authorization_code',
						client_id: app.clientId,
						client_secret: app.clientSecret,
						code,
						redirect_uri: REDIRECT,
						...extra,
					},
					true,
				);

			const wrongVerifier = await exchange({
				code_verifier: randomBytes(48).toString('base64url'),
			});
			expect(wrongVerifier.status).toBe(400);
			expect(wrongVerifier.body.error).toBe('invalid_grant');
			const noVerifier = await exchange({});
			expect(noVerifier.body.error).toBe('invalid_request');

			const ok = await exchange({ code_verifier: verifier });
			expect(ok.status).toBe(200);
			expect(ok.body).toMatchObject({
				token_type: 'Bearer',
				expires_in: 7200,
				scope: `${READ} ${WRITE}`,
				refresh_token: expect.any(String),
			});
			expect(
				(await fx.call('GET', '/2025-09/widgets', { token: ok.body.access_token })).status,
			).toBe(200);

			const reused = await exchange({ code_verifier: verifier });
			expect(reused.body.error).toBe('invalid_grant');
		});

		it('rejects a redirect_uri that differs from the authorize request', async () => {
			const location = await approve({
				client_id: app.clientId,
				redirect_uri: REDIRECT,
				response_type: 'code',
				scope: READ,
			});
			const res = await token(
				{
					grant_type: 'authorization_code',
					client_id: app.clientId,
					client_secret: app.clientSecret,
					code: location.searchParams.get('code')!,
					redirect_uri: 'https://app.example.test/other',
				},
				true,
			);
			expect(res.body.error).toBe('invalid_grant');
		});

		it('redirects with error=access_denied when the user denies', async () => {
			const location = await approve(
				{
					client_id: app.clientId,
					redirect_uri: REDIRECT,
					response_type: 'code',
					scope: READ,
					state: 'st',
				},
				'deny',
			);
			expect(location.searchParams.get('error')).toBe('access_denied');
			expect(location.searchParams.get('state')).toBe('st');
			expect(location.searchParams.get('code')).toBeNull();
		});

		it('rotates refresh tokens and revokes the previous one', async () => {
			const location = await approve({
				client_id: app.clientId,
				redirect_uri: REDIRECT,
				response_type: 'code',
				scope: READ,
			});
			const first = await token(
				{
					grant_type: 'authorization_code',
					client_id: app.clientId,
					client_secret: app.clientSecret,
					code: location.searchParams.get('code')!,
					redirect_uri: REDIRECT,
				},
				true,
			);
			const refresh = (refreshToken: string) =>
				token(
					{
						grant_type: 'refresh_token',
						client_id: app.clientId,
						client_secret: app.clientSecret,
						refresh_token: refreshToken,
					},
					true,
				);

			const second = await refresh(first.body.refresh_token);
			expect(second.status).toBe(200);
			expect(second.body.access_token).not.toBe(first.body.access_token);
			expect(second.body.refresh_token).not.toBe(first.body.refresh_token);
			expect(second.body.scope).toBe(READ);
			expect(
				(await fx.call('GET', '/2025-09/widgets', { token: second.body.access_token })).status,
			).toBe(200);

			const replay = await refresh(first.body.refresh_token);
			expect(replay.status).toBe(400);
			expect(replay.body.error).toBe('invalid_grant');
			expect((await refresh(second.body.refresh_token)).status).toBe(200);
		});
	});

	describe('expiry', () => {
		it('rejects an OAuth access token after expires_in seconds with 401 invalid_token', async () => {
			const res = await token({
				grant_type: 'client_credentials',
				client_id: app.clientId,
				client_secret: app.clientSecret,
				scope: READ,
			});
			time.advance(7199_000);
			expect(
				(await fx.call('GET', '/2025-09/widgets', { token: res.body.access_token })).status,
			).toBe(200);
			time.advance(1000);
			const expired = await fx.call('GET', '/2025-09/widgets', { token: res.body.access_token });
			expect(expired.status).toBe(401);
			expect(expired.body.error.code).toBe('invalid_token');
		});
	});
});
