// Where n8n's own behaviour decides whether the package is right at the edges users reach:
// - Return All at the record bound (MAX_RECORDS in nodes/Stora/transport/walk.ts): real n8n takes exactly that many
//   items from one Stora node, and one more fails before the walk with the package's own message;
// - the Stora Polling Trigger on n8n's own schedule, and across an n8n restart: the cursor n8n saved survives, a
//   record created while n8n was down is emitted once after it comes back, and nothing emitted before comes again.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';

import { loadExamples, withCredentials } from '../realN8n/examples.mjs';
import { finishedExecutions } from '../realN8n/executions.mjs';
import { log, REPO, seconds, startN8n } from '../realN8n/n8n.mjs';
import { startLargeList } from '../realN8n/sandbox.mjs';
import { chain, node, storaNode } from '../realN8n/workflow.mjs';

/** The bound, read from the package as built for this run (dist/, which the packed tarball holds), so the check follows the code. */
function maxRecords() {
	return createRequire(import.meta.url)(path.join(REPO, 'dist/nodes/Stora/transport/walk.js'))
		.MAX_RECORDS;
}

/**
 * Site → Get Many, Return All over a list of exactly MAX_RECORDS (each once, newest first, in real n8n), then over
 * MAX_RECORDS + 1 (a clear error after one request). The list is generated (sandbox/largeList.ts) and the
 * credential's Rate Limit is Custom 0/0, as for a plan without limits.
 */
async function returnAllAtTheBound({ n8n, assert, workflows }) {
	const bound = maxRecords();
	const list = await startLargeList({ size: bound });
	try {
		const credential = await n8n.createCredential('Large list (no rate limit)', 'storaApi', {
			baseUrl: list.url,
			accessToken: 'tok_largeList',
			rateLimit: 'custom',
			requestsPerSecond: 0,
			requestsPerMinute: 0,
		});
		const workflow = await n8n.createWorkflow(
			chain('e2e: Return All at the record bound', [
				node('Start', 'n8n-nodes-base.manualTrigger', 1, {}),
				storaNode('Stora', { resource: 'site', operation: 'getAll', returnAll: true }, credential),
			]),
		);
		workflows.push(workflow);
		let started = Date.now();
		const full = await n8n.runManually(workflow.id, 'Start', { timeoutMs: 600_000 });
		const tookFull = Date.now() - started;
		assert(
			full.status === 'success',
			`Return All of ${bound} records: ${full.status} ${JSON.stringify(full.data?.resultData?.error ?? {}).slice(0, 400)}`,
		);
		const items = full.data.resultData.runData.Stora[0].data.main[0];
		assert(items.length === bound, `${items.length} items instead of ${bound}`);
		const wrong = items.findIndex((item, index) => item.json.id !== `site_${bound - 1 - index}`);
		assert(
			wrong === -1,
			`item ${wrong} is ${items[wrong]?.json.id}, not site_${bound - 1 - wrong}: not each once, newest first`,
		);
		const requestsFull = list.queries.length;

		list.options.size = bound + 1;
		list.queries.length = 0;
		started = Date.now();
		const over = await n8n.runManually(workflow.id, 'Start', { timeoutMs: 120_000 });
		const message = String(over.data?.resultData?.error?.message ?? '');
		assert(over.status === 'error', `Return All over ${bound + 1} records: ${over.status}`);
		const expected = `Return All would return ${(bound + 1).toLocaleString('en-US')} records; one run can return at most ${bound.toLocaleString('en-US')}`;
		assert(message === expected, `error "${message}", expected "${expected}"`);
		assert(
			list.queries.length === 1,
			`${list.queries.length} requests before the error, expected 1`,
		);
		console.log(
			`figures: real n8n took ${bound} items from one Return All (${requestsFull} requests, ${seconds(tookFull)}); ${bound + 1} failed after 1 request in ${seconds(Date.now() - started)}`,
		);
	} finally {
		await list.close();
	}
}

/** A new lead (a contact) created through the API as a web form would create it; resolves to its ID. */
async function createLead(sandbox, name) {
	const response = await fetch(`${sandbox.url}/2025-09/contacts`, {
		method: 'POST',
		headers: { Authorization: `Bearer ${sandbox.token}`, 'Content-Type': 'application/json' },
		body: JSON.stringify({
			full_name: name,
			email: `${name.toLowerCase().replace(/ /g, '-')}@example.com`,
		}),
	});
	if (response.status !== 201) throw new Error(`creating a contact answered ${response.status}`);
	return (await response.json()).contact.id;
}

/** The contact IDs the polling example's trigger ("New lead") emitted in an execution. */
const leadsEmitted = (execution) =>
	(execution.data.resultData.runData['New lead']?.[0]?.data?.main?.[0] ?? []).map(
		(item) => item.json.id,
	);

const pollingExample = () =>
	loadExamples().find(({ file }) => file === 'new-lead-poll-task.json').workflow;

/**
 * The Stora Polling Trigger in a published workflow on n8n's own schedule (every minute): publishing runs the first
 * poll (the cursor starts from now, nothing is emitted), contacts created through the API start one execution at the
 * next poll with each new lead exactly once, and the example's Task node creates one call task per lead.
 */
async function pollFlow({ n8n, sandbox, credentials, workflows, assert, assertMatch }) {
	await sandbox.control.reset('demo');
	const workflow = await n8n.createWorkflow(
		withCredentials(pollingExample(), { storaApi: credentials.accessToken }),
	);
	workflows.push(workflow);
	const callTasks = async () =>
		(await sandbox.control.state('tasks'))
			.filter((task) => task.metadata?.new_lead)
			.map((task) => task.metadata.new_lead);
	const started = Date.now();
	await n8n.activate(workflow);
	try {
		assert(
			(await n8n.allExecutions(workflow.id)).length === 0,
			'publishing emitted existing contacts',
		);
		const firstBatch = [
			await createLead(sandbox, 'Poll Lead 1'),
			await createLead(sandbox, 'Poll Lead 2'),
			await createLead(sandbox, 'Poll Lead 3'),
		];
		const [first] = await finishedExecutions(n8n, workflow.id, 1);
		assert(first.status === 'success', `first poll execution ${first.status}`);
		assertMatch(
			[...leadsEmitted(first)].sort(),
			[...firstBatch].sort(),
			'records emitted by the first poll',
		);
		const second = await createLead(sandbox, 'Poll Lead 4');
		const executions = await finishedExecutions(n8n, workflow.id, 2);
		assert(
			executions.length === 2,
			`${executions.length} executions after two polls with new leads`,
		);
		assert(executions[1].status === 'success', `second poll execution ${executions[1].status}`);
		assertMatch(leadsEmitted(executions[1]), [second], 'records emitted by the second poll');
		assertMatch(
			[...(await callTasks())].sort(),
			[...firstBatch, second].sort(),
			'call tasks created in Stora',
		);
		const polls = (await sandbox.control.requests()).filter(
			(r) => r.method === 'GET' && r.path === '/2025-09/contacts',
		).length;
		log(
			`poll trigger: ${executions.length} executions for 4 new leads over ${polls} polls in ${seconds(Date.now() - started)}, 4 call tasks, none twice`,
		);
	} finally {
		await n8n.deactivate(workflow);
	}
}

/**
 * The "new lead" polling example in an n8n of its own: published, a lead is emitted at the next poll; n8n is stopped,
 * a lead is created while it is down, n8n starts again on the same database, and the next poll emits that lead only.
 */
async function pollAcrossRestart({ sandbox, tarball, assert, cleanups }) {
	await sandbox.control.reset('demo');
	const userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'stora-e2e-restart-'));
	cleanups.push(() => fs.rmSync(userFolder, { recursive: true, force: true }));

	let n8n = await startN8n({ tarball, userFolder });
	try {
		const credential = await n8n.createCredential('Stora sandbox (restart)', 'storaApi', {
			baseUrl: sandbox.url,
			accessToken: sandbox.token,
		});
		const workflow = await n8n.createWorkflow(
			withCredentials(pollingExample(), { storaApi: credential }),
		);
		await n8n.activate(workflow);
		const before = await createLead(sandbox, 'Restart Lead 1');
		const [first] = await finishedExecutions(n8n, workflow.id, 1);
		assert(first.status === 'success', `first poll ${first.status}`);
		assert(
			JSON.stringify(leadsEmitted(first)) === JSON.stringify([before]),
			`first poll emitted ${JSON.stringify(leadsEmitted(first))}`,
		);

		await n8n.stop({ keepFolder: true });
		const during = await createLead(sandbox, 'Restart Lead 2');
		const down = Date.now();
		n8n = await startN8n({ userFolder, ownerSetup: false });
		await n8n.login();
		const executions = await finishedExecutions(n8n, workflow.id, 2);
		assert(
			executions.length === 2,
			`${executions.length} executions after the restart, expected 2`,
		);
		assert(executions[1].status === 'success', `poll after the restart ${executions[1].status}`);
		assert(
			JSON.stringify(leadsEmitted(executions[1])) === JSON.stringify([during]),
			`after the restart the poll emitted ${JSON.stringify(leadsEmitted(executions[1]))}, expected only the lead created while n8n was down`,
		);
		log(
			`poll trigger across a restart: the lead created while n8n was down emitted once, ${seconds(Date.now() - down)} after the restart began`,
		);
		await n8n.deactivate(workflow);
	} finally {
		await n8n.stop();
	}
}

/** The checks of this file, in the run's order. */
export async function edgeChecks(ctx) {
	const { check } = ctx;
	console.log('\nStora Poll Trigger');
	await check(
		'the "new lead" example, published and polling every minute, emits each new lead once and creates its call task',
		() => pollFlow(ctx),
	);
	await check(
		'keeps its cursor across an n8n restart: a lead created while n8n was down is emitted once, nothing earlier again',
		() => pollAcrossRestart(ctx),
	);
	console.log('\nAt the record bound');
	await check(
		'Return All hands real n8n exactly MAX_RECORDS items, each once, newest first; one more fails after one request',
		() => returnAllAtTheBound(ctx),
	);
}
