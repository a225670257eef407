import { createHmac, randomUUID } from 'node:crypto';

import { SIGNATURE_FUTURE_SKEW_SECONDS, SIGNATURE_TOLERANCE_SECONDS } from '../../nodes/Stora/helpers/signature';

import { startSandbox } from '../../sandbox';
import { withRateLimit } from '../helpers/contactUpdates';
import { tokenCredentials } from '../helpers/n8n';
import { SandboxClient } from '../../sandbox/client';
import { TriggerHarness } from '../helpers/trigger';

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;

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
	let sandbox: Sandbox;
	let client: SandboxClient;
	let harness: TriggerHarness;

	beforeAll(async () => {
		sandbox = await startSandbox({ seed: 'demo', allowHttpWebhooks: true, webhookRetrySchedule: [0, 0] });
		client = new SandboxClient(sandbox.url);
	});
	afterAll(async () => await sandbox.close());
	beforeEach(async () => {
		await client.reset('demo');
		// No budget of the node's own: this suite is about the trigger's registrations and deliveries, and its 50 or so
		// requests a minute would otherwise wait for the documented 60/min window (rateLimit.test.ts covers that).
		const credentials = withRateLimit(tokenCredentials(sandbox.url, sandbox.token), { rateLimit: 'custom', requestsPerSecond: 0, requestsPerMinute: 0 });
		harness = await new TriggerHarness(credentials, {
			events: ['contact.created', 'invoice.paid'],
		}).start();
	});
	afterEach(async () => await harness.close());

	const endpoints = async () => await client.state('webhook_endpoints');
	const registration = (slot: 'test' | 'production') => harness.registration(slot);
	const at = async (url: string) => (await endpoints()).filter((endpoint) => endpoint.url === url);

	describe('lifecycle', () => {
		it('registers one endpoint for the production URL and chosen events on activation, and keeps its secret', async () => {
			const before = (await endpoints()).length;
			await harness.activate();
			const after = await endpoints();
			expect(after).toHaveLength(before + 1);
			const created = after.find((endpoint) => endpoint.id === registration('production')?.endpointId);
			expect(created).toMatchObject({ url: harness.productionUrl(), api_version: '2025-09' });
			expect([...(created?.event_types as string[])].sort()).toEqual(['contact.created', 'invoice.paid']);
			expect(registration('production')?.secret).toMatch(/^[0-9a-f]{64}$/);
		});

		it('does not register twice when the endpoint still matches', async () => {
			await harness.activate();
			const first = registration('production')?.endpointId;
			await harness.activate('production', 'init');
			expect(registration('production')?.endpointId).toBe(first);
			expect((await endpoints()).filter((endpoint) => endpoint.url === harness.productionUrl())).toHaveLength(1);
		});

		it('keeps test and production registrations apart and removes only the test one when listening ends', async () => {
			await harness.activate();
			await harness.activate('test', 'manual');
			const all = await endpoints();
			expect(all.filter((endpoint) => endpoint.url === harness.productionUrl())).toHaveLength(1);
			expect(all.filter((endpoint) => endpoint.url === harness.testUrl())).toHaveLength(1);
			expect(registration('test')?.endpointId).not.toBe(registration('production')?.endpointId);

			expect(await harness.deactivate('test')).toBe(true);
			const left = await endpoints();
			expect(left.filter((endpoint) => endpoint.url === harness.testUrl())).toHaveLength(0);
			expect(left.filter((endpoint) => endpoint.url === harness.productionUrl())).toHaveLength(1);
			expect(registration('test')).toBeUndefined();
			expect(registration('production')).toBeDefined();
		});

		// n8n ends a test listen in `internal` mode, the same as an unpublication (n8n 2.41's test-webhooks.ts): the trigger
		// tells them apart by the URL n8n passes, so each end removes its own endpoint and nothing else.
		it.each(['an event arrived', 'Stop Listening', 'the 2-minute timeout'])(
			'a test listen ended (%s) removes its own endpoint, and the published one stays',
			async () => {
				await harness.activate();
				await harness.activate('test', 'manual');
				expect(await at(harness.testUrl())).toHaveLength(1);
				expect(await harness.deactivate('test')).toBe(true);
				expect(await at(harness.testUrl())).toHaveLength(0);
				expect(await at(harness.productionUrl())).toHaveLength(1);
				expect(registration('production')).toBeDefined();
			},
		);

		it('a new test listen over one n8n forgot (its static data gone) removes the old endpoint: one at the test URL', async () => {
			await harness.activate('test', 'manual');
			const first = registration('test')!.endpointId;
			await harness.activate('test', 'manual'); // n8n starts the new listen on empty static data
			const left = await at(harness.testUrl());
			expect(left.map((endpoint) => endpoint.id)).toEqual([registration('test')!.endpointId]);
			expect(left[0].id).not.toBe(first);
			expect(await harness.deactivate('test')).toBe(true);
			expect(await at(harness.testUrl())).toHaveLength(0);
		});

		it('an endpoint left at the production URL by a crash (saved static data lost) is removed, never duplicated', async () => {
			await harness.activate();
			const left = registration('production')!.endpointId;
			delete harness.staticData.endpoints;
			await harness.activate('production', 'init');
			const mine = await at(harness.productionUrl());
			expect(mine.map((endpoint) => endpoint.id)).toEqual([registration('production')!.endpointId]);
			expect(mine[0].id).not.toBe(left);
		});

		it("after n8n's webhook address changed, the next publication removes the endpoint at the old address", async () => {
			await harness.activate();
			const old = registration('production')!;
			// As if WEBHOOK_URL had been another address when it was registered.
			const moved = old.url.replace('127.0.0.1', 'localhost');
			const patched = await fetch(`${sandbox.url}/2025-09/webhook_endpoints/${old.endpointId}`, {
				method: 'PATCH',
				headers: { Authorization: `Bearer ${sandbox.token}`, 'content-type': 'application/json' },
				body: JSON.stringify({ url: moved }),
			});
			expect(patched.status).toBe(200);
			harness.staticData.endpoints = { [moved]: { ...old, url: moved } };
			await harness.activate('production', 'init');
			const all = await endpoints();
			expect(all.map((endpoint) => endpoint.id)).not.toContain(old.endpointId);
			expect(all.filter((endpoint) => endpoint.url === harness.productionUrl())).toHaveLength(1);
		});

		it('registers with a token that may write endpoints but not read them (the search for leftovers is skipped, with a warning)', async () => {
			const token = await client.token(['public.webhook_endpoint:write']);
			const writeOnly = await new TriggerHarness(withRateLimit(tokenCredentials(sandbox.url, token), { rateLimit: 'custom', requestsPerSecond: 0, requestsPerMinute: 0 }), {
				events: ['contact.created'],
			}).start();
			try {
				await writeOnly.activate();
				expect(await at(writeOnly.productionUrl())).toHaveLength(1);
				expect(await writeOnly.deactivate()).toBe(true);
				expect(await at(writeOnly.productionUrl())).toHaveLength(0);
			} finally {
				await writeOnly.close();
			}
		});

		it('removes the endpoint on deactivation and treats an endpoint that is already gone as success', async () => {
			const before = (await endpoints()).length;
			await harness.activate();
			expect(await harness.deactivate()).toBe(true);
			expect(await endpoints()).toHaveLength(before);
			expect(registration('production')).toBeUndefined();

			await harness.activate();
			const id = registration('production')!.endpointId;
			const response = await fetch(`${sandbox.url}/2025-09/webhook_endpoints/${id}`, {
				method: 'DELETE',
				headers: { Authorization: `Bearer ${sandbox.token}` },
			});
			expect(response.status).toBe(200);
			expect(await harness.deactivate()).toBe(true);
			expect(registration('production')).toBeUndefined();
		});

		it('re-registers with the new events after they are edited, leaving no orphan', async () => {
			await harness.activate();
			const old = registration('production')!.endpointId;
			harness.setParameters({ events: ['deal.lost'] });
			await harness.activate('production', 'update');
			const mine = (await endpoints()).filter((endpoint) => endpoint.url === harness.productionUrl());
			expect(mine).toHaveLength(1);
			expect(mine[0].id).not.toBe(old);
			expect(mine[0].event_types).toEqual(['deal.lost']);
		});

		it('registers again when the endpoint was deleted in Stora meanwhile', async () => {
			await harness.activate();
			const old = registration('production')!.endpointId;
			await fetch(`${sandbox.url}/2025-09/webhook_endpoints/${old}`, {
				method: 'DELETE',
				headers: { Authorization: `Bearer ${sandbox.token}` },
			});
			await harness.activate('production', 'init');
			const mine = (await endpoints()).filter((endpoint) => endpoint.url === harness.productionUrl());
			expect(mine).toHaveLength(1);
			expect(mine[0].id).toBe(registration('production')!.endpointId);
			expect(mine[0].id).not.toBe(old);
		});

		it('explains the WEBHOOK_URL setting when Stora refuses a non-https URL', async () => {
			const strict = await startSandbox({ seed: 'demo' });
			const strictHarness = await new TriggerHarness(tokenCredentials(strict.url, strict.token), {
				events: ['invoice.paid'],
			}).start();
			try {
				await expect(strictHarness.activate()).rejects.toMatchObject({
					description: expect.stringContaining('WEBHOOK_URL'),
					httpCode: '422',
				});
			} finally {
				await strictHarness.close();
				await strict.close();
			}
		});
	});

	describe('Additional Event Types', () => {
		const registrations = async () =>
			(await client.requests()).filter((request) => request.method === 'POST' && request.path === '/2025-09/webhook_endpoints');

		it('registers the typed types with the picked ones, each once, and starts the workflow for them', async () => {
			harness.setParameters({ events: ['invoice.paid'], options: { additionalEventTypes: ' deal.lost , invoice.paid,,' } });
			await client.clearRequests();
			await harness.activate();
			const [request] = await registrations();
			expect((request.body as { event_types: string[] }).event_types).toEqual(['deal.lost', 'invoice.paid']);
			expect(registration('production')?.events).toEqual(['deal.lost', 'invoice.paid']);
			// Activating again with the same settings keeps the endpoint: the typed types count in the comparison.
			await harness.activate('production', 'init');
			expect(await registrations()).toHaveLength(1);

			await fetch(`${sandbox.url}/__sandbox/events`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ type: 'deal.lost' }),
			});
			await harness.waitForDeliveries(1);
			expect(harness.received[0].workflowData?.[0]).toMatchObject({ type: 'deal.lost' });
		});

		it('refuses a typed entry that is not shaped like an event type, or no event at all, before any request', async () => {
			await client.clearRequests();
			harness.setParameters({ events: ['invoice.paid'], options: { additionalEventTypes: 'deal.won, Deal Won, invoice' } });
			await expect(harness.activate()).rejects.toMatchObject({
				message: 'Additional Event Types: "Deal Won", "invoice" are not event types',
				description: expect.stringContaining('lowercase words joined by dots'),
			});
			harness.setParameters({ events: [], options: { additionalEventTypes: ' , ' } });
			await expect(harness.activate()).rejects.toMatchObject({ message: 'Events: choose at least one event' });
			expect(await client.requests()).toEqual([]);
		});

		it("shows Stora's 422 for a type it does not send, pointing at Additional Event Types", async () => {
			// The docs' enum is cut off, so the sandbox accepts only the 13 confirmed types, as Stora accepts only its own.
			harness.setParameters({ events: ['invoice.paid'], options: { additionalEventTypes: 'deal.won' } });
			const error = await harness.activate().then(
				() => undefined,
				(thrown: unknown) => thrown as { httpCode?: string; message?: string; description?: string },
			);
			expect(error).toMatchObject({ httpCode: '422', message: expect.stringContaining('[invalid_content]') });
			expect(error?.description).toContain('Field /event_types/0: '); // sorted: deal.won comes first
			expect(error?.description).toContain('check Options → Additional Event Types (deal.won)');
			expect(error?.description).toContain('Operation: registering the Stora webhook endpoint (POST /webhook_endpoints)');
			expect(registration('production')).toBeUndefined();
		});
	});

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
			// A new event ID per test: accepted events are remembered per endpoint, and the sandbox's reset gives the
			// endpoint the same ID in every test.
			let body = '';
			beforeEach(() => {
				const id = `evt_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
				body = JSON.stringify({
					event: { id, type: 'contact.created', created_at: new Date().toISOString(), data: { contact: { id: 'con_1' } } },
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
				const response = await post({ 'x-stora-signature': signed(registration('production')!.secret, body) });
				expect(response.status).toBe(200);
				expect(harness.received.at(-1)?.workflowData).toHaveLength(1);
			});

			// The docs show neither the unit of `t` nor the encoding of `v1`: every combination a sender may use passes.
			it.each([
				['seconds, hex', () => signed(registration('production')!.secret, body)],
				['milliseconds, hex', () => signed(registration('production')!.secret, body, Date.now())],
				['seconds, base64', () => signed(registration('production')!.secret, body, undefined, 'base64')],
				['milliseconds, base64url', () => signed(registration('production')!.secret, body, Date.now(), 'base64url')],
			])('accepts a delivery signed with %s', async (_name, header) => {
				const response = await post({ 'x-stora-signature': header() });
				expect(response.status).toBe(200);
				expect(harness.received.at(-1)?.workflowData).toHaveLength(1);
			});

			it.each([
				['unsigned', () => ({})],
				['forged', () => ({ 'x-stora-signature': signed('0'.repeat(64), body) })],
				['stale', () => ({ 'x-stora-signature': signed(registration('production')!.secret, body, old()) })],
				['future', () => ({ 'x-stora-signature': signed(registration('production')!.secret, body, ahead()) })],
				['malformed', () => ({ 'x-stora-signature': 'v1=abc' })],
				['stale in milliseconds', () => ({ 'x-stora-signature': signed(registration('production')!.secret, body, old() * 1000) })],
				['stale in base64', () => ({ 'x-stora-signature': signed(registration('production')!.secret, body, old(), 'base64') })],
				['signed with another secret in base64', () => ({ 'x-stora-signature': signed('whsec_other', body, undefined, 'base64') })],
				['truncated base64', () => ({ 'x-stora-signature': signed(registration('production')!.secret, body, undefined, 'base64').slice(0, -4) })],
			])('%s delivery gets 401', async (_name, headers) => {
				const response = await post(headers());
				expect(response.status).toBe(401);
				expect(harness.received.at(-1)?.workflowData).toBeUndefined();
			});

			it('tampered delivery gets 401', async () => {
				const header = signed(registration('production')!.secret, body);
				const response = await post({ 'x-stora-signature': header }, body.replace('con_1', 'con_2'));
				expect(response.status).toBe(401);
				expect(harness.received.at(-1)?.workflowData).toBeUndefined();
			});

			it('an event type the user did not pick starts nothing, and says so with a 2xx', async () => {
				const other = body.replace('contact.created', 'deal.lost');
				const response = await post({ 'x-stora-signature': signed(registration('production')!.secret, other) }, other);
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
