/**
 * The access token's routes (`GET /oauth2/token/info`, `POST /oauth2/introspect`) over real HTTP, with tokens from
 * the sandbox's OAuth 2 server (its grants: oauth.test.ts).
 */
import { OAUTH_READ as READ, OAUTH_WRITE as WRITE, useOAuthApp } from '../fixture';

describe('access token', () => {
	const { time, fx, app, token } = useOAuthApp();

	describe('introspection and token info', () => {
		it('introspects tokens (bearer required)', async () => {
			const issued = await token({
				grant_type: 'client_credentials',
				client_id: app.clientId,
				client_secret: app.clientSecret,
				scope: READ,
			});
			const iat = Math.floor(time.clock().getTime() / 1000);
			const res = await fx.call('POST', '/oauth2/introspect', {
				body: { token: issued.body.access_token },
			});
			expect(res.status).toBe(200);
			expect(res.body).toEqual({
				active: true,
				scope: READ,
				client_id: app.clientId,
				token_type: 'Bearer',
				iat,
				exp: iat + 7200,
			});
			expect(
				(await fx.call('POST', '/oauth2/introspect', { body: { token: 'unknown' } })).body,
			).toEqual({ active: false });
			expect(
				(
					await fx.call('POST', '/oauth2/introspect', {
						body: { token: issued.body.access_token },
						token: null,
					})
				).status,
			).toBe(401);
		});

		it('describes the calling token at /oauth2/token/info with an absolute expires_in', async () => {
			const issued = await token({
				grant_type: 'client_credentials',
				client_id: app.clientId,
				client_secret: app.clientSecret,
				scope: `${READ} ${WRITE}`,
			});
			const res = await fx.call('GET', '/oauth2/token/info', { token: issued.body.access_token });
			expect(res.status).toBe(200);
			expect(res.body).toEqual({
				scope: [READ, WRITE],
				expires_in: issued.body.created_at + 7200,
				created_at: issued.body.created_at,
				application: { uid: app.clientId },
				operator: { name: expect.any(String) },
			});
			expect((await fx.call('GET', '/oauth2/token/info', { token: null })).status).toBe(401);
		});
	});
});
