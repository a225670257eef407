/**
 * Stora Trigger and Stora's retries: no genuine event is lost to Stora's retry signing (fresh `t` per attempt, or the
 * first attempt's), even after n8n was down for an hour, and an execution n8n could not store is started by the retry
 * (at least once). The trigger keeps no memory of events: a repeat starts an execution, which the workflow skips with
 * Remove Duplicates (the examples; test/queue/checks/dedupeExample.mjs and test/e2e/checks/examples.mjs in real n8n).
 * The trigger runs in n8n-core (test/helpers/trigger.ts); the sandbox delivers over real HTTP, and its retries fall due
 * on its own clock, which the tests move instead of waiting.
 */
import { startSandbox } from '../../sandbox';
import { SandboxClient, type RetryTimestamp } from '../../sandbox/client';
import { DEFAULT_RETRY_SCHEDULE_MS, type Delivery } from '../../sandbox/core/webhooks';
import { tokenCredentials } from '../helpers/n8n';
import { TriggerHarness } from '../helpers/trigger';

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
const MINUTE = 60;

describe('Stora Trigger: retries', () => {
	let sandbox: Sandbox;
	let client: SandboxClient;
	let harness: TriggerHarness;

	beforeAll(async () => {
		// The documented-and-assumed schedule (1 min, 5 min, 30 min, 2 h, 5 h, 10 h): its real timers never fire
		// during a test, the clock moves do.
		sandbox = await startSandbox({
			seed: 'demo',
			allowHttpWebhooks: true,
			webhookRetrySchedule: DEFAULT_RETRY_SCHEDULE_MS,
		});
		client = new SandboxClient(sandbox.url);
	});
	afterAll(async () => await sandbox.close());
	beforeEach(async () => {
		await client.reset('demo');
		await client.configure({ retry_timestamp: 'fresh' });
		harness = await new TriggerHarness(tokenCredentials(sandbox.url, sandbox.token), {
			events: ['contact.created'],
		}).start();
		await harness.activate();
	});
	afterEach(async () => await harness.close());

	const emit = async () => String((await client.emit('contact.created')).id);
	/** The sandbox's delivery log once it holds `count` attempts. */
	const attempts = async (count: number): Promise<Delivery[]> => {
		while (sandbox.core.webhooks.deliveries.length < count) {
			await new Promise((resolve) => sandbox.core.webhooks.once('delivery', resolve));
		}
		return sandbox.core.webhooks.deliveries;
	};
	const executions = () => harness.received.filter((entry) => entry.workflowData);

	it('the test and the production endpoint each start a run for the same event', async () => {
		await harness.activate('test', 'manual');
		const id = await emit();
		await harness.waitForDeliveries(2);
		expect(
			executions()
				.map((entry) => [entry.path.split('/')[1], entry.workflowData?.[0].id])
				.sort(),
		).toEqual([
			['webhook', id],
			['webhook-test', id],
		]);
	});

	// n8n answers 503 for an hour (the harness's `down`), then is back. Before the event, the sandbox clock is set back
	// by the retry delays the scenario moves through, so the attempt that reaches n8n is signed at about n8n's now
	// (fresh) or that long before it (first).
	describe.each<RetryTimestamp>(['fresh', 'first'])(
		'retries signed with the %s timestamp',
		(mode) => {
			const until = (retries: number) =>
				DEFAULT_RETRY_SCHEDULE_MS.slice(0, retries).reduce((sum, ms) => sum + ms, 0) / 1000;

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

				// Acknowledged: a day later nothing more came.
				await client.advanceClock(24 * 60 * MINUTE);
				expect(sandbox.core.webhooks.deliveries).toHaveLength(5);
			});

			// "Received" is what n8n answered, not what the trigger saw. n8n 2.x stores the execution before it answers and
			// answers 500 when it cannot; the harness's `not-stored` plays that.
			it("n8n could not store the execution (500): Stora's retry starts it once, with the event intact", async () => {
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
				expect(run.workflowData?.[0]).toMatchObject({
					id,
					type: 'contact.created',
					data: JSON.parse(harness.received[0].request.body).event.data,
				});
				await client.advanceClock(24 * 60 * MINUTE);
				expect(sandbox.core.webhooks.deliveries).toHaveLength(2);
			});
		},
	);
});
