// The example workflows in examples/*.json: loading them and importing them into an n8n with the credentials of the
// run (each Stora node gets the credential of its type). Used by the end-to-end tests and by `npm start`.
import fs from 'node:fs';
import path from 'node:path';

import { REPO } from '../../scripts/toolchain.mjs';

export const EXAMPLES_DIR = path.join(REPO, 'examples');

export function loadExamples() {
	if (!fs.existsSync(EXAMPLES_DIR)) return [];
	return fs
		.readdirSync(EXAMPLES_DIR)
		.filter((f) => f.endsWith('.json'))
		.sort()
		.map((file) => ({
			file,
			workflow: JSON.parse(fs.readFileSync(path.join(EXAMPLES_DIR, file), 'utf8')),
		}));
}

/**
 * A copy of an example ready for `POST /rest/workflows`: credentials of nodes replaced by the given ones
 * (`{ storaApi: {id, name}, storaOAuth2Api: {id, name} }`), keyed by credential type.
 */
export function withCredentials(workflow, credentialsByType) {
	const copy = structuredClone(workflow);
	for (const node of copy.nodes) {
		if (!node.credentials) continue;
		for (const type of Object.keys(node.credentials)) {
			const credential = credentialsByType[type];
			if (credential) node.credentials[type] = { id: credential.id, name: credential.name };
		}
	}
	delete copy.id;
	delete copy.active;
	return copy;
}

/** Trigger node of a workflow: { node, kind: 'manual' | 'webhook' | 'other' }. */
export function triggerOf(workflow) {
	const manual = workflow.nodes.find((n) => n.type === 'n8n-nodes-base.manualTrigger');
	if (manual) return { node: manual, kind: 'manual' };
	const webhook = workflow.nodes.find((n) => n.type === 'n8n-nodes-base.webhook');
	if (webhook) return { node: webhook, kind: 'webhook' };
	return { node: workflow.nodes[0], kind: 'other' };
}
