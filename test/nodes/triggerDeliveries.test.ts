/**
 * Deliveries to the Stora Trigger: a verified event starts the workflow (or only its resource), and a delivery
 * unsigned, forged, stale, from the future, malformed or tampered with gets 401 without starting anything, whichever
 * timestamp unit and signature encoding the sender used. Its registrations are in triggerRegistration.test.ts.
 */
import { createHmac, randomUUID } from 'node:crypto';

import type { StartedSandbox } from '../../sandbox';
import {
	SIGNATURE_FUTURE_SKEW_SECONDS,
	SIGNATURE_TOLERANCE_SECONDS,
} from '../../nodes/StoraTrigger/signature';
import { type TriggerHarness, useTriggerSandbox } from '../helpers/trigger';

function signed(
	secret: string,
	body: string,
	timestamp: number = Math.floor(Date.now() / 1000),
	encoding: 'hex' | 'base64' | 'base64url' = 'hex',
) {
	const v1 = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest(encoding);
	return `t=${timestamp},v1=${v1}`;
}

describe('Stora Trigger', () => {
	const fixture = useTriggerSandbox(['contact.created', 'invoice.paid']);
	let sandbox: StartedSandbox;
	let harness: TriggerHarness;
	beforeEach(() => ({ sandbox, harness } = fixture));

	const registration = (slot: 'test' | 'production') => harness.registration(slot);

	describe('deliveries', () => {
		it('starts the workflow with the verified event and its delivery request id', async () => {
			await harness.activate();
			const { event } = (await (
				await fetch(`${sandbox.url}/__sandbox/events`, {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify({ type: 'contact.created' }),
				})
			).json()) as { event: { id: string; type: string; data: { contact: { id: string } } } };
			await harness.waitForDeliveries(1);
			const [delivery] = harness.received;
			expect(delivery.status).toBe(200);
			expect(delivery.workflowData).toHaveLength(1);
			expect(delivery.workflowData?.[0]).toMatchObject({
				id: event.id,
				type: 'contact.created',
				data: { contact: { id: event.data.contact.id } },
			});
			expect(String(delivery.workflowData?.[0].request_id)).not.toBe('');
		});

		it('outputs only the resource when asked to', async () => {
			harness.setParameters({ options: { resourceOnly: true } });
			await harness.activate();
			const { event } = (await (
				await fetch(`${sandbox.url}/__sandbox/events`, {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify({ type: 'invoice.paid' }),
				})
			).json()) as { event: { data: { invoice: { id: string } } } };
			await harness.waitForDeliveries(1);
			expect(harness.received[0].workflowData).toEqual([event.data.invoice]);
		});

		describe('rejects without starting anything', () => {
			let body = '';
			beforeEach(() => {
				const id = `evt_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
				body = JSON.stringify({
					event: {
						id,
						type: 'contact.created',
						created_at: new Date().toISOString(),
						data: { contact: { id: 'con_1' } },
					},
				});
			});
			const post = async (headers: Record<string, string>, payload = body) =>
				await fetch(harness.productionUrl(), {
					method: 'POST',
					headers: { 'content-type': 'application/json', ...headers },
					body: payload,
				});
			const old = () => Math.floor(Date.now() / 1000) - SIGNATURE_TOLERANCE_SECONDS - 60;
			const ahead = () => Math.floor(Date.now() / 1000) + SIGNATURE_FUTURE_SKEW_SECONDS + 60;

			beforeEach(async () => await harness.activate());

			it('accepts a correctly signed delivery (control)', async () => {
				const response = await post({
					'x-stora-signature': signed(registration('production')!.secret, body),
				});
				expect(response.status).toBe(200);
				expect(harness.received.at(-1)?.workflowData).toHaveLength(1);
			});

			// The docs show neither the unit of `t` nor the encoding of `v1`: every combination a sender may use passes.
			it.each([
				['seconds, hex', () => signed(registration('production')!.secret, body)],
				['milliseconds, hex', () => signed(registration('production')!.secret, body, Date.now())],
				[
					'seconds, base64',
					() => signed(registration('production')!.secret, body, undefined, 'base64'),
				],
				[
					'milliseconds, base64url',
					() => signed(registration('production')!.secret, body, Date.now(), 'base64url'),
				],
			])('accepts a delivery signed with %s', async (_name, header) => {
				const response = await post({ 'x-stora-signature': header() });
				expect(response.status).toBe(200);
				expect(harness.received.at(-1)?.workflowData).toHaveLength(1);
			});

			it.each([
				['unsigned', () => ({})],
				['forged', () => ({ 'x-stora-signature': signed('0'.repeat(64), body) })],
				[
					'stale',
					() => ({ 'x-stora-signature': signed(registration('production')!.secret, body, old()) }),
				],
				[
					'future',
					() => ({
						'x-stora-signature': signed(registration('production')!.secret, body, ahead()),
					}),
				],
				['malformed', () => ({ 'x-stora-signature': 'v1=abc' })],
				[
					'stale in milliseconds',
					() => ({
						'x-stora-signature': signed(registration('production')!.secret, body, old() * 1000),
					}),
				],
				[
					'stale in base64',
					() => ({
						'x-stora-signature': signed(registration('production')!.secret, body, old(), 'base64'),
					}),
				],
				[
					'signed with another secret in base64',
					() => ({ 'x-stora-signature': signed('whsec_other', body, undefined, 'base64') }),
				],
				[
					'truncated base64',
					() => ({
						'x-stora-signature': signed(
							registration('production')!.secret,
							body,
							undefined,
							'base64',
						).slice(0, -4),
					}),
				],
			])('%s delivery gets 401', async (_name, headers) => {
				const response = await post(headers());
				expect(response.status).toBe(401);
				expect(harness.received.at(-1)?.workflowData).toBeUndefined();
			});

			it('tampered delivery gets 401', async () => {
				const header = signed(registration('production')!.secret, body);
				const response = await post(
					{ 'x-stora-signature': header },
					body.replace('con_1', 'con_2'),
				);
				expect(response.status).toBe(401);
				expect(harness.received.at(-1)?.workflowData).toBeUndefined();
			});

			it('an event type the user did not pick starts nothing, and says so with a 2xx', async () => {
				const other = body.replace('contact.created', 'deal.lost');
				const response = await post(
					{ 'x-stora-signature': signed(registration('production')!.secret, other) },
					other,
				);
				expect(response.status).toBe(200);
				expect(await response.json()).toEqual({
					received: true,
					ignored: true,
					event_id: (JSON.parse(other) as { event: { id: string } }).event.id,
					event_type: 'deal.lost',
				});
				expect(harness.received.at(-1)?.workflowData).toBeUndefined();
			});
		});
	});
});
