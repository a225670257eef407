/**
 * The OAuth helper endpoints outside the versioned API: what the credential's token may do, and introspection.
 */
import { runStora, tokenCredentials } from '../../helpers/n8n';
import { useResourceFixture } from '../../helpers/sandboxFixture';

describe('Stora node: Access Token', () => {
	const fixture = useResourceFixture();

	it('gets the scopes and expiry of the token the credential uses, from /oauth2/token/info', async () => {
		const token = await fixture.client.token(['public.site:read', 'public.contact:read']);
		const result = await runStora({
			credentials: tokenCredentials(fixture.sandbox.url, token),
			parameters: { resource: 'accessToken', operation: 'getInfo' },
		});
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(1);
		expect([...(result.items[0].json.scope as string[])].sort()).toEqual([
			'public.contact:read',
			'public.site:read',
		]);
		const [request] = await fixture.client.requests();
		expect(request).toMatchObject({ method: 'GET', path: '/oauth2/token/info' });
	});

	it('introspects a token: active for a live one, inactive after it expires', async () => {
		const other = await fixture.client.token(['public.site:read']);
		const introspect = async () =>
			await runStora({
				credentials: fixture.credentials(),
				parameters: { resource: 'accessToken', operation: 'introspect', token: other },
			});
		const live = await introspect();
		expect(live.items[0].json).toMatchObject({ active: true, scope: 'public.site:read' });
		const [request] = await fixture.client.requests();
		expect(request).toMatchObject({
			method: 'POST',
			path: '/oauth2/introspect',
			body: { token: other },
		});

		await fetch(`${fixture.sandbox.url}/__sandbox/expire-tokens`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ access_token: other }),
		});
		const expired = await introspect();
		expect(expired.items[0].json).toMatchObject({ active: false });
	});
});
