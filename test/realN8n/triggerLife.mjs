// The Stora Trigger's webhook endpoints through every way n8n starts and ends a trigger's life, driven by the REST
// routes n8n's editor uses (issue 32), and at-least-once delivery when n8n cannot store an execution (issue 38).
// After each step, Stora (the sandbox) must hold exactly the endpoints that should exist.
import { createHmac, randomUUID } from 'node:crypto';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { assert } from './harness.mjs';
import { sleep, startN8n, VERSION } from './n8n.mjs';

const TRIGGER_TYPE = 'n8n-nodes-stora.storaTrigger';

/** A saved workflow: a Stora Trigger (version 1.1) on `events`, into a No Operation node. */
export async function triggerWorkflow(n8n, credential, events = ['contact.created'], name = 'Stora Trigger life') {
	const webhookId = randomUUID();
	const workflow = await n8n.createWorkflow({
		name: `${name} ${webhookId.slice(0, 8)}`,
		nodes: [
			{
				id: randomUUID(),
				name: 'Stora Trigger',
				type: TRIGGER_TYPE,
				typeVersion: 1.1,
				position: [0, 0],
				webhookId,
				parameters: { authentication: 'accessToken', events },
				credentials: { storaApi: { id: credential.id, name: credential.name } },
			},
			{ id: randomUUID(), name: 'Done', type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [200, 0], parameters: {} },
		],
		connections: { 'Stora Trigger': { main: [[{ node: 'Done', type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	});
	return { ...workflow, webhookId };
}

/** The endpoints Stora holds for this workflow's trigger, by kind of n8n URL. */
async function endpointsOf(sandbox, workflow) {
	const mine = (await sandbox.control.state('webhook_endpoints')).filter((endpoint) => String(endpoint.url).includes(`/${workflow.webhookId}/`));
	return {
		test: mine.filter((endpoint) => /\/webhook-test\//.test(endpoint.url)),
		production: mine.filter((endpoint) => /\/webhook\//.test(endpoint.url)),
	};
}

/**
 * Waits (n8n ends some listens in the background, and the trigger's requests may wait for the account's documented
 * 60/min budget that earlier checks used) until Stora holds `expected` endpoints; fails naming the step.
 */
async function expectEndpoints(sandbox, workflow, expected, step, timeoutMs = 90_000) {
	const deadline = Date.now() + timeoutMs;
	let held;
	for (;;) {
		held = await endpointsOf(sandbox, workflow);
		if (held.test.length === expected.test && held.production.length === expected.production) return held;
		if (Date.now() > deadline) break;
		await sleep(200);
	}
	throw new Error(
		`after "${step}": Stora holds ${held.test.length} test and ${held.production.length} production endpoints, expected ${expected.test} and ${expected.production}`,
	);
}

/** "Execute step" on the trigger: n8n starts listening for a test event (POST /rest/workflows/:id/run). */
async function listen(n8n, workflow) {
	const workflowData = await n8n.request('GET', `/rest/workflows/${workflow.id}`);
	const answer = await n8n.request('POST', `/rest/workflows/${workflow.id}/run`, {
		workflowData,
		triggerToStartFrom: { name: 'Stora Trigger' },
		destinationNode: { nodeName: 'Stora Trigger', mode: 'inclusive' },
	});
	assert(answer?.waitingForWebhook === true, `"Execute step" did not start listening: ${JSON.stringify(answer).slice(0, 300)}`);
}

/** "Stop Listening" (DELETE /rest/test-webhook/:workflowId, n8n 1.123 to 2.41). */
const stopListening = (n8n, workflow) => n8n.request('DELETE', `/rest/test-webhook/${workflow.id}`);

/** Publishes the workflow as saved now (its current versionId). */
async function publish(n8n, workflow) {
	const saved = await n8n.request('GET', `/rest/workflows/${workflow.id}`);
	await n8n.activate(saved);
}

/** Saves the trigger with other events, as the editor's Save does (PATCH with the current versionId). */
async function saveEvents(n8n, workflow, events) {
	const saved = await n8n.request('GET', `/rest/workflows/${workflow.id}`);
	const nodes = saved.nodes.map((node) => (node.type === TRIGGER_TYPE ? { ...node, parameters: { ...node.parameters, events } } : node));
	await n8n.request('PATCH', `/rest/workflows/${workflow.id}`, { name: saved.name, nodes, connections: saved.connections, versionId: saved.versionId });
}

/**
 * Starts a test listen that nobody ends, so n8n's own timeout (2 minutes) must; returns the check to run after it.
 * Started first and checked last, so the suite does not wait for it. It runs in an n8n of its own: in the full suite's
 * busy n8n 1.123, the timeout was seen to end the listen without n8n calling the trigger's delete (the endpoint then
 * stays until the trigger's next listen, which removes it), and this check is about what the trigger does when n8n's
 * timeout reaches it.
 */
export async function listenUntilTimeout({ sandbox, tarball }) {
	const n8n = await startN8n({ tarball });
	try {
		const credential = await n8n.createCredential('Stora sandbox (timeout)', 'storaApi', { baseUrl: sandbox.url, accessToken: sandbox.token });
		// An event no other check sends meanwhile: a delivery would end the listen before the timeout could.
		const workflow = await triggerWorkflow(n8n, credential, ['unit.updated'], 'Stora Trigger timeout');
		await listen(n8n, workflow);
		await expectEndpoints(sandbox, workflow, { test: 1, production: 0 }, 'Execute step (left to time out)');
		const started = Date.now();
		return async () => {
			try {
				const left = 120_000 + 5_000 - (Date.now() - started);
				if (left > 0) await sleep(left);
				await expectEndpoints(sandbox, workflow, { test: 0, production: 0 }, "n8n's 2-minute test timeout");
				// Ended by the timeout, not by a delivery (which would have left an execution).
				const executions = await n8n.executions(workflow.id);
				assert(executions.length === 0, `the listen was ended by ${executions.length} execution(s), not by n8n's timeout`);
				return workflow;
			} finally {
				await n8n.stop();
			}
		};
	} catch (error) {
		await n8n.stop();
		throw error;
	}
}

/** Every other way n8n starts and ends the trigger's life, in the order a user meets them. Returns the steps run. */
export async function triggerLifecycle({ n8n, sandbox, credential }) {
	const workflow = await triggerWorkflow(n8n, credential);
	const steps = [];
	const step = async (name, action, expected) => {
		await action();
		await expectEndpoints(sandbox, workflow, expected, name);
		steps.push(name);
	};
	await step('Execute step', () => listen(n8n, workflow), { test: 1, production: 0 });
	const firstTest = (await endpointsOf(sandbox, workflow)).test[0].id;
	await step('Execute step again, over the running listen', () => listen(n8n, workflow), { test: 1, production: 0 });
	assert((await endpointsOf(sandbox, workflow)).test[0].id !== firstTest, 'the new listen kept the old endpoint instead of its own');
	await step('Stop Listening', () => stopListening(n8n, workflow), { test: 0, production: 0 });

	await step('Execute step, then an event arrives', async () => {
		await listen(n8n, workflow);
		await expectEndpoints(sandbox, workflow, { test: 1, production: 0 }, 'Execute step');
		await sandbox.control.call('POST', '/__sandbox/events', { type: 'contact.created' });
	}, { test: 0, production: 0 });
	const manual = await n8n.executions(workflow.id);
	assert(manual.length === 1 && manual[0].mode === 'manual', `the test event started ${manual.length} executions (${manual.map((e) => e.mode)})`);

	// A crash between n8n's registration and its save leaves an endpoint at the URL that n8n no longer knows of.
	await listen(n8n, workflow);
	const testUrl = (await expectEndpoints(sandbox, workflow, { test: 1, production: 0 }, 'Execute step')).test[0].url;
	await stopListening(n8n, workflow);
	await expectEndpoints(sandbox, workflow, { test: 0, production: 0 }, 'Stop Listening');
	await apiCreateEndpoint(sandbox, testUrl);
	await expectEndpoints(sandbox, workflow, { test: 1, production: 0 }, 'an endpoint left at the test URL by a crash');
	await step('Execute step with an endpoint left at its URL by a crash', () => listen(n8n, workflow), { test: 1, production: 0 });
	await step('Stop Listening', () => stopListening(n8n, workflow), { test: 0, production: 0 });

	await step('Publish', () => publish(n8n, workflow), { test: 0, production: 1 });
	await step('Execute step while published', () => listen(n8n, workflow), { test: 1, production: 1 });
	await step('Stop Listening while published', () => stopListening(n8n, workflow), { test: 0, production: 1 });
	await step('Save an edit (other events) while published', () => saveEvents(n8n, workflow, ['contact.created', 'deal.lost']), { test: 0, production: 1 });
	await step('Publish the edit', () => publish(n8n, workflow), { test: 0, production: 1 });
	const [published] = (await endpointsOf(sandbox, workflow)).production;
	assert(JSON.stringify([...published.event_types].sort()) === JSON.stringify(['contact.created', 'deal.lost']), `the published endpoint listens to ${published.event_types}`);
	await step('Unpublish', () => n8n.deactivate(workflow), { test: 0, production: 0 });
	await step('Republish', () => publish(n8n, workflow), { test: 0, production: 1 });
	await step('Unpublish again', () => n8n.deactivate(workflow), { test: 0, production: 0 });
	return { workflow, steps };
}

/** Registers an endpoint at `url` through the API, as the trigger would have before a crash. */
async function apiCreateEndpoint(sandbox, url) {
	const response = await fetch(`${sandbox.url}/2025-09/webhook_endpoints`, {
		method: 'POST',
		headers: { authorization: `Bearer ${sandbox.token}`, 'content-type': 'application/json' },
		body: JSON.stringify({ name: 'left by a crash', api_version: '2025-09', url, event_types: ['contact.created'] }),
	});
	assert(response.status === 201 || response.status === 200, `could not leave an endpoint at ${url}: HTTP ${response.status}`);
}

/**
 * What makes n8n unable to store an execution, for the SQLite database of a single n8n: a trigger in the database
 * that refuses every new execution row, as a full or locked database would, deterministically. `python3` writes it
 * (n8n holds the file open; SQLite lets a second connection change the schema between n8n's statements).
 */
export function sqliteRefusal(userFolder) {
	const database = path.join(userFolder, '.n8n', 'database.sqlite');
	const sql = (statement) => {
		const result = spawnSync('python3', ['-c', 'import sqlite3,sys; c=sqlite3.connect(sys.argv[1], timeout=30); c.execute(sys.argv[2]); c.commit()', database, statement], { encoding: 'utf8' });
		if (result.status !== 0) throw new Error(`sqlite: ${result.stderr}`);
	};
	return {
		on: () => sql("CREATE TRIGGER stora_e2e_refuse BEFORE INSERT ON execution_entity BEGIN SELECT RAISE(ABORT, 'e2e: the database refuses new executions'); END"),
		off: () => sql('DROP TRIGGER IF EXISTS stora_e2e_refuse'),
	};
}

/**
 * The issue's own case, a busy database: a second connection holds SQLite's exclusive lock (`BEGIN EXCLUSIVE`) until
 * `off()` stops it by its PID. n8n 2.41 waits about 2.5 s for the lock, then answers 500.
 */
export function sqliteLock(userFolder) {
	const database = path.join(userFolder, '.n8n', 'database.sqlite');
	let holder;
	return {
		on: () => {
			const script = 'import sqlite3,sys,time; c=sqlite3.connect(sys.argv[1], isolation_level=None); c.execute("BEGIN EXCLUSIVE"); print("locked", flush=True); time.sleep(120)';
			holder = spawn('python3', ['-c', script, database], { stdio: ['ignore', 'pipe', 'inherit'] });
			return new Promise((resolve, reject) => {
				holder.stdout.once('data', resolve);
				holder.once('exit', (code) => reject(new Error(`the lock holder ended (${code}) before it held the lock`)));
			});
		},
		off: () => {
			if (holder?.exitCode === null) holder.kill('SIGTERM');
		},
	};
}

/** The same for n8n on PostgreSQL (queue mode): `pg.query` runs SQL as n8n's database user, which owns the table. */
export function postgresRefusal(pg) {
	return {
		on: () =>
			pg.query(
				"CREATE OR REPLACE FUNCTION stora_e2e_refuse() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'e2e: the database refuses new executions'; END $$ LANGUAGE plpgsql; " +
					'CREATE TRIGGER stora_e2e_refuse BEFORE INSERT ON execution_entity FOR EACH ROW EXECUTE FUNCTION stora_e2e_refuse()',
			),
		off: () => pg.query('DROP TRIGGER IF EXISTS stora_e2e_refuse ON execution_entity'),
	};
}

/**
 * One delivery whose execution n8n cannot store, then Stora's retry, under the sandbox's retry signing `mode`:
 * on n8n 2.x (which answers only once the execution is stored) the first attempt is answered 500 and the retry starts
 * exactly one execution with the event intact; a replay of it then starts none. On n8n 1.x, which answers before it
 * stores, the first attempt is answered 200 and the event is lost to n8n (the README says so): that is checked too,
 * so the README's sentence stays true.
 */
export async function atLeastOnce({ n8n, sandbox, credential, refusal, mode }) {
	await sandbox.control.configure({ retry_timestamp: mode });
	await sandbox.control.call('DELETE', '/__sandbox/deliveries');
	const workflow = await triggerWorkflow(n8n, credential, ['contact.created'], `Stora Trigger at least once (${mode})`);
	await publish(n8n, workflow);
	try {
		const [endpoint] = (await endpointsOf(sandbox, workflow)).production;
		const { event, first } = await firstAttemptWhile(sandbox, refusal);
		const answersBeforeStoring = VERSION.api.answersBeforeStoring === true;
		if (answersBeforeStoring) {
			assert(first.status === 200, `n8n ${VERSION.n8n} answered the first attempt ${first.status}, expected 200 (it answers before storing)`);
			await sleep(1000);
			const executions = await n8n.allExecutions(workflow.id);
			assert(executions.length === 0, `${executions.length} executions: expected none (the database refused it)`);
			return { first: first.status, retry: null, executions: 0, replay: null };
		}
		assert(first.status === 500, `the first attempt was answered ${first.status}, expected 500 (n8n could not store the execution)`);
		await sandbox.control.advanceClock(60);
		await until(async () => (await deliveriesOf(sandbox, event.id)).some((d) => d.attempt === 2 && d.status !== null), "Stora's retry to be answered");
		const retry = (await deliveriesOf(sandbox, event.id)).find((d) => d.attempt === 2);
		assert(retry.status === 200, `Stora's retry was answered ${retry.status}`);
		if (mode === 'first') assert(retry.timestamp === first.timestamp, 'the retry was not signed with the first timestamp');
		await until(async () => (await n8n.allExecutions(workflow.id)).filter((e) => e.status === 'success').length >= 1, 'the execution');
		const executions = await n8n.allExecutions(workflow.id);
		assert(executions.length === 1, `${executions.length} executions for one event, expected 1`);
		const output = await outputOf(n8n, executions[0].id);
		assert(output?.id === event.id && output?.data?.contact?.id === event.data.contact.id, `the execution holds ${JSON.stringify(output).slice(0, 300)}`);

		// A replay of the delivery n8n took, signed anew: answered duplicate, no execution.
		const secret = sandbox.core.webhookSecrets.get(endpoint.id);
		const body = JSON.stringify(event);
		const t = Math.floor(Date.now() / 1000);
		const replay = await fetch(endpoint.url, {
			method: 'POST',
			headers: { 'content-type': 'application/json', 'x-stora-signature': `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}` },
			body,
		});
		const answer = await replay.json();
		assert(replay.status === 200 && answer.duplicate === true, `the replay was answered ${replay.status} ${JSON.stringify(answer)}`);
		await sleep(1000);
		assert((await n8n.allExecutions(workflow.id)).length === 1, 'the replay started an execution');
		return { first: first.status, retry: retry.status, executions: executions.length, replay: replay.status };
	} finally {
		await n8n.deactivate(workflow);
	}
}

/**
 * One delivery while n8n is stalled (`stall.on()`: a service it needs stops answering) past Stora's 10-second timeout,
 * then `stall.off()` and Stora's retry: exactly one execution of the event, whichever way n8n ended the first attempt
 * (answered 200 to a Stora that had hung up, once the execution was stored; or an error, and the retry started it).
 */
export async function noEventLostWhileStalled({ n8n, sandbox, credential, stall }) {
	await sandbox.control.configure({ retry_timestamp: 'fresh' });
	await sandbox.control.call('DELETE', '/__sandbox/deliveries');
	const workflow = await triggerWorkflow(n8n, credential, ['contact.created'], 'Stora Trigger stalled');
	await publish(n8n, workflow);
	try {
		const { event, first } = await firstAttemptWhile(sandbox, stall);
		await sandbox.control.advanceClock(60);
		await until(async () => (await deliveriesOf(sandbox, event.id)).some((d) => d.attempt === 2), "Stora's retry to be answered");
		const retry = (await deliveriesOf(sandbox, event.id)).find((d) => d.attempt === 2);
		await until(async () => (await n8n.allExecutions(workflow.id)).some((e) => e.status === 'success'), 'the execution');
		await sleep(2000); // a second execution, were there one, would show by now
		const executions = await n8n.allExecutions(workflow.id);
		assert(executions.length === 1, `${executions.length} executions for one event (${executions.map((e) => e.status).join(', ')}), expected 1`);
		const output = await outputOf(n8n, executions[0].id);
		assert(output?.id === event.id, `the execution holds ${JSON.stringify(output).slice(0, 300)}`);
		return { first: first.status ?? first.error, retry: retry.status ?? retry.error, executions: executions.length };
	} finally {
		await n8n.deactivate(workflow);
	}
}

/**
 * n8n stops while it handles a delivery: its database is locked (so nothing can be stored yet) when the event is
 * sent, and n8n is killed at once, by its process group. Whatever the trigger had noted goes with the process. n8n is
 * started again on the same folder and port (its webhook URL, which Stora delivers to), keeps the registration, and
 * Stora's retry starts exactly one execution with the event's data. For n8n that stores before it answers (2.x).
 */
export async function stoppedMidDelivery({ sandbox, tarball }) {
	const userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'stora-e2e-stopped-'));
	let n8n = await startN8n({ tarball, userFolder });
	try {
		const credential = await n8n.createCredential('Stora sandbox (stopped)', 'storaApi', { baseUrl: sandbox.url, accessToken: sandbox.token });
		await sandbox.control.configure({ retry_timestamp: 'fresh' });
		await sandbox.control.call('DELETE', '/__sandbox/deliveries');
		const workflow = await triggerWorkflow(n8n, credential, ['contact.created'], 'Stora Trigger stopped');
		await publish(n8n, workflow);
		const [endpoint] = (await endpointsOf(sandbox, workflow)).production;
		const lock = sqliteLock(userFolder);
		await lock.on();
		let event;
		try {
			({ event } = await sandbox.control.call('POST', '/__sandbox/events', { type: 'contact.created' }));
			process.kill(-n8n.pid, 'SIGKILL');
			await n8n.stop({ keepFolder: true });
		} finally {
			lock.off();
		}
		await until(async () => (await deliveriesOf(sandbox, event.id)).length >= 1, 'the first attempt to fail');
		const [first] = await deliveriesOf(sandbox, event.id);
		n8n = await startN8n({ userFolder, port: n8n.port, ownerSetup: false });
		await n8n.login();
		const held = await endpointsOf(sandbox, workflow);
		assert(held.production.length === 1 && held.production[0].id === endpoint.id, 'the restart did not keep the one registration');
		await sandbox.control.advanceClock(60);
		await until(async () => (await deliveriesOf(sandbox, event.id)).some((d) => d.attempt === 2), "Stora's retry to be answered");
		const retry = (await deliveriesOf(sandbox, event.id)).find((d) => d.attempt === 2);
		assert(retry.status === 200, `Stora's retry was answered ${retry.status ?? retry.error}`);
		await until(async () => (await n8n.allExecutions(workflow.id)).some((e) => e.status === 'success'), 'the execution');
		await sleep(1000);
		const executions = await n8n.allExecutions(workflow.id);
		const succeeded = executions.filter((e) => e.status === 'success');
		assert(succeeded.length === 1, `${succeeded.length} successful executions for one event (${executions.map((e) => e.status).join(', ')}), expected 1`);
		const output = await outputOf(n8n, succeeded[0].id);
		assert(output?.id === event.id && output?.data?.contact?.id === event.data.contact.id, `the execution holds ${JSON.stringify(output).slice(0, 300)}`);
		await n8n.deactivate(workflow);
		return { first: first.status ?? first.error, retry: retry.status, executions: executions.length };
	} finally {
		await n8n.stop();
		fs.rmSync(userFolder, { recursive: true, force: true });
	}
}

/**
 * Sends a `contact.created` event while `fault` holds (`on()` may be async), waits until Stora's first attempt of it
 * has ended (answered, refused or timed out), then lifts the fault. The event and that first attempt.
 */
async function firstAttemptWhile(sandbox, fault) {
	await fault.on();
	try {
		const { event } = await sandbox.control.call('POST', '/__sandbox/events', { type: 'contact.created' });
		await until(async () => (await deliveriesOf(sandbox, event.id)).length >= 1, 'the first attempt to end');
		const [first] = await deliveriesOf(sandbox, event.id);
		return { event, first };
	} finally {
		fault.off();
	}
}

/** The answered attempts of one event (the sandbox logs an attempt once it is answered or has failed). */
const deliveriesOf = async (sandbox, eventId) =>
	(await sandbox.control.call('GET', '/__sandbox/deliveries')).deliveries.filter((d) => d.event_id === eventId);

async function until(condition, what, timeoutMs = 90_000) {
	const deadline = Date.now() + timeoutMs;
	while (!(await condition())) {
		if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
		await sleep(200);
	}
}

async function outputOf(n8n, executionId) {
	const execution = await n8n.execution(executionId);
	return execution.data?.resultData?.runData?.['Stora Trigger']?.[0]?.data?.main?.[0]?.[0]?.json;
}
