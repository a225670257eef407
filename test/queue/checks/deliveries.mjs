// Scale: DELIVERIES signed deliveries to the webhook processor, in bursts, start exactly DELIVERIES executions on the
// workers, each event once (none lost, none twice), both workers taking part.
import { seconds } from '../../../scripts/toolchain.mjs';
import { assert } from '../../realN8n/harness.mjs';
import { until } from '../../realN8n/wait.mjs';
import {
	countBy,
	describeCounts,
	describeExecutions,
	eventIdOf,
	finishedRows,
	listedExecutions,
	pool,
	workersOf,
} from '../helpers.mjs';

export const title = ({ sizes: { DELIVERIES } }) =>
	`${DELIVERIES} signed deliveries to the webhook processor start exactly ${DELIVERIES} executions on the workers (none lost, none twice)`;

export async function run(ctx) {
	const { main, sandbox, cluster, trigger, figure, log } = ctx;
	const { DELIVERIES, BURST } = ctx.sizes;
	const contacts = await sandbox.control.state('contacts');
	await sandbox.control.clearDeliveries();
	const started = Date.now();
	for (let sent = 0; sent < DELIVERIES; sent += BURST) {
		const size = Math.min(BURST, DELIVERIES - sent);
		const emitted = await Promise.all(
			Array.from({ length: size }, (_, i) =>
				sandbox.control.emit('contact.created', contacts[(sent + i) % contacts.length].id),
			),
		);
		trigger.events.push(...emitted);
		// The sandbox delivers each event at once; wait until this burst has been answered before the next.
		await until(
			() => sandbox.core.webhooks.deliveries.length >= sent + size,
			`deliveries ${sent + 1}-${sent + size} answered`,
			{ timeoutMs: 60_000, every: 50 },
		);
		if ((sent + size) % 100 === 0 || sent + size === DELIVERIES)
			log(
				`  ${sent + size} of ${DELIVERIES} deliveries answered (${seconds(Date.now() - started)})`,
			);
	}
	const deliveredMs = Date.now() - started;
	const deliveries = await sandbox.control.deliveries();
	const statuses = countBy(deliveries.map((d) => `${d.status ?? d.error} (attempt ${d.attempt})`));
	assert(
		deliveries.length === DELIVERIES && statuses.get('200 (attempt 1)') === DELIVERIES,
		`deliveries: ${describeCounts(statuses)}`,
	);
	assert(
		deliveries.every((d) => d.url === trigger.endpoint.url),
		'a delivery went elsewhere than the endpoint',
	);

	const summaries = await finishedRows(ctx, trigger.workflow.id, DELIVERIES, {
		timeoutMs: 300_000,
	});
	const doneMs = Date.now() - started;
	assert(
		summaries.length === DELIVERIES,
		`${summaries.length} executions for ${DELIVERIES} deliveries`,
	);
	const statusCounts = countBy(summaries.map((e) => `${e.status}/${e.mode}`));
	assert(
		statusCounts.get('success/webhook') === DELIVERIES,
		`executions: ${describeCounts(statusCounts)}`,
	);
	const executions = await pool(summaries, 6, (s) => main.execution(s.id));
	const eventIds = executions.map(eventIdOf);
	const seen = countBy(eventIds);
	const lost = trigger.events.filter((e) => !seen.has(e.id));
	const twice = [...seen].filter(([, n]) => n > 1);
	const foreign = eventIds.filter((id) => !trigger.events.some((e) => e.id === id));
	if (lost.length || twice.length || foreign.length) {
		const suspects = executions
			.filter((e) => twice.some(([id]) => id === eventIdOf(e)) || foreign.includes(eventIdOf(e)))
			.map((e) => e.id);
		throw new Error(
			`${lost.length} events lost, ${twice.length} twice, ${foreign.length} unknown\n${await describeExecutions(ctx, suspects)}`,
		);
	}
	const workers = countBy(
		workersOf(
			ctx,
			summaries.map((s) => s.id),
		),
	);
	assert(workers.size === cluster.workers.length, `only ${describeCounts(workers)} ran executions`);
	figure(
		`${DELIVERIES} deliveries (bursts of ${BURST}) all answered 200 in ${seconds(deliveredMs)}; ${DELIVERIES} executions, each event once, all finished ${seconds(doneMs)} after the first; per worker: ${describeCounts(workers)}`,
	);
	const listed = await listedExecutions(ctx, trigger.workflow.id);
	figure(
		`n8n's REST execution list for the same workflow: ${listed.length} rows, ${new Set(listed.map((e) => e.id)).size} distinct (PostgreSQL: ${summaries.length})`,
	);
}
