// Return All on the workers, 4 runs at once: each returns every site exactly once, equal to the sandbox's records,
// in the API's default order (230 sites more than the seed, so the list spans several pages).
import { isDeepStrictEqual } from 'node:util';

import { assert } from '../../realN8n/harness.mjs';
import { chain, storaNode, webhookNode } from '../../realN8n/workflow.mjs';
import {
	ANSWER_ALL,
	callWebhook,
	countBy,
	describeCounts,
	finishedRows,
	workersOf,
} from '../helpers.mjs';

export const title = () =>
	"Return All on the workers is exact: 4 concurrent runs each return every site once, as stored, in the API's order";

export async function run(ctx) {
	const { main, sandbox, reset, figure } = ctx;
	await reset();
	await sandbox.control.addSites(230);
	const expected = await sandbox.control.state('sites');
	const workflow = await main.createWorkflow(
		chain('queue: Return All', [
			webhookNode('queue-return-all', ANSWER_ALL),
			storaNode('Stora', { resource: 'site', operation: 'getAll', returnAll: true }, ctx.token),
		]),
	);
	ctx.workflows.push(workflow);
	await main.activate(workflow);
	await sandbox.control.clearRequests();
	const responses = await Promise.all(
		Array.from({ length: 4 }, () => callWebhook(ctx, 'queue-return-all', {})),
	);
	const byId = new Map(expected.map((s) => [s.id, s]));
	for (const [i, response] of responses.entries()) {
		assert(
			response.status === 200 && Array.isArray(response.body),
			`run ${i + 1}: HTTP ${response.status} ${response.text.slice(0, 300)}`,
		);
		const ids = response.body.map((s) => s.id);
		assert(
			ids.length === expected.length && new Set(ids).size === ids.length,
			`run ${i + 1}: ${ids.length} sites (${new Set(ids).size} distinct), the sandbox has ${expected.length}`,
		);
		const wrong = response.body.filter((s) => !isDeepStrictEqual(byId.get(s.id), s));
		assert(
			!wrong.length,
			`run ${i + 1}: ${wrong.length} sites differ from the sandbox's, e.g. ${String(JSON.stringify(wrong[0])).slice(0, 300)}`,
		);
	}
	const summaries = await finishedRows(ctx, workflow.id, 4);
	assert(
		summaries.every((e) => e.status === 'success'),
		`executions: ${describeCounts(countBy(summaries.map((e) => e.status)))}`,
	);
	const workers = countBy(
		workersOf(
			ctx,
			summaries.map((s) => s.id),
		),
	);
	const pages = (await sandbox.control.requests()).filter((r) => r.path === '/2025-09/sites');
	// Without a sort the records come back in the API's default order, newest first (ties in stored order).
	const apiOrder = [...expected]
		.sort((a, b) => b.created_at.localeCompare(a.created_at))
		.map((s) => s.id)
		.join();
	for (const [i, response] of responses.entries())
		assert(
			response.body.map((s) => s.id).join() === apiOrder,
			`run ${i + 1}: not in the API's default order (created_at descending)`,
		);
	figure(
		`Return All: 4 × ${expected.length} sites, exact and in the API's order; ${pages.length} page requests (${describeCounts(countBy(pages.map((r) => r.status)))}); per worker: ${describeCounts(workers)}`,
	);
	await main.deactivate(workflow);
}
