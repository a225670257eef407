/** Signed webhook delivery with retries, over real HTTP (the webhook endpoints resource: resources/webhookEndpointRoutes.test.ts). */
import { createHmac, timingSafeEqual } from 'node:crypto';

import { startReceiver } from '../core/testing';
import { endpointBody, webhookModules as modules } from './calls';
import { useSandboxWithClients } from './fixture';

describe('webhook delivery', () => {
	const fx = useSandboxWithClients({
		modules,
		allowHttpWebhooks: true,
		webhookRetrySchedule: [0, 10, 20],
	});

	async function subscribe(url: string, eventTypes = ['invoice.paid']) {
		const res = await fx.call('POST', '/2025-09/webhook_endpoints', {
			body: endpointBody(url, { event_types: eventTypes }),
		});
		expect(res.status).toBe(200);
		return res.body.endpoint as { id: string; secret: string };
	}

	it('POSTs a signed, documented envelope that verifies with HMAC-SHA256', async () => {
		const receiver = await startReceiver();
		try {
			const endpoint = await subscribe(receiver.url);
			const invoice = fx.sandbox.core.all('invoices')[0];
			const emitted = await fx.call('POST', '/__sandbox/events', {
				body: { type: 'invoice.paid', id: invoice.id },
			});
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
			const expected = createHmac('sha256', endpoint.secret)
				.update(`${match![1]}.${body}`)
				.digest();
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
			expect(payload.event.data.invoice.gadget).toMatchObject({
				id: expect.stringMatching(/^gdg_/),
				name: expect.any(String),
			});

			const deliveries = await fx.call('GET', '/__sandbox/deliveries');
			expect(deliveries.body.deliveries).toEqual([
				expect.objectContaining({
					event_id: payload.event.id,
					endpoint_id: endpoint.id,
					url: receiver.url,
					attempt: 1,
					status: 200,
				}),
			]);
		} finally {
			await receiver.close();
		}
	});

	it('retries a failed delivery per the schedule with a stable event id and fresh request ids', async () => {
		const receiver = await startReceiver([500]);
		try {
			const endpoint = await subscribe(receiver.url);
			const emitted = await fx.call('POST', '/__sandbox/events', {
				body: { type: 'invoice.paid' },
			});
			await fx.sandbox.whenDeliveriesIdle();

			expect(receiver.received).toHaveLength(2);
			const ids = receiver.received.map((r) => JSON.parse(r.body).event.id);
			expect(ids).toEqual([emitted.body.event.id, emitted.body.event.id]);
			expect(receiver.received[0].headers['x-stora-request-id']).not.toBe(
				receiver.received[1].headers['x-stora-request-id'],
			);
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
			await fx.call('PATCH', `/2025-09/webhook_endpoints/${disabled.id}`, {
				body: { status: 'disabled' },
			});
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
			expect(
				(await fx.call('POST', '/__sandbox/events', { body: { type: 'nonsense' } })).status,
			).toBe(422);
			expect(
				(
					await fx.call('POST', '/__sandbox/events', {
						body: { type: 'invoice.paid', id: 'inv_missing' },
					})
				).status,
			).toBe(404);
			expect(
				(await fx.call('POST', '/__sandbox/events', { body: { type: 'contact.created' } })).status,
			).toBe(404);
		} finally {
			await receiver.close();
		}
	});
});
