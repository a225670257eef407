// The writes both rate-limit checks make (writesDocumented.mjs, writesHalfLimit.mjs): Contact → Create items spread
// over concurrent executions on both workers, then everything the sandbox saw of them checked.
import { seconds } from '../../scripts/toolchain.mjs';
import { randomId } from '../realN8n/basics.mjs';
import { assert } from '../realN8n/harness.mjs';
import { chain, node, storaNode, webhookNode } from '../realN8n/workflow.mjs';
import {
	ANSWER_ALL,
	callWebhook,
	countBy,
	describeCounts,
	finishedRows,
	workersOf,
} from './helpers.mjs';

/** The executions the writes are spread over, at once. */
export const EXECUTIONS = 20;

/**
 * WRITES Contact → Create items in EXECUTIONS concurrent executions on both workers with the credential `token`:
 * each contact created exactly once, every 429 retried, every execution succeeds. Returns how many 429s the sandbox
 * answered.
 */
export async function contactWrites(ctx, token, label) {
	const { main, sandbox, cluster, reset, figure } = ctx;
	const { WRITES, RATE_LIMIT } = ctx.sizes;
	await reset();
	const before = await sandbox.control.state('contacts');
	const workflow = await main.createWorkflow(
		chain('queue: Contact → Create', [
			webhookNode('queue-contacts', ANSWER_ALL),
			node('Split Out', 'n8n-nodes-base.splitOut', 1, {
				fieldToSplitOut: 'body.contacts',
				options: {},
			}),
			storaNode(
				'Stora',
				{
					resource: 'contact',
					operation: 'create',
					email: '={{ $json.email }}',
					additionalFields: { fullName: '={{ $json.name }}' },
				},
				token,
			),
		]),
	);
	ctx.workflows.push(workflow);
	await main.activate(workflow);
	await sandbox.control.clearRequests();
	const run = randomId();
	const emails = Array.from({ length: WRITES }, (_, i) => `queue-${run}-${i}@example.com`);
	const perExecution = Math.ceil(WRITES / EXECUTIONS);
	const batches = Array.from({ length: Math.ceil(WRITES / perExecution) }, (_, b) =>
		emails.slice(b * perExecution, (b + 1) * perExecution),
	);
	const started = Date.now();
	const responses = await Promise.all(
		batches.map((batch) =>
			callWebhook(ctx, 'queue-contacts', {
				contacts: batch.map((email, i) => ({ email, name: `Queue Test ${i}` })),
			}),
		),
	);
	const ms = Date.now() - started;
	for (const [b, response] of responses.entries()) {
		assert(
			response.status === 200 && Array.isArray(response.body),
			`execution ${b + 1}: HTTP ${response.status} ${response.text.slice(0, 300)}`,
		);
		assert(
			response.body.length === batches[b].length &&
				response.body.every((c, i) => c.email === batches[b][i] && /^con_/.test(c.id)),
			`execution ${b + 1}: ${response.text.slice(0, 300)}`,
		);
	}
	const after = await sandbox.control.state('contacts');
	const created = after.filter((c) => emails.includes(c.email));
	const perEmail = countBy(created.map((c) => c.email));
	assert(
		created.length === WRITES && perEmail.size === WRITES,
		`${created.length} contacts with the run's emails in the sandbox (${perEmail.size} distinct), expected ${WRITES}`,
	);
	assert(
		after.length === before.length + WRITES,
		`the sandbox has ${after.length - before.length} new contacts, expected ${WRITES}`,
	);
	const requests = (await sandbox.control.requests()).filter(
		(r) => r.method === 'POST' && r.path === '/2025-09/contacts',
	);
	const statuses = countBy(requests.map((r) => r.status));
	assert(statuses.get(201) === WRITES, `POST /contacts answers: ${describeCounts(statuses)}`);
	const replays = requests.length - WRITES - (statuses.get(429) ?? 0);
	const keys = new Set(
		requests.filter((r) => r.status === 201).map((r) => r.headers['idempotency-key']),
	);
	assert(keys.size === WRITES, `${keys.size} distinct Idempotency-Keys on ${WRITES} creates`);
	// The busiest second the sandbox accepted, across both workers.
	const perSecond = countBy(requests.filter((r) => r.status === 201).map((r) => r.at.slice(0, 19)));
	const busiest = Math.max(...perSecond.values());
	const accepted = requests.filter((r) => r.status === 201).map((r) => Date.parse(r.at));
	const spanS = (Math.max(...accepted) - Math.min(...accepted)) / 1000;
	assert(busiest <= RATE_LIMIT.perSecond, `${busiest} creates accepted in one second`);
	const summaries = await finishedRows(ctx, workflow.id, batches.length);
	assert(
		summaries.length === batches.length && summaries.every((e) => e.status === 'success'),
		`executions: ${describeCounts(countBy(summaries.map((e) => e.status)))}`,
	);
	const workers = countBy(
		workersOf(
			ctx,
			summaries.map((s) => s.id),
		),
	);
	assert(
		workers.size === cluster.workers.length,
		`only ${describeCounts(workers)} ran the executions`,
	);
	figure(
		`${label}: ${WRITES} creates in ${batches.length} executions (per worker: ${describeCounts(workers)}) in ${seconds(ms)}: ${WRITES} contacts, 0 duplicates; the sandbox answered ${statuses.get(429) ?? 0} × 429 (all retried)${replays ? `, ${replays} other retries` : ''}; at most ${busiest} creates accepted in one second, ${(WRITES / Math.max(spanS, 1)).toFixed(1)}/s on average over ${spanS.toFixed(1)} s`,
	);
	await main.deactivate(workflow);
	return statuses.get(429) ?? 0;
}
