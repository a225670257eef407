/**
 * The Stora Trigger's webhook endpoint in Stora: registered on activation and on a test listen, kept while it matches,
 * replaced when the events change, removed when the listen or the workflow ends, and leftovers at its URL cleaned up;
 * and the Additional Event Types it registers. The deliveries it receives are in triggerDeliveries.test.ts.
 */
import { withRateLimit } from '../helpers/contactUpdates';
import { tokenCredentials } from '../helpers/n8n';
import { startSandbox, type StartedSandbox } from '../../sandbox';
import type { SandboxClient } from '../../sandbox/client';
import { TriggerHarness, useTriggerSandbox } from '../helpers/trigger';

describe('Stora Trigger', () => {
	const fixture = useTriggerSandbox(['contact.created', 'invoice.paid']);
	let sandbox: StartedSandbox;
	let client: SandboxClient;
	let harness: TriggerHarness;
	beforeEach(() => ({ sandbox, client, harness } = fixture));

	const endpoints = async () => await client.state('webhook_endpoints');
	const registration = (slot: 'test' | 'production') => harness.registration(slot);
	const at = async (url: string) => (await endpoints()).filter((endpoint) => endpoint.url === url);

	describe('lifecycle', () => {
		it('registers one endpoint for the production URL and chosen events on activation, and keeps its secret', async () => {
			const before = (await endpoints()).length;
			await harness.activate();
			const after = await endpoints();
			expect(after).toHaveLength(before + 1);
			const created = after.find(
				(endpoint) => endpoint.id === registration('production')?.endpointId,
			);
			expect(created).toMatchObject({ url: harness.productionUrl(), api_version: '2025-09' });
			expect([...(created?.event_types as string[])].sort()).toEqual([
				'contact.created',
				'invoice.paid',
			]);
			expect(registration('production')?.secret).toMatch(/^[0-9a-f]{64}$/);
		});

		it('does not register twice when the endpoint still matches', async () => {
			await harness.activate();
			const first = registration('production')?.endpointId;
			await harness.activate('production', 'init');
			expect(registration('production')?.endpointId).toBe(first);
			expect(
				(await endpoints()).filter((endpoint) => endpoint.url === harness.productionUrl()),
			).toHaveLength(1);
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

		it('fails to publish without the write scope, the message naming the scope and where to add it', async () => {
			// Where publishing a workflow fails, n8n 2.x shows only the message, n8n 1.x only the description.
			const token = await client.token(['public.webhook_endpoint:read']);
			const readOnly = await new TriggerHarness(
				withRateLimit(tokenCredentials(sandbox.url, token), {
					rateLimit: 'custom',
					requestsPerSecond: 0,
					requestsPerMinute: 0,
				}),
				{ events: ['contact.created'] },
			).start();
			try {
				const failed = await readOnly.activate().then(
					() => undefined,
					(error: Error) => error,
				);
				expect(failed?.message).toContain('public.webhook_endpoint:write');
				expect(failed?.message).toContain('Scope of the Stora OAuth2 credential');
				expect(failed?.message).toContain('access token in Stora BackOffice');
				// n8n 1.x shows the description of a failed publication instead.
				const description = (failed as Error & { description?: string })?.description;
				expect(description).toContain('Scope of the Stora OAuth2 credential');
				// The refusal is about the scope, not the http address the test registers.
				expect(description).not.toContain('WEBHOOK_URL');
				expect(await at(readOnly.productionUrl())).toHaveLength(0);
			} finally {
				await readOnly.close();
			}
		});

		it('registers with a token that may write endpoints but not read them (the search for leftovers is skipped, with a warning)', async () => {
			const token = await client.token(['public.webhook_endpoint:write']);
			const writeOnly = await new TriggerHarness(
				withRateLimit(tokenCredentials(sandbox.url, token), {
					rateLimit: 'custom',
					requestsPerSecond: 0,
					requestsPerMinute: 0,
				}),
				{
					events: ['contact.created'],
				},
			).start();
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
			const mine = (await endpoints()).filter(
				(endpoint) => endpoint.url === harness.productionUrl(),
			);
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
			const mine = (await endpoints()).filter(
				(endpoint) => endpoint.url === harness.productionUrl(),
			);
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
			(await client.requests()).filter(
				(request) => request.method === 'POST' && request.path === '/2025-09/webhook_endpoints',
			);

		it('registers the typed types with the picked ones, each once, and starts the workflow for them', async () => {
			harness.setParameters({
				events: ['invoice.paid'],
				options: { additionalEventTypes: ' deal.lost , invoice.paid,,' },
			});
			await client.clearRequests();
			await harness.activate();
			const [request] = await registrations();
			expect((request.body as { event_types: string[] }).event_types).toEqual([
				'deal.lost',
				'invoice.paid',
			]);
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
			harness.setParameters({
				events: ['invoice.paid'],
				options: { additionalEventTypes: 'deal.won, Deal Won, invoice' },
			});
			await expect(harness.activate()).rejects.toMatchObject({
				message: 'Additional Event Types: "Deal Won", "invoice" are not event types',
				description: expect.stringContaining('lowercase words joined by dots'),
			});
			harness.setParameters({ events: [], options: { additionalEventTypes: ' , ' } });
			await expect(harness.activate()).rejects.toMatchObject({
				message: 'Events: choose at least one event',
			});
			expect(await client.requests()).toEqual([]);
		});

		it("shows Stora's 422 for a type it does not send, pointing at Additional Event Types", async () => {
			// The docs' enum is cut off, so the sandbox accepts only the 13 confirmed types, as Stora accepts only its own.
			harness.setParameters({
				events: ['invoice.paid'],
				options: { additionalEventTypes: 'deal.won' },
			});
			const error = await harness.activate().then(
				() => undefined,
				(thrown: unknown) =>
					thrown as { httpCode?: string; message?: string; description?: string },
			);
			expect(error).toMatchObject({
				httpCode: '422',
				message: expect.stringContaining('[invalid_content]'),
			});
			expect(error?.description).toContain('Field /event_types/0: '); // sorted: deal.won comes first
			expect(error?.description).toContain('check Options → Additional Event Types (deal.won)');
			expect(error?.description).toContain(
				'Operation: registering the Stora webhook endpoint (POST /webhook_endpoints)',
			);
			expect(registration('production')).toBeUndefined();
		});
	});
});
