// The n8n workflows the suites build in code (queue mode, bench, the trigger's life, e2e's contract checks): nodes with fresh ids, Stora
// nodes wired to their credential, and a chain of nodes into a workflow. One builder, so every suite's workflows are
// shaped the way n8n's editor saves them.
import { randomUUID } from 'node:crypto';

export const STORA = 'n8n-nodes-stora.stora';
export const STORA_TRIGGER = 'n8n-nodes-stora.storaTrigger';
export const STORA_POLL_TRIGGER = 'n8n-nodes-stora.storaPollTrigger';

/** A node with a fresh id; `extra` adds or replaces fields (credentials, webhookId, type...). chain() places it. */
export const node = (name, type, typeVersion, parameters, extra = {}) => ({
	id: randomUUID(),
	name,
	type,
	typeVersion,
	position: [0, 0],
	parameters,
	...extra,
});

/**
 * A Stora node (version 1) using `credential` as n8n returned it: an access token (`storaApi`, also when the type is
 * not given) or OAuth2 (`storaOAuth2Api`), the node's Authentication set to match.
 */
export function storaNode(name, parameters, credential, extra = {}) {
	const type = credential.type ?? 'storaApi';
	const authentication = type === 'storaApi' ? 'accessToken' : 'oAuth2';
	return node(
		name,
		STORA,
		1,
		{ authentication, ...parameters },
		{ credentials: { [type]: { id: credential.id, name: credential.name } }, ...extra },
	);
}

/** A Stora Trigger (version 1 unless `extra.typeVersion` says otherwise) with a webhook id of its own. */
export const storaTriggerNode = (name, parameters, credential, extra = {}) =>
	storaNode(name, parameters, credential, {
		type: STORA_TRIGGER,
		webhookId: randomUUID(),
		...extra,
	});

/** n8n's Webhook node: POST at `path`; `parameters` say how it answers (responseMode, responseData). */
export const webhookNode = (path, parameters = {}) =>
	node(
		'Webhook',
		'n8n-nodes-base.webhook',
		2,
		{ httpMethod: 'POST', path, ...parameters, options: {} },
		{ webhookId: randomUUID() },
	);

/** n8n's Manual Trigger, which `N8n.runManually(id, 'Start')` starts from. */
export const manualTriggerNode = (name = 'Start') =>
	node(name, 'n8n-nodes-base.manualTrigger', 1, {});

/** n8n's Code node (JavaScript, run once for all items). */
export const codeNode = (name, jsCode) => node(name, 'n8n-nodes-base.code', 2, { jsCode });

/**
 * n8n's HTTP Request node calling `url` with a credential of the predefined type `type` (as the Custom API Call route);
 * `options` are its Options (proxy, allowUnauthorizedCerts, timeout, ...).
 */
export const httpRequestNode = (name, type, credential, url, options = {}) =>
	node(
		name,
		'n8n-nodes-base.httpRequest',
		4.2,
		{ authentication: 'predefinedCredentialType', nodeCredentialType: type, url, options },
		{
			credentials: { [type]: { id: credential.id, name: credential.name } },
		},
	);

/** A No Operation node, the end of a workflow that only has to run. */
export const noOpNode = (name = 'Done') => node(name, 'n8n-nodes-base.noOp', 1, {});

/** A workflow whose nodes run one after the other, laid out left to right. */
export function chain(name, nodes) {
	const connections = {};
	nodes.forEach((n, i) => {
		n.position = [240 * i, 0];
		if (i + 1 < nodes.length)
			connections[n.name] = { main: [[{ node: nodes[i + 1].name, type: 'main', index: 0 }]] };
	});
	return { name, nodes, connections, settings: { executionOrder: 'v1' } };
}
