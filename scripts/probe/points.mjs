/**
 * Where in our code each reading lives (docs/quality.md, "Unconfirmed behaviour", column Where), and the points the
 * probe cannot settle, with the reason, so the JSON answers every point of that table.
 */
import { kindOf } from './values.mjs';

export const WHERE = {
	oauthEncoding: 'credentials/StoraOAuth2Api.credentials.ts',
	scopes: 'nodes/Stora/helpers/scopes.ts (DEFAULT_SCOPES, OPTIONAL_SCOPES, SCOPE_BY_OPERATION)',
	events: 'nodes/Stora/helpers/events.ts',
	signature: 'nodes/StoraTrigger/signature.ts (verifySignature)',
	fieldNames:
		'— (the node passes fields through; nodes/Stora/__schema__/v1.0.0/<resource>/getAll.json is what the editor previews)',
	filters: 'nodes/Stora/transport/listFilters.ts (checkFiltersApplied, filterCheckOf)',
	refusal: 'nodes/Stora/transport/listFilters.ts (refusesOnly)',
	sort: 'nodes/Stora/transport/walk.ts (listPages, inTimeOrder), nodes/Stora/transport/execute.ts (fetchAll)',
	cursor:
		'nodes/Stora/transport/walk.ts (listPages), nodes/Stora/transport/execute.ts, nodes/Stora/helpers/resources.ts (listWithoutTimeFilters), nodes/StoraPollTrigger/poll.ts',
	paging:
		'nodes/Stora/transport/walk.ts (listPages), nodes/Stora/descriptions/common/getMany.ts (returnAllAndLimit)',
	expand: 'nodes/Stora/descriptions/common/getMany.ts (expandOption)',
	rateLimit:
		'nodes/Stora/transport/rateLimit/ (headers.ts, policy.ts), credentials/rateLimitFields.ts',
	errors: 'nodes/Stora/transport/errors.ts (toNodeApiError)',
	idempotency: 'nodes/Stora/descriptions/common/idempotencyKey.ts (MAX_IDEMPOTENCY_KEY_LENGTH)',
	replay:
		'nodes/Stora/transport/request.ts (a POST with its Idempotency-Key is retried), nodes/Stora/descriptions/common/idempotencyKey.ts',
	metadataKey: 'nodes/Stora/descriptions/common/filters.ts (MAX_METADATA_FILTER_KEY_LENGTH)',
	timeout: 'nodes/Stora/transport/request.ts',
	actionMeta: 'nodes/Stora/helpers/output.ts',
	orderContact:
		'nodes/Stora/descriptions/order/create.operation.ts, nodes/Stora/helpers/validation.ts',
	webhookEndpoints:
		'nodes/StoraTrigger/StoraTrigger.node.ts, nodes/Stora/descriptions/webhookEndpoint/',
	none: '— (not read by the node)',
};

/** The code holding the reading of `parameter` on `list`. */
export function whereOfParameter(list, parameter) {
	const kind = kindOf(list.resource, parameter);
	if (kind === 'limit' || kind === 'page') return WHERE.paging;
	if (kind === 'expand') return WHERE.expand;
	if (kind === 'sort_by' || kind === 'sort_direction')
		return `${WHERE.sort}; ${WHERE.cursor}; ${WHERE.refusal}`;
	const cursor =
		list.cursor !== false &&
		['created_after', 'created_before', 'updated_after'].includes(parameter);
	return [WHERE.filters, ...(cursor ? [WHERE.cursor] : []), WHERE.refusal].join('; ');
}

/** Scopes the docs' table does not show (its tail is cut off) or that only the spec names (helpers/scopes.ts). */
export const UNSHOWN_SCOPES = [
	'public.timeline_event:write',
	'public.timeline_source:read',
	'public.timeline_template:read',
	'public.unit:read',
	'public.unit:write',
	'public.unit_allocation:read',
	'public.unit_type:read',
	'public.unit_type:write',
	'public.webhook_endpoint:read',
	'public.webhook_endpoint:write',
	'public.opportunity:write',
	'public.price_adjustment:write',
	'public.price_adjustment:skip_notifications',
];

/** The token's scopes settle that a scope exists; a scope it lacks stays open. */
export function scopePoints(scopes) {
	return UNSHOWN_SCOPES.map((scope) => ({
		id: `scope ${scope}`,
		verdict: scopes === undefined ? 'unknown' : scopes.includes(scope) ? 'exists' : 'unknown',
		evidence:
			scopes === undefined
				? 'token info did not list the scopes'
				: scopes.includes(scope)
					? 'the token holds it, so the API has a scope of that name'
					: 'the token does not hold it: whether it exists stays open (a token holding every scope settles it)',
		where: WHERE.scopes,
	}));
}

/** Points of docs/quality.md the probe does not ask the API about, and why. */
export const UNREACHABLE = [
	{
		id: 'oauth2 token request encoding',
		where: WHERE.oauthEncoding,
		reason: 'needs an OAuth client ID and secret; the probe holds an access token only',
	},
	{
		id: 'oauth2 consent page host',
		where: WHERE.oauthEncoding,
		reason: 'a browser page, not an API answer',
	},
	{
		id: 'webhook retry signing and window',
		where: WHERE.signature,
		reason: 'needs a failed delivery and its retry a minute or more later; not attempted',
	},
	{
		id: 'order create with a new contact (address members)',
		where: WHERE.orderContact,
		reason: 'would create an order on the account; not attempted',
	},
	{
		id: "action answers' meta",
		where: WHERE.actionMeta,
		reason: 'needs an action that changes records (e.g. overlock); not attempted',
	},
	{
		id: 'request timeout',
		where: WHERE.timeout,
		reason: "the API's own timeouts cannot be probed without loading it",
	},
].map(({ id, where, reason }) => ({
	id,
	verdict: 'unknown',
	evidence: `not probed: ${reason}`,
	where,
}));

/** The write points, unknown with `reason` when the writes do not run. */
export const WRITE_POINT_IDS = [
	['POST /2025-09/contacts status', WHERE.none],
	['idempotency replay', WHERE.replay],
	['idempotency key of 255 characters', WHERE.idempotency],
	['webhook event types (the 13 confirmed)', WHERE.events],
	['webhook signature t', WHERE.signature],
	['webhook signature v1', WHERE.signature],
	['DELETE /2025-09/webhook_endpoints/{id}', WHERE.webhookEndpoints],
];

export const EXTRA_EVENT_TYPES = [
	'deal.created',
	'deal.won',
	'identity_verification.failed',
	'subscription.created',
	'tenancy.created',
	'task.created',
	'order.completed',
];

export function skippedWritePoints(reason, withWebhook = true) {
	const ids = withWebhook
		? [
				...WRITE_POINT_IDS,
				...EXTRA_EVENT_TYPES.map((type) => [`webhook event type ${type}`, WHERE.events]),
			]
		: WRITE_POINT_IDS.slice(0, 3);
	return ids.map(([id, where]) => ({
		id,
		verdict: 'unknown',
		evidence: `not probed: ${reason}`,
		where,
	}));
}
