/** Webhook endpoints (`/webhook_endpoints`) over real HTTP: the secret shown once, list, get, update, delete, URL and body rules. */
import { client } from '../../client';
import { endpointBody, webhookModules as modules } from '../calls';
import { useSandboxWithClients, withSandbox } from '../fixture';

describe('webhook endpoints resource', () => {
	const fx = useSandboxWithClients({ modules });

	it('returns the 64-hex secret only on create; reads, lists and updates show null', async () => {
		const created = await fx.call('POST', '/2025-09/webhook_endpoints', {
			body: endpointBody('https://hooks.example.test/stora', {
				description: 'ops',
				metadata: { team: 'ops' },
			}),
		});
		expect(created.status).toBe(200);
		const endpoint = created.body.endpoint;
		expect(endpoint).toEqual({
			id: expect.stringMatching(/^we_/),
			name: 'My receiver',
			description: 'ops',
			url: 'https://hooks.example.test/stora',
			api_version: '2025-09',
			event_types: ['invoice.paid', 'invoice.created'],
			status: 'enabled',
			disabled_at: null,
			secret: expect.stringMatching(/^[0-9a-f]{64}$/),
			metadata: { team: 'ops' },
			creator: { id: expect.stringMatching(/^tok_/) },
			created_at: expect.any(String),
			updated_at: expect.any(String),
		});

		const shown = await fx.call('GET', `/2025-09/webhook_endpoints/${endpoint.id}`);
		expect(shown.body.endpoint.secret).toBeNull();
		const listed = await fx.call('GET', '/2025-09/webhook_endpoints');
		expect(listed.body.endpoints.map((e: { secret: unknown }) => e.secret)).toEqual([null]);
		expect(listed.body.meta.pagination.count).toBe(1);
		const patched = await fx.call('PATCH', `/2025-09/webhook_endpoints/${endpoint.id}`, {
			body: { name: 'Renamed', status: 'disabled' },
		});
		expect(patched.body.endpoint).toMatchObject({
			name: 'Renamed',
			status: 'disabled',
			secret: null,
			disabled_at: expect.any(String),
		});
		expect(
			(await fx.call('GET', '/2025-09/webhook_endpoints?status=enabled')).body.endpoints,
		).toEqual([]);
		expect(JSON.stringify((await fx.call('GET', '/__sandbox/state/endpoints')).body)).not.toContain(
			endpoint.secret,
		);

		const deleted = await fx.call('DELETE', `/2025-09/webhook_endpoints/${endpoint.id}`);
		expect(deleted.body.success.message).toContain(endpoint.id);
		expect((await fx.call('GET', `/2025-09/webhook_endpoints/${endpoint.id}`)).status).toBe(404);
	});

	it('rejects http:// URLs with 422 invalid_content pointing at /url', async () => {
		const res = await fx.call('POST', '/2025-09/webhook_endpoints', {
			body: endpointBody('http://hooks.example.test/stora'),
		});
		expect(res.status).toBe(422);
		expect(res.body.error.code).toBe('invalid_content');
		expect(res.body.error.details).toEqual([{ message: expect.any(String), pointer: '/url' }]);
	});

	it('validates event types, api_version and required fields', async () => {
		const res = await fx.call('POST', '/2025-09/webhook_endpoints', {
			body: {
				api_version: '2024-01',
				url: 'https://x.test',
				event_types: ['invoice.paid', 'invoice.exploded'],
			},
		});
		expect(res.status).toBe(422);
		const pointers = res.body.error.details.map((d: { pointer: string | null }) => d.pointer);
		expect(pointers).toEqual(expect.arrayContaining([null, '/api_version', '/event_types/1']));
		const empty = await fx.call('POST', '/2025-09/webhook_endpoints', {
			body: endpointBody('https://x.test', { event_types: [] }),
		});
		expect(empty.body.error.details[0].pointer).toBe('/event_types');
	});

	it('accepts http:// URLs when allowHttpWebhooks is set', async () => {
		await withSandbox({ modules, allowHttpWebhooks: true }, async (lax) => {
			const res = await client(lax.url, lax.token)('POST', '/2025-09/webhook_endpoints', {
				body: endpointBody('http://127.0.0.1:9/hook'),
			});
			expect(res.status).toBe(200);
		});
	});
});
