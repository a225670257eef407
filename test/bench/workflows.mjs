// The workflows the benchmark publishes in n8n, each case both ways: with the Stora node, and with n8n's own HTTP
// Request node set up as a user would (Bearer Auth credential, built-in pagination or batching). Every workflow starts
// with a Webhook that answers with the first item of the last node once the run is over, so the bench knows when it
// ended without 10,000 items travelling back; the timings come from n8n's own run data.
import {
	chain,
	node,
	noOpNode,
	storaNode,
	storaTriggerNode,
	webhookNode,
} from '../realN8n/workflow.mjs';

const HTTP_REQUEST_VERSION = 4.5; // what n8n 2.41 puts in a new workflow

/**
 * How the HTTP Request node is kept from failing on 429: it has no retry of its own for one page or one item, and
 * Retry On Fail would start the whole node again. A careful user derives a spacing from the documented limits and
 * tries smaller ones; the bench does the same, from the smallest candidate up, and keeps the first that does not fail
 * (its README says which failed and why):
 * - Return All under 60 requests per minute: Pagination → Interval Between Requests. The interval runs from one
 *   answer to the next request, so with the 50 ms latency 950 ms already spaces pages 1 s apart; 900 ms cannot hold
 *   (61 pages within 60 s), so it is not tried.
 * - Updates under 10 requests per second: Batching → 10 items per batch, Batch Interval 1000, 1050 or 1100 ms. The
 *   node sends a batch without waiting for its answers and then sleeps, so batches start the interval plus a few ms
 *   apart; a batch that straddles a second boundary may meet the next batch in one second of the API's windows.
 */
export const HTTP_SETTINGS = {
	returnAllIntervalsMs: [950, 1000],
	updateBatchSize: 10,
	updateBatchIntervalsMs: [1000, 1050, 1100],
};

/** The Webhook every measured workflow starts with: answers with the first item of the last node once the run is over. */
const webhook = (path) =>
	webhookNode(path, { responseMode: 'lastNode', responseData: 'firstEntryJson' });

const bearerCredential = (credential) => ({
	httpBearerAuth: { id: credential.id, name: credential.name },
});

/** Splits an array field of each item into one item per element. */
const splitOutNode = (name, field) =>
	node(name, 'n8n-nodes-base.splitOut', 1, {
		fieldToSplitOut: field,
		include: 'noOtherFields',
		options: {},
	});

// ------------------------------------------------------------------------------------------------ Return All

/** Webhook → Stora (Order → Get Many, Return All); `parameters` changes the node's (another resource, CSV). */
export function storaReturnAll(path, credential, parameters = {}) {
	return chain(`bench ${path}`, [
		webhook(path),
		storaNode(
			'Stora',
			{ resource: 'order', operation: 'getAll', returnAll: true, ...parameters },
			credential,
		),
	]);
}

/**
 * Webhook → HTTP Request (GET /<list>?limit=100, pagination: page = meta.pagination.next until it is null, an
 * interval between pages when the API is rate limited) → Split Out (one item per record, as the Stora node returns).
 * `list`: the list's path and records member (orders by default); `splitOut: false` leaves one item per page (a list
 * too long for n8n to hand on as one item per record); `maxPages` stops after that many pages (a warm-up).
 */
export function httpReturnAll(
	path,
	credential,
	baseUrl,
	{ intervalMs = 0, list = 'orders', splitOut = true, maxPages } = {},
) {
	const request = node(
		'HTTP Request',
		'n8n-nodes-base.httpRequest',
		HTTP_REQUEST_VERSION,
		{
			method: 'GET',
			url: `${baseUrl}/2025-09/${list}`,
			authentication: 'genericCredentialType',
			genericAuthType: 'httpBearerAuth',
			sendQuery: true,
			specifyQuery: 'keypair',
			queryParameters: { parameters: [{ name: 'limit', value: '100' }] },
			options: {
				pagination: {
					pagination: {
						paginationMode: 'updateAParameterInEachRequest',
						parameters: {
							parameters: [
								{ type: 'qs', name: 'page', value: '={{ $response.body.meta.pagination.next }}' },
							],
						},
						paginationCompleteWhen: 'other',
						completeExpression: '={{ $response.body.meta.pagination.next === null }}',
						limitPagesFetched: maxPages !== undefined,
						...(maxPages !== undefined ? { maxRequests: maxPages } : {}),
						requestInterval: intervalMs,
					},
				},
			},
		},
		{ credentials: bearerCredential(credential) },
	);
	return chain(`bench ${path}`, [
		webhook(path),
		request,
		...(splitOut ? [splitOutNode('Split Out', list)] : []),
	]);
}

// ------------------------------------------------------------------------------------------------ updates

/** Webhook (body: {contacts: [{id}, ...]}) → Split Out → Stora (Contact → Update, use case "travelling"). */
export function storaUpdates(path, credential) {
	return chain(`bench ${path}`, [
		webhook(path),
		splitOutNode('Contacts', 'body.contacts'),
		storaNode(
			'Stora',
			{
				resource: 'contact',
				operation: 'update',
				contactId: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
				updateFields: { useCase: 'travelling' },
			},
			credential,
		),
	]);
}

/** Webhook → Split Out → HTTP Request sending `method` to `url` with a JSON body of `fields` (name, value) per item. */
function httpJsonPerItem(path, credential, { method, url, fields, options }) {
	return chain(`bench ${path}`, [
		webhook(path),
		splitOutNode('Contacts', 'body.contacts'),
		node(
			'HTTP Request',
			'n8n-nodes-base.httpRequest',
			HTTP_REQUEST_VERSION,
			{
				method,
				url,
				authentication: 'genericCredentialType',
				genericAuthType: 'httpBearerAuth',
				sendBody: true,
				contentType: 'json',
				specifyBody: 'keypair',
				bodyParameters: { parameters: fields },
				...(options ? { options } : {}),
			},
			{ credentials: bearerCredential(credential) },
		),
	]);
}

/** Webhook → Split Out → HTTP Request (PATCH /contacts/{id}, JSON body, batching). */
export function httpUpdates(
	path,
	credential,
	baseUrl,
	{ batchSize = HTTP_SETTINGS.updateBatchSize, batchIntervalMs },
) {
	return httpJsonPerItem(path, credential, {
		method: 'PATCH',
		url: `=${baseUrl}/2025-09/contacts/{{ $json.id }}`,
		fields: [{ name: 'use_case', value: 'travelling' }],
		options: { batching: { batch: { batchSize, batchInterval: batchIntervalMs } } },
	});
}

/** Webhook → Split Out → Stora (Contact → Create, E-mail and Full Name from the item). */
export function storaCreates(path, credential) {
	return chain(`bench ${path}`, [
		webhook(path),
		splitOutNode('Contacts', 'body.contacts'),
		storaNode(
			'Stora',
			{
				resource: 'contact',
				operation: 'create',
				email: '={{ $json.email }}',
				additionalFields: { fullName: '={{ $json.full_name }}' },
			},
			credential,
		),
	]);
}

/** The bench's reference declarative node (test/bench/reference/), as n8n names a community package's node. */
export const REFERENCE_NODE = 'n8n-nodes-bench-reference.reference';

/** Webhook → Split Out → the reference declarative node (Contact → Create, the same two fields from the item). */
export function referenceCreates(path, credential, baseUrl) {
	return chain(`bench ${path}`, [
		webhook(path),
		splitOutNode('Contacts', 'body.contacts'),
		node(
			'Reference',
			REFERENCE_NODE,
			1,
			{
				baseUrl,
				resource: 'contact',
				operation: 'create',
				email: '={{ $json.email }}',
				additionalFields: { fullName: '={{ $json.full_name }}' },
			},
			{ credentials: bearerCredential(credential) },
		),
	]);
}

/** Webhook → Split Out → HTTP Request (POST /contacts, JSON body from the item, no batching: no rate limit here). */
export function httpCreates(path, credential, baseUrl) {
	return httpJsonPerItem(path, credential, {
		method: 'POST',
		url: `${baseUrl}/2025-09/contacts`,
		fields: [
			{ name: 'email', value: '={{ $json.email }}' },
			{ name: 'full_name', value: '={{ $json.full_name }}' },
		],
	});
}

// ------------------------------------------------------------------------------------------------ triggers

/** Stora Trigger (contact.created) → No Operation. */
export function storaTrigger(credential) {
	return chain('bench trigger: Stora Trigger', [
		storaTriggerNode('Stora Trigger', { events: ['contact.created'] }, credential, {
			typeVersion: 1.1,
		}),
		noOpNode(),
	]);
}

/** n8n's Webhook node (POST, answers at once, as Stora Trigger does) → No Operation. */
export function plainWebhook(path) {
	return chain('bench trigger: Webhook', [
		webhookNode(path, { responseMode: 'onReceived' }),
		noOpNode(),
	]);
}
