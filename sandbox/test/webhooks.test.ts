/** Webhook endpoints resource and signed webhook delivery with retries, over real HTTP. */
import { createHmac, timingSafeEqual } from 'node:crypto';

import { client } from '../client';
import { invoicesModule, startReceiver, widgetsModule } from '../core/testing';
import { useSandboxWithClients, withSandbox } from './fixture';
import { webhookEndpoints } from '../resources/integration/webhookEndpoints';

const modules = [widgetsModule, invoicesModule, webhookEndpoints];
const endpointBody = (url: string, extra: Record<string, unknown> = {}) => ({
	name: 'My receiver',
	api_version: '2025-09',
	url,
	event_types: ['invoice.paid', 'invoice.created'],
	...extra,
});

describe('webhook endpoints resource', () => {
	const fx = useSandboxWithClients({ modules });

	it('returns the 64-hex secret only on create; reads, lists and updates show null', async () => {
		const created = await fx.call('POST', '/2025-09/webhook_endpoints', {
			body: endpointBody('https://hooks.example.test/stora', { description: 'ops', metadata: { team: 'ops' } }),
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
		const patched = await fx.call('PATCH', `/2025-09/webhook_endpoints/${endpoint.id}`, { body: { name: 'Renamed', status: 'disabled' } });
		expect(patched.body.endpoint).toMatchObject({ name: 'Renamed', status: 'disabled', secret: null, disabled_at: expect.any(String) });
		expect((await fx.call('GET', '/2025-09/webhook_endpoints?status=enabled')).body.endpoints).toEqual([]);
		expect(JSON.stringify((await fx.call('GET', '/__sandbox/state/endpoints')).body)).not.toContain(endpoint.secret);

		const deleted = await fx.call('DELETE', `/2025-09/webhook_endpoints/${endpoint.id}`);
		expect(deleted.body.success.message).toContain(endpoint.id);
		expect((await fx.call('GET', `/2025-09/webhook_endpoints/${endpoint.id}`)).status).toBe(404);
	});

	it('rejects http:// URLs with 422 invalid_content pointing at /url', async () => {
		const res = await fx.call('POST', '/2025-09/webhook_endpoints', { body: endpointBody('http://hooks.example.test/stora') });
		expect(res.status).toBe(422);
		expect(res.body.error.code).toBe('invalid_content');
		expect(res.body.error.details).toEqual([{ message: expect.any(String), pointer: '/url' }]);
	});

	it('validates event types, api_version and required fields', async () => {
		const res = await fx.call('POST', '/2025-09/webhook_endpoints', {
			body: { api_version: '2024-01', url: 'https://x.test', event_types: ['invoice.paid', 'invoice.exploded'] },
		});
		expect(res.status).toBe(422);
		const pointers = res.body.error.details.map((d: { pointer: string | null }) => d.pointer);
		expect(pointers).toEqual(expect.arrayContaining([null, '/api_version', '/event_types/1']));
		const empty = await fx.call('POST', '/2025-09/webhook_endpoints', { body: endpointBody('https://x.test', { event_types: [] }) });
		expect(empty.body.error.details[0].pointer).toBe('/event_types');
	});

	it('accepts http:// URLs when allowHttpWebhooks is set', async () => {
		await withSandbox({ modules, allowHttpWebhooks: true }, async (lax) => {
			const res = await client(lax.url, lax.token)('POST', '/2025-09/webhook_endpoints', { body: endpointBody('http://127.0.0.1:9/hook') });
			expect(res.status).toBe(200);
		});
	});
});

describe('webhook delivery', () => {
	const fx = useSandboxWithClients({ modules, allowHttpWebhooks: true, webhookRetrySchedule: [0, 10, 20] });

	async function subscribe(url: string, eventTypes = ['invoice.paid']) {
		const res = await fx.call('POST', '/2025-09/webhook_endpoints', { body: endpointBody(url, { event_types: eventTypes }) });
		expect(res.status).toBe(200);
		return res.body.endpoint as { id: string; secret: string };
	}

	it('POSTs a signed, documented envelope that verifies with HMAC-SHA256', async () => {
		const receiver = await startReceiver();
		try {
			const endpoint = await subscribe(receiver.url);
			const invoice = fx.sandbox.core.all('invoices')[0];
			const emitted = await fx.call('POST', '/__sandbox/events', { body: { type: 'invoice.paid', id: invoice.id } });
			expect(emitted.status).toBe(200);
			await fx.sandbox.whenDeliveriesIdle();

			expect(receiver.received).toHaveLength(1);
			const { headers, body } = receiver.received[0];
			expect(headers['content-type']).toBe('application/json');
			expect(headers['user-agent']).toBe('Stora-Webhooks/1.0');
			expect(headers['x-stora-request-id']).toEqual(expect.any(String));

			const signature = String(headers['x-stora-signature']);
			const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(signature);
			expect(match).not.toBeNull();
			const expected = createHmac('sha256', endpoint.secret).update(`${match![1]}.${body}`).digest();
			expect(timingSafeEqual(expected, Buffer.from(match![2], 'hex'))).toBe(true);
			expect(Math.abs(Number(match![1]) - Date.now() / 1000)).toBeLessThan(300);

			const payload = JSON.parse(body);
			expect(payload).toEqual({
				event: {
					id: emitted.body.event.id,
					type: 'invoice.paid',
					api_version: '2025-09',
					created_at: expect.any(String),
					data: { invoice: expect.objectContaining({ id: invoice.id, number: 'INV-0001' }) },
					meta: expect.objectContaining({ curies: expect.any(Array) }),
				},
			});
			expect(payload.event.id).toMatch(/^evt_/);
			// related records are embedded expanded, as in the docs' event schemas
			expect(payload.event.data.invoice.gadget).toMatchObject({ id: expect.stringMatching(/^gdg_/), name: expect.any(String) });

			const deliveries = await fx.call('GET', '/__sandbox/deliveries');
			expect(deliveries.body.deliveries).toEqual([
				expect.objectContaining({ event_id: payload.event.id, endpoint_id: endpoint.id, url: receiver.url, attempt: 1, status: 200 }),
			]);
		} finally {
			await receiver.close();
		}
	});

	it('retries a failed delivery per the schedule with a stable event id and fresh request ids', async () => {
		const receiver = await startReceiver([500]);
		try {
			const endpoint = await subscribe(receiver.url);
			const emitted = await fx.call('POST', '/__sandbox/events', { body: { type: 'invoice.paid' } });
			await fx.sandbox.whenDeliveriesIdle();

			expect(receiver.received).toHaveLength(2);
			const ids = receiver.received.map((r) => JSON.parse(r.body).event.id);
			expect(ids).toEqual([emitted.body.event.id, emitted.body.event.id]);
			expect(receiver.received[0].headers['x-stora-request-id']).not.toBe(receiver.received[1].headers['x-stora-request-id']);
			expect(receiver.received[0].body).toBe(receiver.received[1].body);
			expect(fx.sandbox.deliveries().map((d) => [d.endpoint_id, d.attempt, d.status])).toEqual([
				[endpoint.id, 1, 500],
				[endpoint.id, 2, 200],
			]);
		} finally {
			await receiver.close();
		}
	});

	it('gives up after the last scheduled retry and records network errors', async () => {
		const receiver = await startReceiver([500, 502, 503, 504, 500]);
		const dead = await startReceiver();
		await dead.close(); // nothing listens on this port any more
		try {
			await subscribe(receiver.url);
			await subscribe(dead.url);
			await fx.call('POST', '/__sandbox/events', { body: { type: 'invoice.paid' } });
			await fx.sandbox.whenDeliveriesIdle();
			expect(receiver.received).toHaveLength(4); // 1 attempt + 3 retries
			const failed = fx.sandbox.deliveries().filter((d) => d.url === dead.url);
			expect(failed.map((d) => d.attempt)).toEqual([1, 2, 3, 4]);
			expect(failed.every((d) => d.status === null && typeof d.error === 'string')).toBe(true);
		} finally {
			await receiver.close();
		}
	});

	it('delivers only to enabled endpoints subscribed to the type', async () => {
		const receiver = await startReceiver();
		try {
			const paid = await subscribe(receiver.url, ['invoice.paid']);
			await subscribe(receiver.url, ['contact.created']);
			const disabled = await subscribe(receiver.url, ['invoice.paid']);
			await fx.call('PATCH', `/2025-09/webhook_endpoints/${disabled.id}`, { body: { status: 'disabled' } });
			await fx.call('POST', '/__sandbox/events', { body: { type: 'invoice.paid' } });
			await fx.sandbox.whenDeliveriesIdle();
			expect(fx.sandbox.deliveries().map((d) => d.endpoint_id)).toEqual([paid.id]);
		} finally {
			await receiver.close();
		}
	});

	it('emits from core.emit and validates control-plane event requests', async () => {
		const receiver = await startReceiver();
		try {
			await subscribe(receiver.url, ['invoice.created']);
			fx.sandbox.core.emit('invoice.created', fx.sandbox.core.all('invoices')[0]);
			await fx.sandbox.whenDeliveriesIdle();
			expect(JSON.parse(receiver.received[0].body).event.type).toBe('invoice.created');
			expect((await fx.call('POST', '/__sandbox/events', { body: { type: 'nonsense' } })).status).toBe(422);
			expect((await fx.call('POST', '/__sandbox/events', { body: { type: 'invoice.paid', id: 'inv_missing' } })).status).toBe(404);
			expect((await fx.call('POST', '/__sandbox/events', { body: { type: 'contact.created' } })).status).toBe(404);
		} finally {
			await receiver.close();
		}
	});
});
