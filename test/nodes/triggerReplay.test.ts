/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test under test/, never published */
/**
 * Stora Trigger, issue 22: a replay inside the signature window starts no second execution, and no genuine event is
 * lost to Stora's retry signing (fresh `t` per attempt, or the first attempt's), even after n8n was down for an hour.
 * The trigger runs in n8n-core (test/helpers/trigger.ts); the sandbox delivers over real HTTP, and its retries fall due
 * on its own clock, which the tests move instead of waiting.
 */
import { createHmac, randomUUID } from 'node:crypto';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';

import { AcceptedEvents, acceptedEvents, PENDING_CLAIM_SECONDS, SIGNATURE_TOLERANCE_SECONDS } from '../../nodes/Stora/helpers/signature';
import { startSandbox } from '../../sandbox';
import { SandboxClient, type RetryTimestamp } from '../../sandbox/client';
import { DEFAULT_RETRY_SCHEDULE_MS, type Delivery } from '../../sandbox/core/webhooks';
import { tokenCredentials } from '../helpers/n8n';
import { printFigure } from '../helpers/figures';
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

// The store's own clock is a parameter, so a day passes here without waiting for it.
describe('Stora Trigger: the memory of accepted events', () => {
	const t = 1_750_000_000;
	const day = SIGNATURE_TOLERANCE_SECONDS;
	/** A delivery n8n stored: claimed, then answered 2xx. */
	const accept = (store: AcceptedEvents, endpoint: string, key: string, signedAt: number, now: number) => {
		const claimed = store.claim(endpoint, key, signedAt, now);
		if (claimed) store.settle(endpoint, key, true, now);
		return claimed;
	};

	it('remembers an event until its latest signature leaves the window, then forgets it', () => {
		const store = new AcceptedEvents(10);
		expect(accept(store, 'we_a', 'evt_1', t, t)).toBe(true);
		expect(accept(store, 'we_a', 'evt_1', t + 600, t + 600)).toBe(false); // a retry signed 10 min later
		expect(accept(store, 'we_b', 'evt_1', t, t + 600)).toBe(true); // another endpoint
		expect(accept(store, 'we_a', 'evt_1', t, t + day + 300)).toBe(false); // kept for the later signature's window
		expect(accept(store, 'we_a', 'evt_2', t + day + 601, t + day + 601)).toBe(true);
		expect(store.size).toBe(1); // evt_1 of both endpoints expired and were dropped
		expect(accept(store, 'we_a', 'evt_1', t + day + 601, t + day + 601)).toBe(true);
	});

	it('at the cap drops expired entries before forgetting any live one', () => {
		const store = new AcceptedEvents(3);
		accept(store, 'we_a', 'evt_1', t + 100, t + 100); // the oldest accepted, but it lives 100 s longer
		for (const id of ['evt_2', 'evt_3']) accept(store, 'we_a', id, t, t);
		expect(accept(store, 'we_a', 'evt_4', t + 100, t + day + 50)).toBe(true);
		expect([store.size, store.forgottenForRoom, store.takeCapWarning()]).toEqual([2, 0, false]);
		expect(accept(store, 'we_a', 'evt_1', t, t + day + 50)).toBe(false);
		accept(store, 'we_a', 'evt_5', t + 100, t + day + 50);
		accept(store, 'we_a', 'evt_6', t + 100, t + day + 50); // full of live entries: the oldest (evt_1) goes
		expect([store.size, store.forgottenForRoom, store.takeCapWarning(), store.takeCapWarning()]).toEqual([3, 1, true, false]);
		expect(accept(store, 'we_a', 'evt_1', t + 100, t + day + 50)).toBe(true);
	});

	it('a claim waits for n8n’s answer at most PENDING_CLAIM_SECONDS: a later retry is then new, and the hung answer changes nothing', () => {
		const store = new AcceptedEvents(10);
		expect(store.claim('we_a', 'evt_1', t, t)).toBe(true);
		// Stora's first retry, a minute later: still waiting for n8n's answer (the trigger answers 503).
		expect([store.claim('we_a', 'evt_1', t + 60, t + 60), store.isPending('we_a', 'evt_1', t + 60)]).toEqual([false, true]);
		// Past the bound: the claim is taken as hung; the retry starts the execution.
		const later = t + PENDING_CLAIM_SECONDS;
		expect(store.isPending('we_a', 'evt_1', later)).toBe(false);
		expect(store.claim('we_a', 'evt_1', later, later)).toBe(true);
		// The first delivery's answer comes at last: it is not the claim that waits now.
		store.settle('we_a', 'evt_1', false, t);
		expect(store.isPending('we_a', 'evt_1', later + 1)).toBe(true);
		store.settle('we_a', 'evt_1', true, later);
		expect([store.claim('we_a', 'evt_1', later + 5, later + 5), store.isPending('we_a', 'evt_1', later + 5)]).toEqual([false, false]);
	});

	it('100 deliveries of one event at once: one claim; a duplicate after it is stored, exactly one new claim after it fails', () => {
		const store = new AcceptedEvents(10);
		const outcomes = Array.from({ length: 100 }, () => store.claim('we_a', 'evt_1', t, t));
		expect(outcomes.filter(Boolean)).toHaveLength(1);
		expect(store.isPending('we_a', 'evt_1', t)).toBe(true); // the 99 others are answered 503
		store.settle('we_a', 'evt_1', true, t);
		expect(store.claim('we_a', 'evt_1', t + 1, t + 1)).toBe(false);
		expect(store.isPending('we_a', 'evt_1', t + 1)).toBe(false); // duplicate

		expect(store.claim('we_a', 'evt_2', t, t)).toBe(true);
		store.settle('we_a', 'evt_2', false, t); // n8n could not store it: withdrawn
		const retries = Array.from({ length: 100 }, () => store.claim('we_a', 'evt_2', t + 60, t + 60));
		expect(retries.filter(Boolean)).toHaveLength(1);
	});

	it('at the cap never drops a pending claim, nor a younger entry before an older settled one', () => {
		const store = new AcceptedEvents(3);
		// An event whose first delivery n8n could not store: withdrawn, its old slot left at the front.
		store.claim('we_a', 'evt_x', t, t);
		store.settle('we_a', 'evt_x', false, t);
		accept(store, 'we_a', 'evt_y', t, t + 1);
		accept(store, 'we_a', 'evt_z', t, t + 2);
		// Stora's retry of it: a new claim, waiting for n8n's answer while the store fills.
		expect(store.claim('we_a', 'evt_x', t + 60, t + 60)).toBe(true);
		expect(accept(store, 'we_a', 'evt_w', t + 61, t + 61)).toBe(true);
		// The oldest settled entry (evt_y) went, not the pending retry claim.
		expect(store.isPending('we_a', 'evt_x', t + 62)).toBe(true);
		expect(store.claim('we_a', 'evt_y', t + 62, t + 62)).toBe(true);
		expect(store.claim('we_a', 'evt_x', t + 62, t + 62)).toBe(false);
		// All pending: the store holds them all rather than drop one.
		const busy = new AcceptedEvents(2);
		for (const id of ['evt_1', 'evt_2', 'evt_3']) expect(busy.claim('we_a', id, t, t)).toBe(true);
		expect([busy.size, busy.forgottenForRoom]).toEqual([3, 0]);
		for (const id of ['evt_1', 'evt_2', 'evt_3']) expect(busy.claim('we_a', id, t + 1, t + 1)).toBe(false);
	});

	it('memory per remembered event, at the bound', () => {
		// V8's collector from a test: the flag, then the function from a fresh context.
		v8.setFlagsFromString('--expose-gc');
		const gc = runInNewContext('gc') as () => void;
		const heap = () => {
			gc();
			return process.memoryUsage().heapUsed;
		};
		const store = new AcceptedEvents();
		const before = heap();
		for (let i = 0; i < store.capacity; i++) accept(store, 'we_0123456789abcdef', `evt_${String(i).padStart(20, '0')}`, t, t);
		const perEvent = (heap() - before) / store.capacity;
		printFigure(`trigger/acceptedEvents: ${Math.round(perEvent)} bytes per remembered event (event IDs of 24 characters), ${((perEvent * store.capacity) / 2 ** 20).toFixed(1)} MiB at the bound of ${store.capacity.toLocaleString('en')}`);
		expect(store.size).toBe(store.capacity);
		expect(perEvent).toBeLessThan(400);
	});
});
