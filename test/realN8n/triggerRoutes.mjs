// The Stora Trigger driven through the REST routes n8n's editor uses: a saved trigger workflow, Execute
// step, Stop Listening, publish, save; and the endpoints Stora (the sandbox) holds for it, by kind of n8n URL.
import { randomUUID } from 'node:crypto';

import { assert } from './harness.mjs';
import { until } from './wait.mjs';
import { chain, noOpNode, STORA_TRIGGER, storaTriggerNode } from './workflow.mjs';

/** A saved workflow: a Stora Trigger (version 1.1) on `events`, into a No Operation node. */
export async function triggerWorkflow(
	n8n,
	credential,
	events = ['contact.created'],
	name = 'Stora Trigger life',
) {
	const webhookId = randomUUID();
	const trigger = storaTriggerNode('Stora Trigger', { events }, credential, {
		typeVersion: 1.1,
		webhookId,
	});
	const workflow = await n8n.createWorkflow(
		chain(`${name} ${webhookId.slice(0, 8)}`, [trigger, noOpNode()]),
	);
	return { ...workflow, webhookId };
}

/** The endpoints Stora holds for this workflow's trigger, by kind of n8n URL. */
export async function endpointsOf(sandbox, workflow) {
	const mine = (await sandbox.control.state('webhook_endpoints')).filter((endpoint) =>
		String(endpoint.url).includes(`/${workflow.webhookId}/`),
	);
	return {
		test: mine.filter((endpoint) => /\/webhook-test\//.test(endpoint.url)),
		production: mine.filter((endpoint) => /\/webhook\//.test(endpoint.url)),
	};
}

/**
 * Waits (n8n ends some listens in the background, and the trigger's requests may wait for the account's documented
 * 60/min budget that earlier checks used) until Stora holds `expected` endpoints; fails naming the step.
 */
export async function expectEndpoints(sandbox, workflow, expected, step, timeoutMs = 90_000) {
	let held;
	return await until(
		async () => {
			held = await endpointsOf(sandbox, workflow);
			return (
				held.test.length === expected.test && held.production.length === expected.production && held
			);
		},
		() =>
			`after "${step}": Stora holds ${held.test.length} test and ${held.production.length} production endpoints, expected ${expected.test} and ${expected.production}`,
		{ timeoutMs, every: 200 },
	);
}

/** "Execute step" on the trigger: n8n starts listening for a test event (POST /rest/workflows/:id/run). */
export async function listen(n8n, workflow) {
	const workflowData = await n8n.request('GET', `/rest/workflows/${workflow.id}`);
	const answer = await n8n.request('POST', `/rest/workflows/${workflow.id}/run`, {
		workflowData,
		triggerToStartFrom: { name: 'Stora Trigger' },
		destinationNode: { nodeName: 'Stora Trigger', mode: 'inclusive' },
	});
	assert(
		answer?.waitingForWebhook === true,
		`"Execute step" did not start listening: ${JSON.stringify(answer).slice(0, 300)}`,
	);
}

/** "Stop Listening" (DELETE /rest/test-webhook/:workflowId, n8n 1.123 to 2.41). */
export const stopListening = (n8n, workflow) =>
	n8n.request('DELETE', `/rest/test-webhook/${workflow.id}`);

/** Publishes the workflow as saved now (its current versionId). */
export async function publish(n8n, workflow) {
	const saved = await n8n.request('GET', `/rest/workflows/${workflow.id}`);
	await n8n.activate(saved);
}

/** Saves the trigger with other events, as the editor's Save does (PATCH with the current versionId). */
export async function saveEvents(n8n, workflow, events) {
	const saved = await n8n.request('GET', `/rest/workflows/${workflow.id}`);
	const nodes = saved.nodes.map((node) =>
		node.type === STORA_TRIGGER ? { ...node, parameters: { ...node.parameters, events } } : node,
	);
	await n8n.request('PATCH', `/rest/workflows/${workflow.id}`, {
		name: saved.name,
		nodes,
		connections: saved.connections,
		versionId: saved.versionId,
	});
}
