/** Router, envelopes, errors, expand, ids and the control plane, over real HTTP. */
import { client } from '../client';
import { RateLimiter } from '../core/ratelimit';
import { invoicesModule, widgetsModule } from '../core/testing';
import { useSandboxWithClients, withSandbox } from './fixture';
import { webhookEndpoints } from '../resources/integration/webhookEndpoints';

const modules = [widgetsModule, invoicesModule, webhookEndpoints];

describe('sandbox core: router, envelopes and errors', () => {
	const fx = useSandboxWithClients({ modules });

	const firstWidget = () => fx.sandbox.core.all('widgets')[0];

	it('renders a single record in {key, meta} with request_id and curies, matching X-Request-Id', async () => {
		const widget = firstWidget();
		const res = await fx.call('GET', `/2025-09/widgets/${widget.id}`);
		expect(res.status).toBe(200);
		expect(Object.keys(res.body)).toEqual(['widget', 'meta']);
		expect(res.body.widget).toEqual({ ...widget, name_length: String(widget.name).length });
		expect(res.body.meta.request_id).toBe(res.headers.get('x-request-id'));
		expect(res.body.meta.curies).toEqual(
			expect.arrayContaining([
				expect.objectContaining({
					name: 'sf',
					templated: true,
					href: expect.stringContaining('{rel}'),
				}),
			]),
		);
		// render must not leak the derived field into the store
		expect(fx.sandbox.core.get('widgets', widget.id)).not.toHaveProperty('name_length');
	});

	it('answers 401 invalid_token without a token, in the documented error envelope', async () => {
		const res = await fx.call('GET', '/2025-09/widgets', { token: null });
		expect(res.status).toBe(401);
		expect(res.body).toEqual({
			error: {
				code: 'invalid_token',
				type: 'invalid_request_error',
				message: expect.any(String),
				links: [
					{
						kind: 'open_api',
						name: expect.any(String),
						url: 'https://public-api.stora.co/2025-09/openapi.json',
					},
					{ kind: 'documentation', name: 'Errors', url: expect.stringContaining('docs.stora.co') },
				],
				details: [],
				request_id: res.headers.get('x-request-id'),
			},
		});
	});

	it('answers 401 for an unknown token and for a non-Bearer scheme', async () => {
		expect((await fx.call('GET', '/2025-09/widgets', { token: 'nope' })).body.error.code).toBe(
			'invalid_token',
		);
		const basic = await fx.call('GET', '/2025-09/widgets', {
			token: null,
			headers: { Authorization: `Basic ${fx.sandbox.token}` },
		});
		expect(basic.status).toBe(401);
	});

	it('answers 403 forbidden naming the first missing scope', async () => {
		const readOnly = fx.sandbox.createToken(['public.widget:read']);
		const res = await fx.call('POST', '/2025-09/widgets', { token: readOnly, body: { name: 'x' } });
		expect(res.status).toBe(403);
		expect(res.body.error.code).toBe('forbidden');
		expect(res.body.error.message).toContain('public.widget:write');
		// the read still works with the same token
		expect((await fx.call('GET', '/2025-09/widgets', { token: readOnly })).status).toBe(200);
	});

	it('answers 404 invalid_endpoint for unknown paths and methods, before authentication', async () => {
		for (const [method, path] of [
			['GET', '/2025-09/nothing-here'],
			['GET', '/v1/widgets'],
			['PUT', '/2025-09/widgets'],
		]) {
			const res = await fx.call(method, path, { token: null });
			expect(res.status).toBe(404);
			expect(res.body.error.code).toBe('invalid_endpoint');
		}
	});

	it('answers 404 resource_not_found for unknown ids and ids with a wrong prefix', async () => {
		for (const id of ['wdg_doesnotexist', 'con_123']) {
			const res = await fx.call('GET', `/2025-09/widgets/${id}`);
			expect(res.status).toBe(404);
			expect(res.body.error.code).toBe('resource_not_found');
			expect(res.body.error.message).toContain(id);
		}
	});

	it('answers 400 invalid_request for an unparsable JSON body', async () => {
		const res = await fx.call('POST', '/2025-09/widgets', { raw: '{"name": "x",' });
		expect(res.status).toBe(400);
		expect(res.body.error).toMatchObject({
			code: 'invalid_request',
			type: 'invalid_request_error',
		});
	});

	it('answers 422 invalid_content with pointers from validateBody', async () => {
		const res = await fx.call('POST', '/2025-09/widgets', { body: { colour: 'red' } });
		expect(res.status).toBe(422);
		expect(res.body.error.code).toBe('invalid_content');
		expect(res.body.error.details).toEqual(
			expect.arrayContaining([
				{ message: expect.stringContaining("'name'"), pointer: null },
				{ message: expect.any(String), pointer: '/colour' },
			]),
		);
	});

	it('turns a thrown non-ApiError into a 500 api_error envelope and keeps serving', async () => {
		const res = await fx.call('GET', '/2025-09/boom');
		expect(res.status).toBe(500);
		expect(res.body.error).toMatchObject({ code: 'internal_server_error', type: 'api_error' });
		const log = await fx.call('GET', '/__sandbox/requests');
		expect(log.body.requests.at(-1).error).toContain('kaboom');
		expect((await fx.call('GET', '/2025-09/widgets')).status).toBe(200);
	});

	it('renders deletes as {success: {message}, meta}', async () => {
		const widget = firstWidget();
		const res = await fx.call('DELETE', `/2025-09/widgets/${widget.id}`);
		expect(res.status).toBe(200);
		expect(res.body).toEqual({
			success: { message: expect.stringContaining(widget.id) },
			meta: expect.objectContaining({ request_id: expect.any(String) }),
		});
		expect((await fx.call('GET', `/2025-09/widgets/${widget.id}`)).status).toBe(404);
	});
});

describe('sandbox core: expand', () => {
	const fx = useSandboxWithClients({ modules, resetEach: false });

	it('replaces a reference by the rendered record, and nested paths with dots', async () => {
		const widget = fx.sandbox.core.all('widgets')[0];
		const gadget = fx.sandbox.core.get('gadgets', (widget.gadget as { id: string }).id)!;
		const one = await fx.call('GET', `/2025-09/widgets/${widget.id}?expand=gadget`);
		expect(one.body.widget.gadget).toEqual(gadget);
		const nested = await fx.call('GET', `/2025-09/widgets/${widget.id}?expand=gadget.maker`);
		expect(nested.body.widget.gadget.maker).toMatchObject({
			id: expect.stringMatching(/^mkr_/),
			name: 'Acme',
		});
		const list = await fx.call('GET', '/2025-09/widgets?expand=gadget&limit=2');
		expect(
			list.body.widgets.every(
				(w: { gadget: { name?: string } }) => typeof w.gadget.name === 'string',
			),
		).toBe(true);
	});

	it("needs the expanded collection's read scope (403 naming it)", async () => {
		const token = fx.sandbox.createToken(['public.widget:read']);
		const widget = fx.sandbox.core.all('widgets')[0];
		const res = await fx.call('GET', `/2025-09/widgets/${widget.id}?expand=gadget`, { token });
		expect(res.status).toBe(403);
		expect(res.body.error.message).toContain('public.gadget:read');
	});

	it('rejects a path that is not a reference with 422 invalid_url_param', async () => {
		const widget = fx.sandbox.core.all('widgets')[0];
		for (const path of ['name', 'nothing', 'gadget.name']) {
			const res = await fx.call('GET', `/2025-09/widgets/${widget.id}?expand=${path}`);
			expect(res.status).toBe(422);
			expect(res.body.error.code).toBe('invalid_url_param');
			expect(res.body.error.details[0].pointer).toBe('expand');
		}
	});
});

describe('sandbox core: ids, reset and control plane', () => {
	const fx = useSandboxWithClients({ modules, resetEach: false });

	it('gives the same ids for the same seed across resets and sandboxes, and fresh ids to new records', async () => {
		const ids = fx.sandbox.core.all('widgets').map((w) => w.id);
		expect(ids.every((id) => /^wdg_[0-9a-zA-Z]{16}$/.test(id))).toBe(true);
		const created = await fx.call('POST', '/2025-09/widgets', { body: { name: 'New' } });
		expect(created.status).toBe(201);
		expect(ids).not.toContain(created.body.widget.id);

		const reset = await fx.call('POST', '/__sandbox/reset', { body: { seed: 'demo' } });
		expect(reset.status).toBe(200);
		expect(fx.sandbox.core.all('widgets').map((w) => w.id)).toEqual(ids);

		await withSandbox({ modules }, async (other) => {
			expect(other.core.all('widgets').map((w) => w.id)).toEqual(ids);
		});
	});

	it('keeps the startup token across resets but drops other tokens; `empty` has no records', async () => {
		const extra = fx.sandbox.createToken('all');
		await fx.call('POST', '/__sandbox/reset', { body: { seed: 'empty' } });
		expect(fx.sandbox.core.all('widgets')).toEqual([]);
		expect((await fx.call('GET', '/2025-09/widgets')).status).toBe(200);
		expect((await fx.call('GET', '/2025-09/widgets', { token: extra })).status).toBe(401);
		const unknown = await fx.call('POST', '/__sandbox/reset', { body: { seed: 'nope' } });
		expect(unknown.status).toBe(422);
		await fx.call('POST', '/__sandbox/reset', { body: { seed: 'demo' } });
	});

	it('serves collection state as rendered, by name or alias', async () => {
		const state = await fx.call('GET', '/__sandbox/state/widgets');
		expect(state.body.widgets).toHaveLength(7);
		expect(state.body.widgets[0]).toHaveProperty('name_length');
		expect((await fx.call('GET', '/__sandbox/state/webhook_endpoints')).body).toEqual({
			webhook_endpoints: [],
		});
		expect((await fx.call('GET', '/__sandbox/state/nothing')).status).toBe(404);
	});

	it('records API calls (not control-plane calls) with a redacted Authorization header', async () => {
		await fx.call('DELETE', '/__sandbox/requests');
		await fx.call('POST', '/2025-09/widgets?expand=gadget', { body: { name: 'Logged' } });
		await fx.call('GET', '/__sandbox/state/widgets');
		const log = await fx.call('GET', '/__sandbox/requests');
		expect(log.body.requests).toEqual([
			expect.objectContaining({
				method: 'POST',
				path: '/2025-09/widgets',
				query: { expand: 'gadget' },
				body: { name: 'Logged' },
				status: 201,
				headers: expect.objectContaining({ authorization: 'Bearer ***' }),
			}),
		]);
		await fx.call('DELETE', '/__sandbox/requests');
		expect((await fx.call('GET', '/__sandbox/requests')).body.requests).toEqual([]);
	});

	it('issues tokens with chosen scopes from the control plane, and "all" covers every route scope', async () => {
		const res = await fx.call('POST', '/__sandbox/tokens', {
			body: { scopes: ['public.widget:read'] },
		});
		expect(res.body.scopes).toEqual(['public.widget:read']);
		expect(
			(await fx.call('GET', '/2025-09/widgets', { token: res.body.access_token })).status,
		).toBe(200);
		const all = await fx.call('POST', '/__sandbox/tokens', { body: { scopes: 'all' } });
		expect(all.body.scopes).toEqual(
			expect.arrayContaining([
				'public.widget:read',
				'public.widget:write',
				'public.gadget:read',
				'public.webhook_endpoint:write',
				'public.price_adjustment:skip_notifications',
				'public.staff:read',
				'public.access_token:read',
				'public.application:read',
			]),
		);
	});

	it('moves the sandbox clock forward from the control plane (and reset puts it back)', async () => {
		const before = fx.sandbox.core.now().getTime();
		const res = await fx.call('POST', '/__sandbox/clock', { body: { advance_seconds: 3600 } });
		expect(Date.parse(res.body.now) - before).toBeGreaterThanOrEqual(3_600_000);
		expect(fx.sandbox.core.now().getTime() - before).toBeGreaterThanOrEqual(3_600_000);
		fx.sandbox.reset();
		expect(fx.sandbox.core.now().getTime() - before).toBeLessThan(3_600_000);
	});

	it('answers 404 invalid_endpoint for unknown control-plane paths', async () => {
		const res = await fx.call('GET', '/__sandbox/nothing');
		expect(res.status).toBe(404);
		expect(res.body.error.code).toBe('invalid_endpoint');
	});
});

describe('sandbox with the real resource modules', () => {
	it('starts with the default registry and the demo seed', async () => {
		await withSandbox({}, async (sandbox) => {
			const res = await client(sandbox.url, sandbox.token)('GET', '/2025-09/webhook_endpoints');
			expect(res.status).toBe(200);
			expect(res.body.endpoints).toEqual([]);
			expect(sandbox.core.collectionNames()).toEqual(expect.arrayContaining(['endpoints']));
		});
	});
});

describe('sandbox rate limiter: where minute windows start', () => {
	const at = (iso: string) => Date.parse(iso);

	it('starts them on the clock, or at the second startMinutesAt names, counting anew', () => {
		const limiter = new RateLimiter({ perSecond: 10, perMinute: 2 });
		expect(limiter.hit('t', at('2026-01-01T10:00:50Z')).allowed).toBe(true);
		expect(limiter.hit('t', at('2026-01-01T10:00:51Z')).headers['RateLimit-Reset']).toBe(
			String(at('2026-01-01T10:01:00Z') / 1000),
		);
		expect(limiter.hit('t', at('2026-01-01T10:00:52Z')).allowed).toBe(false);

		limiter.startMinutesAt(at('2026-01-01T10:00:53Z'));
		const first = limiter.hit('t', at('2026-01-01T10:00:53Z'));
		expect(first.allowed).toBe(true);
		expect(limiter.hit('t', at('2026-01-01T10:01:10Z')).allowed).toBe(true);
		const full = limiter.hit('t', at('2026-01-01T10:01:20Z'));
		expect(full.allowed).toBe(false);
		expect(full.headers['RateLimit-Reset']).toBe(String(at('2026-01-01T10:01:53Z') / 1000));
		expect(full.retryAfter).toBe(33);
		expect(limiter.hit('t', at('2026-01-01T10:01:53Z')).allowed).toBe(true);
		expect(() => limiter.startMinutesAt(at('2026-01-01T10:00:53Z') + 500)).toThrow('whole second');
	});
});
