// A workflow case (test/e2e/workflows/*.json) turned into the full n8n workflow it describes. Workflows built node
// by node in a check use the builders of test/realN8n/workflow.mjs.
import { randomUUID } from 'node:crypto';

import { STORA, STORA_TRIGGER } from '../realN8n/workflow.mjs';

/** The start of the type of every node this package adds. */
export const PACKAGE_PREFIX = 'n8n-nodes-stora';

/** Connects every node's main output to the next node's input (positions are the case's). */
function connectInOrder(nodes, connections) {
	for (let i = 0; i + 1 < nodes.length; i++)
		connections[nodes[i].name] = { main: [[{ node: nodes[i + 1].name, type: 'main', index: 0 }]] };
}

/**
 * Turns a case's `workflow` into a full n8n workflow: adds the Webhook trigger (POST, answers with every item of the
 * last node) unless one is there, fills in ids, positions, types and connections, and sets each Stora node's
 * authentication and credential.
 */
export function buildWorkflow(testCase, credentials, webhookPath) {
	const source = structuredClone(testCase.workflow);
	const nodes = source.nodes.map((node, i) => ({
		id: randomUUID(),
		typeVersion: 1,
		position: [240 * (i + 1), 0],
		...node,
		type: node.type ?? STORA,
		parameters: node.parameters ?? {},
	}));
	let webhook = nodes.find((n) => n.type === 'n8n-nodes-base.webhook');
	const trigger = nodes.find((n) => n.type === STORA_TRIGGER);
	const connections = source.connections ?? {};
	if (trigger) {
		// A Stora Trigger case: the trigger starts the workflow, n8n gives its webhook a path from webhookId.
		trigger.webhookId = randomUUID();
		if (!source.connections) connectInOrder(nodes, connections);
	} else if (!webhook) {
		webhook = {
			id: randomUUID(),
			name: 'Webhook',
			type: 'n8n-nodes-base.webhook',
			typeVersion: 2,
			position: [0, 0],
			parameters: {
				httpMethod: 'POST',
				path: '',
				responseMode: 'lastNode',
				responseData: 'allEntries',
				options: {},
			},
		};
		// A simple chain unless the case says otherwise.
		if (!source.connections) connectInOrder(nodes, connections);
		connections[webhook.name] = { main: [[{ node: nodes[0].name, type: 'main', index: 0 }]] };
		nodes.unshift(webhook);
	}
	if (webhook) {
		webhook.parameters.path = webhookPath;
		webhook.webhookId = randomUUID();
	}
	for (const node of nodes.filter((n) => n.type.startsWith(`${PACKAGE_PREFIX}.`))) {
		const credentialKey = node.credential ?? testCase.credential ?? 'accessToken';
		delete node.credential;
		const credential = credentials[credentialKey];
		if (!credential)
			throw new Error(
				`unknown credential "${credentialKey}" (known: ${Object.keys(credentials).join(', ')})`,
			);
		node.parameters.authentication = credential.type === 'storaApi' ? 'accessToken' : 'oAuth2';
		node.credentials = { [credential.type]: { id: credential.id, name: credential.name } };
	}
	return {
		name: `e2e: ${testCase.name}`.slice(0, 128),
		nodes,
		connections,
		settings: { executionOrder: 'v1' },
	};
}
