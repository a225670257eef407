// Redelivery of an event already taken: each webhook processor remembers the event ids it accepted (memory per
// process), so the one that took it answers "duplicate", and a second processor behind the same URL starts one more
// execution (which the deal-lost-task example's Remove Duplicates drops; see dedupeExample.mjs).
import { assert } from '../../realN8n/harness.mjs';
import { workerOf } from '../cluster.mjs';
import { describeExecutions, eventIdOf, executionRows, finishedRows, redeliver } from '../helpers.mjs';

export const title = () => 'a redelivered event (same event id, signed again) is answered 200 duplicate by the webhook processor that took it, and starts one more execution only on a second processor (memory per process)';

export async function run(ctx) {
	const { main, cluster, trigger, figure } = ctx;
	// The Stora Trigger remembers accepted event ids per process: a redelivery to the processor that took the
	// event starts nothing; one to another processor behind the same URL starts a second execution, which
	// the deal-lost-task example (next check) drops with Remove Duplicates on the event id.
	assert(trigger.events.length, 'no event was delivered before');
	const before = executionRows(ctx, trigger.workflow.id).length;
	const [event] = trigger.events;
	const same = await redeliver(trigger.endpoint, trigger.secret, event);
	assert(same.status === 200 && same.body?.duplicate === true && same.body?.event_id === event.id, `redelivery to the same processor answered ${same.status} ${JSON.stringify(same.body)}`);
	const other = await redeliver(trigger.endpoint, trigger.secret, event, cluster.webhookBases[1]);
	assert(other.status === 200 && other.body?.duplicate !== true, `redelivery to the second processor answered ${other.status} ${JSON.stringify(other.body)}`);
	const summaries = await finishedRows(ctx, trigger.workflow.id, before + 1);
	const newest = await main.execution(summaries[0].id);
	const id = eventIdOf(newest);
	if (summaries.length !== before + 1 || id !== event.id) {
		throw new Error(`${summaries.length - before} new executions (expected 1, for event ${event.id}):\n${await describeExecutions(ctx, summaries.slice(0, summaries.length - before).map((e) => e.id))}`);
	}
	// The same redelivery again at the second processor is now a duplicate there too.
	const again = await redeliver(trigger.endpoint, trigger.secret, event, cluster.webhookBases[1]);
	assert(again.status === 200 && again.body?.duplicate === true, `second redelivery to the second processor answered ${again.status} ${JSON.stringify(again.body)}`);
	trigger.redelivered = 1;
	figure(`event ${event.id.slice(0, 8)}… redelivered 3 times → 200 duplicate at the processor that took it, 1 more execution from the second processor (${workerOf(cluster.workers, summaries[0].id)} ran it), then 200 duplicate there too`);
}
