// Issue 54: a Return All beside other workers on one account. Parallel created_at windows (nodes/Stora/transport/
// windows.ts) start only where a process's budget is fast enough (here a 40/s, 600/min plan set in the credential),
// and then put up to 8 requests out at once plus the windows' rank reads. While every worker writes without pause
// (sharedWrites), Return Alls of 10,000 sites run one after another on whichever worker n8n gives them; every request
// the sandbox saw is put down to the worker whose execution sent it, and in every whole minute each worker gets at least
// half of its fair share (the account's limit over the workers), together at least 0.85 of the limit.
import { assert } from '../realN8n/harness.mjs';
import { chain, codeNode, storaNode, webhookNode } from '../realN8n/workflow.mjs';
import { workersOf } from './helpers.mjs';
import { openAccount, sharedWrites } from './sharedAccount.mjs';

const LIMIT = { perSecond: 40, perMinute: 600 };
const PLAN_SET = { rateLimit: 'custom', requestsPerSecond: 40, requestsPerMinute: 600 };
const SITES = 10_000;
const RETURN_ALL_MINUTES = 2;

export const describeReturnAll = (workers) =>
	`${workers} workers writing on one account of ${LIMIT.perSecond}/s and ${LIMIT.perMinute}/min (that plan in the credential), Return Alls of ${SITES.toLocaleString('en')} sites one after another on the workers, ${RETURN_ALL_MINUTES} min`;

/** Runs the scenario with the workers now running; returns its figures (asserts all but the per-worker goal). */
export async function returnAllBeside(ctx) {
	const { main, cluster, log } = ctx;
	const account = await openAccount(ctx, 'return-all', LIMIT, PLAN_SET);
	try {
		await account.sandbox.control.addSites(SITES);
		const total = (await account.sandbox.control.state('sites')).length;
		const path = `queue-shared-return-all-${Date.now()}`;
		const workflow = await main.createWorkflow(
			chain('queue: shared account, Return All', [
				webhookNode(path, { responseMode: 'lastNode', responseData: 'firstEntryJson' }),
				storaNode('Sites', { resource: 'site', operation: 'getAll', returnAll: true }, account.credential),
				codeNode('Count', 'const ids = $input.all().map((item) => item.json.id);\nreturn [{ json: { count: ids.length, distinct: new Set(ids).size } }];'),
			]),
		);
		ctx.workflows.push(workflow);
		await main.activate(workflow);
		const answers = [];
		const returnAlls = async (start, end) => {
			while (Date.now() < end) answers.push(await cluster.webhook.callWebhook(path, { body: {}, timeoutMs: 600_000 }));
		};
		const workers = cluster.workers.filter((w) => !w.exited).length;
		const writes = await sharedWrites(ctx, account, { minutes: RETURN_ALL_MINUTES, label: 'return-all', onStart: returnAlls });
		await main.deactivate(workflow);
		for (const [i, answer] of answers.entries()) {
			assert(answer.status === 200 && answer.body?.count === total && answer.body.distinct === total, `Return All ${i + 1}: HTTP ${answer.status} ${String(answer.text).slice(0, 300)}, the sandbox has ${total} sites`);
		}
		const perWorker = await perWorkerMinutes(ctx, account, workflow.id, writes);
		log(`return-all: per worker and minute ${JSON.stringify(Object.fromEntries(perWorker.byWorker))}`);
		return { ...writes, workers, returnAlls: answers.length, parallel: perWorker.parallel, runs: perWorker.runs, byWorkerMinute: perWorker.byWorker, fair: LIMIT.perMinute / workers };
	} finally {
		await account.close();
	}
}

/** The accepted requests of every whole minute, per worker: Return All pages by the execution running then, writes by their contact. */
async function perWorkerMinutes(ctx, account, returnAllWorkflowId, { start, minutes }) {
	const rows = ctx.pg
		.query(`select id || ' ' || extract(epoch from "startedAt") * 1000 || ' ' || extract(epoch from "stoppedAt") * 1000 from execution_entity where "workflowId" = '${returnAllWorkflowId}' order by id`)
		.split('\n')
		.filter(Boolean)
		.map((line) => line.split(' '))
		.map(([id, from, to]) => ({ id, from: Number(from), to: Number(to) }));
	const returnAllWorkers = workersOf(ctx, rows.map((r) => r.id));
	const contacts = await account.sandbox.control.state('contacts');
	const executionOfContact = new Map(contacts.map((c) => [c.id, /\.(\d+)@/.exec(c.email)?.[1]]));
	const requests = (await account.sandbox.control.requests()).filter((r) => r.path.startsWith('/2025-09/') && r.status !== 429);
	const writeExecutions = requests.map((r) => (r.method === 'POST' ? /\.(\d+)@/.exec(r.body?.email ?? '')?.[1] : r.method === 'PATCH' ? executionOfContact.get(r.path.split('/').pop()) : undefined));
	const ids = [...new Set(writeExecutions.filter(Boolean))];
	const names = workersOf(ctx, ids);
	const writeWorkers = new Map(ids.map((id, n) => [id, names[n]]));
	const byWorker = new Map(ctx.cluster.workers.filter((w) => !w.exited).map((w) => [w.name, Array(minutes).fill(0)]));
	const parallel = new Set();
	for (const [i, request] of requests.entries()) {
		const at = Date.parse(request.at);
		const minute = Math.floor((at - start) / 60_000);
		let worker;
		if (request.method === 'GET') {
			// The execution running then (they run one after another); n8n's clock and the sandbox's are this machine's.
			const index = rows.findIndex((r) => at >= r.from && at <= r.to);
			assert(index >= 0, `GET ${request.path} at ${request.at} falls in no Return All execution`);
			worker = returnAllWorkers[index];
			if (request.query.limit === '1' && request.query.sort_direction === 'ASC') parallel.add(rows[index].id);
		} else {
			worker = writeWorkers.get(writeExecutions[i]);
			assert(worker, `${request.method} ${request.path} at ${request.at}: no execution found for it`);
		}
		if (minute >= 0 && minute < minutes) byWorker.get(worker)[minute] += 1;
	}
	assert(rows.length >= 1, 'no Return All ran');
	const runs = rows.map((r, n) => `${returnAllWorkers[n]} ${((r.to - r.from) / 1000).toFixed(0)} s${parallel.has(r.id) ? ' in parallel windows' : ''}`);
	return { byWorker, parallel: parallel.size, runs };
}

export const describeReturnAllFigures = (f) =>
	`return-all: ${f.returnAlls} Return Alls (${f.runs.join('; ')}) beside ${f.executions} write executions on ${f.workers} workers; accepted in the measured minutes ${(100 * f.throughput).toFixed(1)}% of the limit; per worker and minute (fair share ${f.fair}): ${[...f.byWorkerMinute].map(([w, m]) => `${w} ${m.join(', ')}`).join('; ')}; ${f.limited} answered 429 (${f.limitedPer100.toFixed(1)} per 100)`;
