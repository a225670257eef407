// The workflows the benchmark publishes in n8n, each case both ways: with the Stora node, and with n8n's own HTTP
// Request node set up as a user would (Bearer Auth credential, built-in pagination or batching). Every workflow starts
// with a Webhook that answers with the first item of the last node once the run is over, so the bench knows when it
// ended without 10,000 items travelling back; the timings come from n8n's own run data.
import { randomUUID } from 'node:crypto';

export const STORA = 'n8n-nodes-stora.stora';
export const STORA_TRIGGER = 'n8n-nodes-stora.storaTrigger';
const HTTP_REQUEST_VERSION = 4.5; // what n8n 2.41 puts in a new workflow

/**
 * How the HTTP Request node is kept from failing on 429 (it has no retry of its own for one page or one item, and
 * Retry On Fail would start the whole node again). These are the settings a user derives from the documented limits:
 * - Return All under 60 requests per minute: Pagination → Interval Between Requests 1000 ms (one page a second).
 * - Updates under 10 requests per second: Batching → 10 items per batch, 1100 ms between batches. The node sends a
 *   batch without waiting for its answers and then sleeps, so batches start about 1000 ms + a few ms apart; with
 *   exactly 1000 ms a batch that straddles a second boundary meets the next batch in the same second of the API's
 *   fixed windows (429). The 10 % margin is the smallest round figure that cannot do that.
 */
export const HTTP_SETTINGS = {
	returnAllIntervalMs: 1000,
	updateBatchSize: 10,
	updateBatchIntervalMs: 1100,
};

const node = (name, type, typeVersion, parameters, extra = {}) => ({ id: randomUUID(), name, type, typeVersion, position: [0, 0], parameters, ...extra });

function chain(name, nodes) {
	const connections = {};
	nodes.forEach((n, i) => {
		n.position = [240 * i, 0];
		if (i + 1 < nodes.length) connections[n.name] = { main: [[{ node: nodes[i + 1].name, type: 'main', index: 0 }]] };
	});
	return { name, nodes, connections, settings: { executionOrder: 'v1' } };
}

const webhook = (path) =>
	node('Webhook', 'n8n-nodes-base.webhook', 2, { httpMethod: 'POST', path, responseMode: 'lastNode', responseData: 'firstEntryJson', options: {} }, { webhookId: randomUUID() });

const storaCredential = (credential) => ({ storaApi: { id: credential.id, name: credential.name } });
const bearerCredential = (credential) => ({ httpBearerAuth: { id: credential.id, name: credential.name } });

/** Splits an array field of each item into one item per element. */
const splitOut = (name, field) => node(name, 'n8n-nodes-base.splitOut', 1, { fieldToSplitOut: field, include: 'noOtherFields', options: {} });

// ------------------------------------------------------------------------------------------------ Return All

/** Webhook → Stora (Order → Get Many, Return All). */
export function storaReturnAll(path, credential) {
	return chain(`bench ${path}`, [
		webhook(path),
		node('Stora', STORA, 1, { authentication: 'accessToken', resource: 'order', operation: 'getAll', returnAll: true }, { credentials: storaCredential(credential) }),
	]);
}

/**
 * Webhook → HTTP Request (GET /orders?limit=100, pagination: page = meta.pagination.next until it is null, an
 * interval between pages when the API is rate limited) → Split Out (one item per order, as the Stora node returns).
 */
export function httpReturnAll(path, credential, baseUrl, { intervalMs = 0 } = {}) {
	return chain(`bench ${path}`, [
		webhook(path),
		node(
			'HTTP Request',
			'n8n-nodes-base.httpRequest',
			HTTP_REQUEST_VERSION,
			{
				method: 'GET',
				url: `${baseUrl}/2025-09/orders`,
				authentication: 'genericCredentialType',
				genericAuthType: 'httpBearerAuth',
				sendQuery: true,
				specifyQuery: 'keypair',
				queryParameters: { parameters: [{ name: 'limit', value: '100' }] },
				options: {
					pagination: {
						pagination: {
							paginationMode: 'updateAParameterInEachRequest',
							parameters: { parameters: [{ type: 'qs', name: 'page', value: '={{ $response.body.meta.pagination.next }}' }] },
							paginationCompleteWhen: 'other',
							completeExpression: '={{ $response.body.meta.pagination.next === null }}',
							limitPagesFetched: false,
							requestInterval: intervalMs,
						},
					},
				},
			},
			{ credentials: bearerCredential(credential) },
		),
		splitOut('Split Out', 'orders'),
	]);
}

// ------------------------------------------------------------------------------------------------ updates

/** Webhook (body: {contacts: [{id}, ...]}) → Split Out → Stora (Contact → Update, use case "travelling"). */
export function storaUpdates(path, credential) {
	return chain(`bench ${path}`, [
		webhook(path),
		splitOut('Contacts', 'body.contacts'),
		node(
			'Stora',
			STORA,
			1,
			{
				authentication: 'accessToken',
				resource: 'contact',
				operation: 'update',
				contactId: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
				updateFields: { useCase: 'travelling' },
			},
			{ credentials: storaCredential(credential) },
		),
	]);
}

/** Webhook → Split Out → HTTP Request (PATCH /contacts/{id}, JSON body, batching). */
export function httpUpdates(path, credential, baseUrl, { batchSize = HTTP_SETTINGS.updateBatchSize, batchIntervalMs = HTTP_SETTINGS.updateBatchIntervalMs } = {}) {
	return chain(`bench ${path}`, [
		webhook(path),
		splitOut('Contacts', 'body.contacts'),
		node(
			'HTTP Request',
			'n8n-nodes-base.httpRequest',
			HTTP_REQUEST_VERSION,
			{
				method: 'PATCH',
				url: `=${baseUrl}/2025-09/contacts/{{ $json.id }}`,
				authentication: 'genericCredentialType',
				genericAuthType: 'httpBearerAuth',
				sendBody: true,
				contentType: 'json',
				specifyBody: 'keypair',
				bodyParameters: { parameters: [{ name: 'use_case', value: 'travelling' }] },
				options: { batching: { batch: { batchSize, batchInterval: batchIntervalMs } } },
			},
			{ credentials: bearerCredential(credential) },
		),
	]);
}

// ------------------------------------------------------------------------------------------------ triggers

/** Stora Trigger (contact.created) → No Operation. */
export function storaTrigger(credential) {
	return chain('bench trigger: Stora Trigger', [
		node('Stora Trigger', STORA_TRIGGER, 1.1, { authentication: 'accessToken', events: ['contact.created'] }, { webhookId: randomUUID(), credentials: storaCredential(credential) }),
		node('Done', 'n8n-nodes-base.noOp', 1, {}),
	]);
}

/** n8n's Webhook node (POST, answers at once, as Stora Trigger does) → No Operation. */
export function plainWebhook(path) {
	return chain('bench trigger: Webhook', [
		node('Webhook', 'n8n-nodes-base.webhook', 2, { httpMethod: 'POST', path, responseMode: 'onReceived', options: {} }, { webhookId: randomUUID() }),
		node('Done', 'n8n-nodes-base.noOp', 1, {}),
	]);
}
