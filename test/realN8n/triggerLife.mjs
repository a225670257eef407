// The Stora Trigger's webhook endpoints through every way n8n starts and ends a trigger's life, driven by the REST
// routes n8n's editor uses (the routes: triggerRoutes.mjs). After each step, Stora (the sandbox) must hold
// exactly the endpoints that should exist. At-least-once delivery when n8n cannot store an execution is in
// atLeastOnce.mjs and faults.mjs, exported from here too so the suites import the trigger's checks from one place.
import { assert } from './harness.mjs';
import { startN8n } from './start.mjs';
import {
	endpointsOf,
	expectEndpoints,
	listen,
	publish,
	saveEvents,
	stopListening,
	triggerWorkflow,
} from './triggerRoutes.mjs';
import { sleep } from './wait.mjs';

export { atLeastOnce, noEventLostWhileStalled, stoppedMidDelivery } from './atLeastOnce.mjs';
export { postgresRefusal, sqliteLock, sqliteRefusal } from './faults.mjs';
export { triggerWorkflow } from './triggerRoutes.mjs';

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
		const credential = await n8n.createCredential('Stora sandbox (timeout)', 'storaApi', {
			baseUrl: sandbox.url,
			accessToken: sandbox.token,
		});
		// An event no other check sends meanwhile: a delivery would end the listen before the timeout could.
		const workflow = await triggerWorkflow(
			n8n,
			credential,
			['unit.updated'],
			'Stora Trigger timeout',
		);
		await listen(n8n, workflow);
		await expectEndpoints(
			sandbox,
			workflow,
			{ test: 1, production: 0 },
			'Execute step (left to time out)',
		);
		const started = Date.now();
		return async () => {
			try {
				const left = 120_000 + 5_000 - (Date.now() - started);
				if (left > 0) await sleep(left);
				await expectEndpoints(
					sandbox,
					workflow,
					{ test: 0, production: 0 },
					"n8n's 2-minute test timeout",
				);
				// Ended by the timeout, not by a delivery (which would have left an execution).
				const executions = await n8n.executions(workflow.id);
				assert(
					executions.length === 0,
					`the listen was ended by ${executions.length} execution(s), not by n8n's timeout`,
				);
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
	await step('Execute step again, over the running listen', () => listen(n8n, workflow), {
		test: 1,
		production: 0,
	});
	assert(
		(await endpointsOf(sandbox, workflow)).test[0].id !== firstTest,
		'the new listen kept the old endpoint instead of its own',
	);
	await step('Stop Listening', () => stopListening(n8n, workflow), { test: 0, production: 0 });

	await step(
		'Execute step, then an event arrives',
		async () => {
			await listen(n8n, workflow);
			await expectEndpoints(sandbox, workflow, { test: 1, production: 0 }, 'Execute step');
			await sandbox.control.call('POST', '/__sandbox/events', { type: 'contact.created' });
		},
		{ test: 0, production: 0 },
	);
	const manual = await n8n.executions(workflow.id);
	assert(
		manual.length === 1 && manual[0].mode === 'manual',
		`the test event started ${manual.length} executions (${manual.map((e) => e.mode)})`,
	);

	// A crash between n8n's registration and its save leaves an endpoint at the URL that n8n no longer knows of.
	await listen(n8n, workflow);
	const testUrl = (
		await expectEndpoints(sandbox, workflow, { test: 1, production: 0 }, 'Execute step')
	).test[0].url;
	await stopListening(n8n, workflow);
	await expectEndpoints(sandbox, workflow, { test: 0, production: 0 }, 'Stop Listening');
	await apiCreateEndpoint(sandbox, testUrl);
	await expectEndpoints(
		sandbox,
		workflow,
		{ test: 1, production: 0 },
		'an endpoint left at the test URL by a crash',
	);
	await step(
		'Execute step with an endpoint left at its URL by a crash',
		() => listen(n8n, workflow),
		{ test: 1, production: 0 },
	);
	await step('Stop Listening', () => stopListening(n8n, workflow), { test: 0, production: 0 });

	await step('Publish', () => publish(n8n, workflow), { test: 0, production: 1 });
	await step('Execute step while published', () => listen(n8n, workflow), {
		test: 1,
		production: 1,
	});
	await step('Stop Listening while published', () => stopListening(n8n, workflow), {
		test: 0,
		production: 1,
	});
	await step(
		'Save an edit (other events) while published',
		() => saveEvents(n8n, workflow, ['contact.created', 'deal.lost']),
		{ test: 0, production: 1 },
	);
	await step('Publish the edit', () => publish(n8n, workflow), { test: 0, production: 1 });
	const [published] = (await endpointsOf(sandbox, workflow)).production;
	assert(
		JSON.stringify([...published.event_types].sort()) ===
			JSON.stringify(['contact.created', 'deal.lost']),
		`the published endpoint listens to ${published.event_types}`,
	);
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
		body: JSON.stringify({
			name: 'left by a crash',
			api_version: '2025-09',
			url,
			event_types: ['contact.created'],
		}),
	});
	assert(
		response.status === 201 || response.status === 200,
		`could not leave an endpoint at ${url}: HTTP ${response.status}`,
	);
}
