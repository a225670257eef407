// examples/deal-lost-task.json in queue mode: the same event accepted twice (the second time by another webhook
// processor) runs twice, but Remove Duplicates on the event id, whose keys both workers share in PostgreSQL, lets only
// the first create the win-back task. Leaves `ctx.dedupe` for the last check.
import { createHash } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';

import { seconds } from '../../../scripts/toolchain.mjs';
import { loadExamples, withCredentials } from '../../realN8n/examples.mjs';
import { assert } from '../../realN8n/harness.mjs';
import { redeliver } from '../../realN8n/sign.mjs';
import { until } from '../../realN8n/wait.mjs';
import {
	countBy,
	describeCounts,
	describeExecutions,
	finishedRows,
	outputOf,
	registeredEndpoint,
	workersOf,
} from '../helpers.mjs';

export const title = () =>
	'the deal-lost-task example dedupes a redelivered event (same event id, signed again) that a second webhook processor accepts: 2 executions, 1 win-back task, the second stops at "Skip redelivered events"';

export async function run(ctx) {
	const { main, sandbox, cluster, pg, reset, figure } = ctx;
	await reset();
	const { workflow: example } = loadExamples().find(({ file }) => file === 'deal-lost-task.json');
	const workflow = await main.createWorkflow(withCredentials(example, { storaApi: ctx.token }));
	ctx.workflows.push(workflow);
	await main.activate(workflow);
	const endpoint = await registeredEndpoint(ctx, ['deal.lost']);
	const secret = sandbox.core.webhookSecrets.get(endpoint.id);
	const dedupe = { workflow, executions: 0 };
	ctx.dedupe = dedupe;

	const deal = (await sandbox.control.state('deals')).find((d) => d.status === 'lost');
	assert(deal, 'the demo seed has no lost deal');
	const contactId = deal.contact.id;
	const tasksOf = async () =>
		(await sandbox.control.state('tasks')).filter((task) => task.resource?.id === contactId);
	const tasksBefore = (await tasksOf()).map((task) => task.id);
	await sandbox.control.clearDeliveries();

	const started = Date.now();
	const event = await sandbox.control.emit('deal.lost', deal.id);
	await until(
		() => sandbox.core.webhooks.deliveries.length >= 1,
		'the deal.lost delivery answered',
		{ timeoutMs: 60_000, every: 50 },
	);
	const deliveries = await sandbox.control.deliveries();
	assert(
		deliveries.length === 1 &&
			deliveries[0].status === 200 &&
			deliveries[0].event_id === event.id &&
			deliveries[0].url === endpoint.url,
		`deliveries: ${JSON.stringify(deliveries.map((d) => [d.event_id, d.status ?? d.error, d.attempt]))}`,
	);
	dedupe.executions = 1;
	await finishedRows(ctx, workflow.id, 1);
	// To the second webhook processor: the repeat reaches n8n through another process, as after a restart.
	const { status } = await redeliver(endpoint, secret, event, cluster.webhookBases[1]);
	assert(status === 200, `redelivery answered ${status}`);
	dedupe.executions = 2;
	const rows = await finishedRows(ctx, workflow.id, 2);
	const ms = Date.now() - started;
	assert(
		rows.length === 2,
		`${rows.length} executions for 2 deliveries of one event:\n${await describeExecutions(
			ctx,
			rows.map((r) => r.id),
		)}`,
	);
	assert(
		rows.every((r) => r.status === 'success' && r.mode === 'webhook'),
		`executions: ${describeCounts(countBy(rows.map((r) => `${r.status}/${r.mode}`)))}`,
	);

	const [first, second] = await Promise.all([...rows].reverse().map((r) => main.execution(r.id)));
	const delivered = [first, second].map((execution) => outputOf(execution, 'Deal lost')?.[0]);
	assert(
		delivered.every((item) => item?.id === event.id && item?.data?.deal?.id === deal.id),
		`the trigger output events ${delivered.map((item) => `${item?.id} (deal ${item?.data?.deal?.id})`).join(' and ')}, expected ${event.id} (deal ${deal.id}) twice`,
	);
	assert(
		delivered[0].request_id !== delivered[1].request_id,
		'both deliveries carried the same X-Stora-Request-Id',
	);
	const kept = [first, second].map(
		(execution) => outputOf(execution, 'Skip redelivered events')?.length,
	);
	assert(
		kept[0] === 1,
		`first execution: "Skip redelivered events" output ${kept[0]} items, expected 1`,
	);
	const task = outputOf(first, 'Win-back task');
	assert(
		task?.length === 1 && /^task_/.test(task[0].id) && task[0].metadata?.lost_deal === deal.id,
		`first execution: "Win-back task" output ${JSON.stringify(task)?.slice(0, 300)}`,
	);
	assert(
		kept[1] === 0,
		`second execution: "Skip redelivered events" output ${kept[1]} items, expected 0`,
	);
	const secondLast = second.data?.resultData?.lastNodeExecuted;
	assert(
		outputOf(second, 'Win-back task') === undefined,
		`second execution ran "Win-back task" (last node ${secondLast})`,
	);

	// Remove Duplicates keeps the seen keys (MD5, base64) in n8n's database, which both workers share.
	const stored = pg
		.query(
			`select value from processed_data where "workflowId" = '${String(workflow.id).replace(/'/g, '')}'`,
		)
		.split('\n')
		.filter(Boolean);
	const hash = createHash('md5').update(event.id).digest('base64');
	assert(
		stored.length === 1 &&
			isDeepStrictEqual(JSON.parse(stored[0]), { mode: 'entries', data: [hash] }),
		`n8n's processed_data rows for the workflow: ${JSON.stringify(stored)}, expected one holding the event id's key ${hash}`,
	);

	const created = (await tasksOf()).filter((t) => !tasksBefore.includes(t.id));
	assert(
		created.length === 1 &&
			created[0].id === task[0].id &&
			created[0].metadata?.lost_deal === deal.id,
		`${created.length} new tasks on contact ${contactId}: ${JSON.stringify(created.map((t) => [t.id, t.metadata]))}`,
	);
	const workers = workersOf(
		ctx,
		[...rows].reverse().map((r) => r.id),
	);
	figure(
		`deal-lost-task example: event ${event.id.slice(0, 8)}… delivered twice → 2 executions (${workers.join(', ')}), 1 win-back task; the second stopped at "${secondLast}" with 0 items (the event's key in n8n's PostgreSQL), in ${seconds(ms)}`,
	);

	await main.deactivate(workflow);
	const left = await sandbox.control.state('webhook_endpoints');
	assert(
		!left.some((e) => e.id === endpoint.id),
		'the endpoint is still registered after unpublishing',
	);
}
