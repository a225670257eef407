// At-least-once delivery when n8n cannot take an event: the database refuses the execution, a service n8n
// needs stalls, or n8n is killed mid-delivery; each time Stora's retry must start exactly one execution of the event.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { VERSION } from './basics.mjs';
import { sqliteLock } from './faults.mjs';
import { assert } from './harness.mjs';
import { startN8n } from './start.mjs';
import { endpointsOf, publish, triggerWorkflow } from './triggerRoutes.mjs';
import { sleep, until } from './wait.mjs';

/** How long each wait here allows: Stora's retry and n8n's execution may queue behind the account's rate budget. */
const PATIENCE = { timeoutMs: 90_000, every: 200 };

/**
 * One delivery whose execution n8n cannot store, then Stora's retry, under the sandbox's retry signing `mode`:
 * on n8n 2.x (which answers only once the execution is stored) the first attempt is answered 500 and the retry starts
 * exactly one execution with the event intact. On n8n 1.x, which answers before it
 * stores, the first attempt is answered 200 and the event is lost to n8n (the README says so): that is checked too,
 * so the README's sentence stays true.
 */
export async function atLeastOnce({ n8n, sandbox, credential, refusal, mode }) {
	await sandbox.control.configure({ retry_timestamp: mode });
	await sandbox.control.call('DELETE', '/__sandbox/deliveries');
	const workflow = await triggerWorkflow(
		n8n,
		credential,
		['contact.created'],
		`Stora Trigger at least once (${mode})`,
	);
	await publish(n8n, workflow);
	try {
		const { event, first } = await firstAttemptWhile(sandbox, refusal);
		const answersBeforeStoring = VERSION.api.answersBeforeStoring === true;
		if (answersBeforeStoring) {
			assert(
				first.status === 200,
				`n8n ${VERSION.n8n} answered the first attempt ${first.status}, expected 200 (it answers before storing)`,
			);
			await sleep(1000);
			const executions = await n8n.allExecutions(workflow.id);
			assert(
				executions.length === 0,
				`${executions.length} executions: expected none (the database refused it)`,
			);
			return { first: first.status, retry: null, executions: 0 };
		}
		assert(
			first.status === 500,
			`the first attempt was answered ${first.status}, expected 500 (n8n could not store the execution)`,
		);
		await sandbox.control.advanceClock(60);
		await until(
			async () =>
				(await deliveriesOf(sandbox, event.id)).some((d) => d.attempt === 2 && d.status !== null),
			"Stora's retry to be answered",
			PATIENCE,
		);
		const retry = (await deliveriesOf(sandbox, event.id)).find((d) => d.attempt === 2);
		assert(retry.status === 200, `Stora's retry was answered ${retry.status}`);
		if (mode === 'first')
			assert(
				retry.timestamp === first.timestamp,
				'the retry was not signed with the first timestamp',
			);
		await until(
			async () =>
				(await n8n.allExecutions(workflow.id)).filter((e) => e.status === 'success').length >= 1,
			'the execution',
			PATIENCE,
		);
		const executions = await n8n.allExecutions(workflow.id);
		assert(executions.length === 1, `${executions.length} executions for one event, expected 1`);
		const output = await outputOf(n8n, executions[0].id);
		assert(
			output?.id === event.id && output?.data?.contact?.id === event.data.contact.id,
			`the execution holds ${JSON.stringify(output).slice(0, 300)}`,
		);
		return { first: first.status, retry: retry.status, executions: executions.length };
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
	const workflow = await triggerWorkflow(
		n8n,
		credential,
		['contact.created'],
		'Stora Trigger stalled',
	);
	await publish(n8n, workflow);
	try {
		const { event, first } = await firstAttemptWhile(sandbox, stall);
		await sandbox.control.advanceClock(60);
		await until(
			async () => (await deliveriesOf(sandbox, event.id)).some((d) => d.attempt === 2),
			"Stora's retry to be answered",
			PATIENCE,
		);
		const retry = (await deliveriesOf(sandbox, event.id)).find((d) => d.attempt === 2);
		await until(
			async () => (await n8n.allExecutions(workflow.id)).some((e) => e.status === 'success'),
			'the execution',
			PATIENCE,
		);
		await sleep(2000); // a second execution, were there one, would show by now
		const executions = await n8n.allExecutions(workflow.id);
		assert(
			executions.length === 1,
			`${executions.length} executions for one event (${executions.map((e) => e.status).join(', ')}), expected 1`,
		);
		const output = await outputOf(n8n, executions[0].id);
		assert(output?.id === event.id, `the execution holds ${JSON.stringify(output).slice(0, 300)}`);
		return {
			first: first.status ?? first.error,
			retry: retry.status ?? retry.error,
			executions: executions.length,
		};
	} finally {
		await n8n.deactivate(workflow);
	}
}

/**
 * n8n stops while it handles a delivery: its database is locked (so nothing can be stored yet) when the event is
 * sent, and n8n is killed at once, by its process group. n8n is
 * started again on the same folder and port (its webhook URL, which Stora delivers to), keeps the registration, and
 * Stora's retry starts exactly one execution with the event's data. For n8n that stores before it answers (2.x).
 */
export async function stoppedMidDelivery({ sandbox, tarball }) {
	const userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'stora-e2e-stopped-'));
	let n8n = await startN8n({ tarball, userFolder });
	try {
		const credential = await n8n.createCredential('Stora sandbox (stopped)', 'storaApi', {
			baseUrl: sandbox.url,
			accessToken: sandbox.token,
		});
		await sandbox.control.configure({ retry_timestamp: 'fresh' });
		await sandbox.control.call('DELETE', '/__sandbox/deliveries');
		const workflow = await triggerWorkflow(
			n8n,
			credential,
			['contact.created'],
			'Stora Trigger stopped',
		);
		await publish(n8n, workflow);
		const [endpoint] = (await endpointsOf(sandbox, workflow)).production;
		const lock = sqliteLock(userFolder);
		await lock.on();
		let event;
		try {
			({ event } = await sandbox.control.call('POST', '/__sandbox/events', {
				type: 'contact.created',
			}));
			process.kill(-n8n.pid, 'SIGKILL');
			await n8n.stop({ keepFolder: true });
		} finally {
			lock.off();
		}
		await until(
			async () => (await deliveriesOf(sandbox, event.id)).length >= 1,
			'the first attempt to fail',
			PATIENCE,
		);
		const [first] = await deliveriesOf(sandbox, event.id);
		n8n = await startN8n({ userFolder, port: n8n.port, ownerSetup: false });
		await n8n.login();
		const held = await endpointsOf(sandbox, workflow);
		assert(
			held.production.length === 1 && held.production[0].id === endpoint.id,
			'the restart did not keep the one registration',
		);
		await sandbox.control.advanceClock(60);
		await until(
			async () => (await deliveriesOf(sandbox, event.id)).some((d) => d.attempt === 2),
			"Stora's retry to be answered",
			PATIENCE,
		);
		const retry = (await deliveriesOf(sandbox, event.id)).find((d) => d.attempt === 2);
		assert(retry.status === 200, `Stora's retry was answered ${retry.status ?? retry.error}`);
		await until(
			async () => (await n8n.allExecutions(workflow.id)).some((e) => e.status === 'success'),
			'the execution',
			PATIENCE,
		);
		await sleep(1000);
		const executions = await n8n.allExecutions(workflow.id);
		const succeeded = executions.filter((e) => e.status === 'success');
		assert(
			succeeded.length === 1,
			`${succeeded.length} successful executions for one event (${executions.map((e) => e.status).join(', ')}), expected 1`,
		);
		const output = await outputOf(n8n, succeeded[0].id);
		assert(
			output?.id === event.id && output?.data?.contact?.id === event.data.contact.id,
			`the execution holds ${JSON.stringify(output).slice(0, 300)}`,
		);
		await n8n.deactivate(workflow);
		return {
			first: first.status ?? first.error,
			retry: retry.status,
			executions: executions.length,
		};
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
		const { event } = await sandbox.control.call('POST', '/__sandbox/events', {
			type: 'contact.created',
		});
		await until(
			async () => (await deliveriesOf(sandbox, event.id)).length >= 1,
			'the first attempt to end',
			PATIENCE,
		);
		const [first] = await deliveriesOf(sandbox, event.id);
		return { event, first };
	} finally {
		fault.off();
	}
}

/** The answered attempts of one event (the sandbox logs an attempt once it is answered or has failed). */
const deliveriesOf = async (sandbox, eventId) =>
	(await sandbox.control.call('GET', '/__sandbox/deliveries')).deliveries.filter(
		(d) => d.event_id === eventId,
	);

/** What the execution's Stora Trigger output: the event it started with. */
async function outputOf(n8n, executionId) {
	const execution = await n8n.execution(executionId);
	return execution.data?.resultData?.runData?.['Stora Trigger']?.[0]?.data?.main?.[0]?.[0]?.json;
}
