// Redelivery of an event already taken: the Stora Trigger keeps no memory of events, so each redelivery, at the
// webhook processor that took the event or at a second one behind the same URL, starts one more execution (which
// the deal-lost-task example's Remove Duplicates drops; see dedupeExample.mjs).
import { assert } from '../../realN8n/harness.mjs';
import { redeliver } from '../../realN8n/sign.mjs';
import { workerOf } from '../cluster.mjs';
import { describeExecutions, eventIdOf, executionRows, finishedRows } from '../helpers.mjs';

export const title = () =>
	'a redelivered event (same event id, signed again) starts one more execution at the webhook processor that took it and one at a second processor (the trigger keeps no memory of events)';

export async function run(ctx) {
	const { main, cluster, trigger, figure } = ctx;
	assert(trigger.events.length, 'no event was delivered before');
	const before = executionRows(ctx, trigger.workflow.id).length;
	const [event] = trigger.events;
	const same = await redeliver(trigger.endpoint, trigger.secret, event);
	assert(
		same.status === 200,
		`redelivery to the same processor answered ${same.status} ${JSON.stringify(same.body)}`,
	);
	const other = await redeliver(trigger.endpoint, trigger.secret, event, cluster.webhookBases[1]);
	assert(
		other.status === 200,
		`redelivery to the second processor answered ${other.status} ${JSON.stringify(other.body)}`,
	);
	const summaries = await finishedRows(ctx, trigger.workflow.id, before + 2);
	const added = summaries.slice(0, summaries.length - before);
	const ids = await Promise.all(added.map(async (row) => eventIdOf(await main.execution(row.id))));
	if (added.length !== 2 || ids.some((id) => id !== event.id)) {
		throw new Error(
			`${added.length} new executions (expected 2, for event ${event.id}):\n${await describeExecutions(
				ctx,
				added.map((e) => e.id),
			)}`,
		);
	}
	trigger.redelivered = 2;
	figure(
		`event ${event.id.slice(0, 8)}… redelivered twice → 2 more executions (${added.map((row) => workerOf(cluster.workers, row.id)).join(', ')} ran them)`,
	);
}
