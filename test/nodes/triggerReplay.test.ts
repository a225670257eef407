/**
 * Stora Trigger, issue 22: a replay inside the signature window starts no second execution, and no genuine event is
 * lost to Stora's retry signing (fresh `t` per attempt, or the first attempt's), even after n8n was down for an hour.
 * The trigger runs in n8n-core (test/helpers/trigger.ts); the sandbox delivers over real HTTP, and its retries fall due
 * on its own clock, which the tests move instead of waiting.
 */
import { createHmac, randomUUID } from 'node:crypto';

import { acceptedEvents } from '../../nodes/Stora/helpers/signature';
import { startSandbox } from '../../sandbox';
import { SandboxClient, type RetryTimestamp } from '../../sandbox/client';
import { DEFAULT_RETRY_SCHEDULE_MS, type Delivery } from '../../sandbox/core/webhooks';
import { tokenCredentials } from '../helpers/n8n';
import { TriggerHarness, type Received } from '../helpers/trigger';

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
const MINUTE = 60;

describe('Stora Trigger: replays and retries', () => {
	let sandbox: Sandbox;
	let client: SandboxClient;
	let harness: TriggerHarness;

	beforeAll(async () => {
		// The documented-and-assumed schedule (1 min, 5 min, 30 min, 2 h, 5 h, 10 h): its real timers never fire
		// during a test, the clock moves do.
		sandbox = await startSandbox({ seed: 'demo', allowHttpWebhooks: true, webhookRetrySchedule: DEFAULT_RETRY_SCHEDULE_MS });
		client = new SandboxClient(sandbox.url);
	});
	afterAll(async () => await sandbox.close());
	beforeEach(async () => {
		await client.reset('demo');
		await client.configure({ retry_timestamp: 'fresh' });
		harness = await new TriggerHarness(tokenCredentials(sandbox.url, sandbox.token), { events: ['contact.created'] }).start();
		await harness.activate();
	});
	afterEach(async () => await harness.close());

	const secretOf = (slot: 'test' | 'production') => harness.registration(slot)!.secret;
	const emit = async () => String((await client.emit('contact.created')).id);
	/** The sandbox's delivery log once it holds `count` attempts. */
	const attempts = async (count: number): Promise<Delivery[]> => {
		while (sandbox.core.webhooks.deliveries.length < count) {
			await new Promise((resolve) => sandbox.core.webhooks.once('delivery', resolve));
		}
		return sandbox.core.webhooks.deliveries;
	};
	/** Posts a delivery again with its own headers (those Stora sets), `headers` replacing some. */
	const post = async (url: string, request: Received['request'], headers: Record<string, string> = {}) => {
		const own = Object.entries(request.headers).filter(([name]) => /^(content-type|user-agent|x-stora-.*)$/.test(name));
		const response = await fetch(url, { method: 'POST', headers: { ...Object.fromEntries(own), ...headers }, body: request.body });
		return { status: response.status, body: (await response.json()) as unknown };
	};
	const signature = (secret: string, body: string, t: number, encoding: 'hex' | 'base64' = 'hex') =>
		`t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest(encoding)}`;
	const executions = () => harness.received.filter((entry) => entry.workflowData);

	describe('replays inside the window', () => {
		it('a captured genuine delivery posted again starts nothing and is answered 2xx "duplicate", however it is signed', async () => {
			const id = await emit();
			await harness.waitForDeliveries(1);
			const [genuine] = harness.received;
			expect(genuine.workflowData?.[0]).toMatchObject({ id });

			// The same bytes and headers; then re-signed now (a retry with a fresh t), and in milliseconds and base64.
			const now = Math.floor(Date.now() / 1000);
			for (const header of [
				genuine.request.headers['x-stora-signature'],
				signature(secretOf('production'), genuine.request.body, now),
				signature(secretOf('production'), genuine.request.body, Date.now(), 'base64'),
			]) {
				const replay = await post(harness.productionUrl(), genuine.request, { 'x-stora-signature': header });
				expect(replay).toEqual({ status: 200, body: { received: true, duplicate: true, event_id: id } });
			}
			expect(harness.received).toHaveLength(4);
			expect(executions()).toHaveLength(1);
		});

		it('a different event still starts its own execution', async () => {
			const first = await emit();
			await harness.waitForDeliveries(1);
			const second = await emit();
			await harness.waitForDeliveries(2);
			// The same record and body, another event ID: signed by the endpoint's secret, so genuine.
			const body = harness.received[0].request.body.replace(first, `evt_${randomUUID().replace(/-/g, '').slice(0, 16)}`);
			const third = await post(harness.productionUrl(), { body, headers: { 'content-type': 'application/json' } }, {
				'x-stora-signature': signature(secretOf('production'), body, Math.floor(Date.now() / 1000)),
			});
			expect(third.status).toBe(200);
			expect(executions().map((entry) => entry.workflowData?.[0].id)).toEqual([first, second, JSON.parse(body).event.id]);
		});

		it('the test and the production endpoint each start a run for the same event, and each refuses its own replay', async () => {
			await harness.activate('test', 'manual');
			const id = await emit();
			await harness.waitForDeliveries(2);
			expect(executions().map((entry) => [entry.path.split('/')[1], entry.workflowData?.[0].id]).sort()).toEqual([
				['webhook', id],
				['webhook-test', id],
			]);
			for (const delivery of [...harness.received]) {
				const replay = await post(`${harness.productionUrl().split('/webhook')[0]}${delivery.path}`, delivery.request);
				expect(replay).toEqual({ status: 200, body: { received: true, duplicate: true, event_id: id } });
			}
			expect(executions()).toHaveLength(2);
		});

		it('memory is capped: at the cap the oldest event is forgotten, a new one still runs and its replay is refused', async () => {
			const now = Date.now() / 1000;
			const forgotten = acceptedEvents.forgottenForRoom;
			// Fill the process-wide store with other endpoints' events, as a busy n8n would.
			for (let i = acceptedEvents.size; i < acceptedEvents.capacity; i++) {
				acceptedEvents.claim('we_filler', `evt_filler_${i}`, now, now);
				acceptedEvents.settle('we_filler', `evt_filler_${i}`, true, now);
			}
			expect(acceptedEvents.size).toBe(acceptedEvents.capacity);

			const id = await emit();
			await harness.waitForDeliveries(1);
			expect(executions().map((entry) => entry.workflowData?.[0].id)).toEqual([id]);
			expect(acceptedEvents.size).toBe(acceptedEvents.capacity);
			expect(acceptedEvents.forgottenForRoom).toBe(forgotten + 1);

			const replay = await post(harness.productionUrl(), harness.received[0].request);
			expect(replay.body).toEqual({ received: true, duplicate: true, event_id: id });
			expect(executions()).toHaveLength(1);
			expect(acceptedEvents.size).toBe(acceptedEvents.capacity);
		});
	});

	// n8n answers 503 for an hour (the harness's `down`), then is back. Before the event, the sandbox clock is set back
	// by the retry delays the scenario moves through, so the attempt that reaches n8n is signed at about n8n's now
	// (fresh) or that long before it (first).
	describe.each<RetryTimestamp>(['fresh', 'first'])('retries signed with the %s timestamp', (mode) => {
		const until = (retries: number) => DEFAULT_RETRY_SCHEDULE_MS.slice(0, retries).reduce((sum, ms) => sum + ms, 0) / 1000;

		beforeEach(async () => await client.configure({ retry_timestamp: mode }));

		it('n8n down for an hour: the event runs exactly once when n8n is back', async () => {
			await client.advanceClock(-until(4)); // attempt 5 falls due 2 h 36 min after the first
			harness.state = 'down';
			const id = await emit();
			await attempts(1);
			await client.advanceClock(60 * MINUTE); // attempts 2-4 (after 1, 6 and 36 min) fail too
			harness.state = 'up';
			await client.advanceClock(until(4) - 60 * MINUTE);
			await harness.waitForDeliveries(1);

			const log = await attempts(5);
			expect(log.map((delivery) => [delivery.attempt, delivery.status])).toEqual([
				[1, 503],
				[2, 503],
				[3, 503],
				[4, 503],
				[5, 200],
			]);
			expect(log[4].timestamp - log[0].timestamp).toBe(mode === 'first' ? 0 : until(4));
			expect(executions().map((entry) => entry.workflowData?.[0].id)).toEqual([id]);

			// Acknowledged: a day later nothing more came, and the captured delivery is still refused.
			await client.advanceClock(24 * 60 * MINUTE);
			expect(sandbox.core.webhooks.deliveries).toHaveLength(5);
			const replay = await post(harness.productionUrl(), harness.received[0].request);
			expect(replay).toEqual({ status: 200, body: { received: true, duplicate: true, event_id: id } });
			expect(executions()).toHaveLength(1);
		});

		// Issue 38: "received" is what n8n answered, not what the trigger saw. n8n 2.x stores the execution before it
		// answers and answers 500 when it cannot; the harness's `not-stored` plays that.
		it("n8n could not store the execution (500): Stora's retry starts it once, with the event intact; a replay then starts none", async () => {
			harness.state = 'not-stored';
			const id = await emit();
			await harness.waitForDeliveries(1);
			await attempts(1);
			harness.state = 'up';
			await client.advanceClock(MINUTE); // the first retry falls due
			await harness.waitForDeliveries(2);

			const log = await attempts(2);
			expect(log.map((delivery) => [delivery.attempt, delivery.status])).toEqual([
				[1, 500],
				[2, 200],
			]);
			const [run] = executions();
			expect(executions()).toHaveLength(1);
			expect(run.workflowData?.[0]).toMatchObject({ id, type: 'contact.created', data: JSON.parse(harness.received[0].request.body).event.data });

			const replay = await post(harness.productionUrl(), harness.received[1].request);
			expect(replay).toEqual({ status: 200, body: { received: true, duplicate: true, event_id: id } });
			expect(executions()).toHaveLength(1);
			await client.advanceClock(24 * 60 * MINUTE);
			expect(sandbox.core.webhooks.deliveries).toHaveLength(2);
		});

		it('a retry that arrives while n8n is still storing the first attempt is answered 503 (Stora tries later), then duplicate once stored', async () => {
			harness.state = 'held';
			const id = await emit();
			await harness.waitForDeliveries(1);
			const early = await post(harness.productionUrl(), harness.received[0].request);
			expect(early).toEqual({ status: 503, body: { received: false, pending: true, event_id: id } });
			harness.release();
			harness.state = 'up';
			const late = await post(harness.productionUrl(), harness.received[0].request);
			expect(late).toEqual({ status: 200, body: { received: true, duplicate: true, event_id: id } });
			expect(executions()).toHaveLength(1);
		});

		it("the run started but its answer was lost, then n8n was down: Stora's next retry is answered 2xx duplicate", async () => {
			await client.advanceClock(-until(4));
			harness.state = 'answer-lost';
			const id = await emit();
			await harness.waitForDeliveries(1);
			await attempts(1); // the sandbox saw the connection drop: its retries are scheduled
			harness.state = 'down';
			await client.advanceClock(60 * MINUTE);
			harness.state = 'up';
			await client.advanceClock(until(4) - 60 * MINUTE);
			await harness.waitForDeliveries(2);

			const log = await attempts(5);
			expect(log.map((delivery) => [delivery.attempt, delivery.status])).toEqual([
				[1, null],
				[2, 503],
				[3, 503],
				[4, 503],
				[5, 200],
			]);
			expect(harness.received[1].answer).toEqual({ received: true, duplicate: true, event_id: id });
			expect(executions().map((entry) => entry.workflowData?.[0].id)).toEqual([id]);
			await client.advanceClock(24 * 60 * MINUTE);
			expect(sandbox.core.webhooks.deliveries).toHaveLength(5);
		});
	});
});
