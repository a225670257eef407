// What the queue-mode checks share: counting, calling the webhook processor, and reading executions where queue mode
// keeps them honest: PostgreSQL for counts (n8n's REST list can repeat rows when two workers start executions out of
// id order), the workers' logs for who ran what, main's REST API to read one execution.
import { assert } from '../realN8n/harness.mjs';
import { until } from '../realN8n/wait.mjs';
import { STORA_TRIGGER } from '../realN8n/workflow.mjs';
import { executionsByWorker, workerOf } from './cluster.mjs';

/** How the queue workflows' Webhook answers: with every item of the last node, once the execution is over. */
export const ANSWER_ALL = { responseMode: 'lastNode', responseData: 'allEntries' };

/** Runs `fn` over `items` with at most `limit` at a time; resolves to the results in order. */
export async function pool(items, limit, fn) {
	const out = new Array(items.length);
	let next = 0;
	await Promise.all(
		Array.from({ length: Math.min(limit, items.length) }, async () => {
			while (next < items.length) {
				const i = next++;
				out[i] = await fn(items[i], i);
			}
		}),
	);
	return out;
}

export const countBy = (values) =>
	values.reduce((map, v) => map.set(v, (map.get(v) ?? 0) + 1), new Map());
export const describeCounts = (map) => [...map].map(([k, v]) => `${k}: ${v}`).join(', ');

/** POSTs JSON to a production webhook on the (first) webhook processor; a long timeout, as rate-limited runs wait. */
export const callWebhook = (ctx, webhookPath, body) =>
	ctx.cluster.webhook.callWebhook(webhookPath, { body: body ?? {}, timeoutMs: 300_000 });

/**
 * The executions of a workflow as n8n's REST API lists them (pages of 100 by `cursor`/`nextCursor`; the e2e helper's
 * `lastId` is refused by 2.41). Only for comparison: with executions starting out of id order, as two workers make
 * them, this listing can repeat rows, so the test counts in PostgreSQL and reads each execution by id.
 */
export async function listedExecutions(ctx, workflowId) {
	const filter = encodeURIComponent(JSON.stringify({ workflowId }));
	const all = [];
	let cursor;
	for (;;) {
		const data = await ctx.main.request(
			'GET',
			`/rest/executions?filter=${filter}&limit=100${cursor ? `&cursor=${cursor}` : ''}`,
		);
		const page = data.results ?? data;
		all.push(...page);
		cursor = data.nextCursor;
		if (!cursor || !page.length) return all;
	}
}

const FINISHED = ['success', 'error', 'crashed', 'canceled'];

/** Every execution of a workflow in n8n's PostgreSQL, newest first: [{ id, status, mode }]. */
export function executionRows(ctx, workflowId) {
	return ctx.pg
		.query(
			`select id || ' ' || status || ' ' || mode from execution_entity where "workflowId" = '${String(workflowId).replace(/'/g, '')}' order by id desc`,
		)
		.split('\n')
		.filter(Boolean)
		.map((line) => {
			const [id, status, mode] = line.split(' ');
			return { id, status, mode };
		});
}

/**
 * Waits (polling PostgreSQL) until a workflow has at least `count` finished executions; returns all its rows, newest
 * first. Not test/realN8n/executions.mjs's finishedExecutions: that one lists through REST (rows repeat in queue
 * mode) and decodes every execution; here only the counts matter, with progress every 10 s on a long wait.
 */
export async function finishedRows(ctx, workflowId, count, { timeoutMs = 60_000 } = {}) {
	let rows = [];
	const done = () => rows.filter((r) => FINISHED.includes(r.status)).length;
	await until(
		() => {
			rows = executionRows(ctx, workflowId);
			return done() >= count;
		},
		`${count} finished executions of workflow ${workflowId}`,
		{ timeoutMs, every: 250, progress: () => `${done()} of ${count} finished`, log: ctx.log },
	);
	return rows;
}

/** The worker that ran each execution (from the workers' logs); throws when one ran on no worker. */
export function workersOf(ctx, executionIds) {
	const byWorker = executionsByWorker(ctx.cluster.workers);
	return executionIds.map((id) => {
		const names = [...byWorker].filter(([, ids]) => ids.includes(String(id))).map(([name]) => name);
		if (names.length !== 1)
			throw new Error(
				`execution ${id} was started by ${names.length ? names.join(' and ') : 'no worker'}`,
			);
		return names[0];
	});
}

/** The items a node output in an execution (its first run, first output), or undefined when it did not run. */
export const outputOf = (execution, nodeName) => {
	const runs = execution.data?.resultData?.runData?.[nodeName];
	return runs ? (runs[0]?.data?.main?.[0] ?? []).map((item) => item.json) : undefined;
};

/** The id of the event the execution's Stora Trigger output (whatever the trigger node is called). */
export const eventIdOf = (execution) => {
	const trigger =
		execution.workflowData?.nodes?.find((n) => n.type === STORA_TRIGGER)?.name ?? 'Stora Trigger';
	return outputOf(execution, trigger)?.[0]?.id;
};

/** For a failure message: the errors of failed executions (of one workflow, or of all), as n8n recorded them. */
export async function failedExecutionErrors(ctx, workflowId) {
	const ofWorkflow = workflowId === undefined ? '' : `"workflowId" = '${workflowId}' and `;
	const ids = ctx.pg
		.query(
			`select id from execution_entity where ${ofWorkflow}status <> 'success' order by id limit 5`,
		)
		.split('\n')
		.filter(Boolean);
	const lines = [];
	for (const id of ids) {
		const execution = await ctx.main
			.execution(id)
			.catch((error) => ({ fetchError: error.message }));
		const resultData = execution.data?.resultData ?? {};
		const errors = [
			resultData.error,
			...Object.values(resultData.runData ?? {})
				.flat()
				.map((run) => run.error),
		].filter(Boolean);
		const where = (e) =>
			String(e.stack ?? '')
				.split('\n')
				.slice(1, 7)
				.map((line) => line.trim())
				.join(' < ');
		const text = errors
			.map((e) =>
				[e.message, e.description, e.httpCode && `HTTP ${e.httpCode}`, where(e)]
					.filter(Boolean)
					.join(' | '),
			)
			.join('; ');
		lines.push(
			`execution ${id} on ${workerOf(ctx.cluster.workers, id) ?? 'no worker'}: ${execution.fetchError ?? (text || 'no error recorded')}`,
		);
	}
	return lines.join('\n');
}

/** For a failure message: when and where executions ran, which event each was for, and the deliveries of those events. */
export async function describeExecutions(ctx, ids) {
	const lines = [];
	for (const id of ids.slice(0, 10)) {
		const row = ctx.pg.query(
			`select status, mode, "createdAt", "startedAt", "stoppedAt" from execution_entity where id = ${Number(id)}`,
		);
		const execution = await ctx.main.execution(id).catch(() => undefined);
		const eventId = execution ? eventIdOf(execution) : undefined;
		const deliveries = ctx.sandbox.core.webhooks.deliveries
			.filter((d) => d.event_id === eventId)
			.map((d) => `attempt ${d.attempt} ${d.status ?? d.error} at ${d.at}`);
		lines.push(
			`execution ${id} [${row}] on ${workerOf(ctx.cluster.workers, id) ?? 'no worker'}: event ${eventId}; deliveries: ${deliveries.join('; ') || 'none'}`,
		);
	}
	return lines.join('\n');
}

/** The one webhook endpoint a just-published Stora Trigger registered: on the webhook processor, for `eventTypes`, with a secret. */
export async function registeredEndpoint(ctx, eventTypes) {
	const { sandbox, cluster } = ctx;
	const endpoints = await sandbox.control.state('webhook_endpoints');
	assert(endpoints.length === 1, `${endpoints.length} endpoints after publishing`);
	const [endpoint] = endpoints;
	assert(
		endpoint.url.startsWith(`${cluster.webhookBase}/webhook/`),
		`endpoint URL ${endpoint.url} is not on the webhook processor (${cluster.webhookBase})`,
	);
	assert(
		JSON.stringify(endpoint.event_types) === JSON.stringify(eventTypes),
		`event types ${JSON.stringify(endpoint.event_types)}`,
	);
	assert(
		sandbox.core.webhookSecrets.get(endpoint.id),
		'the sandbox holds no secret for the endpoint',
	);
	return endpoint;
}

/** Main's OAuth2 callback URL (N8N_EDITOR_BASE_URL), which the sandbox's OAuth2 clients must allow. */
export const oauthCallback = (ctx) => `${ctx.cluster.mainBase}/rest/oauth2-credential/callback`;
