/**
 * What the API's reference documents, endpoint by endpoint: the query parameters and top-level body members its
 * pages list (copied from the 2025-09 reference's endpoint list; the sandbox never reads the docs at run time). The
 * sandbox's own filters, sorts and body members go further on many lists; the `unknown params` mode decides what
 * happens to anything not listed here:
 *
 *   accept  (default) the sandbox's own rules apply: its extra filters, sorts and created_after windows work
 *   ignore  undocumented query parameters and body members are dropped before the handler sees them
 *   reject  422 `invalid_url_param` (query) or `invalid_content` (body) naming each undocumented member
 *
 * Conventions: `metadata[]` stands for every `metadata[<key>]` filter; `<billing_period>` for any billing period
 * key of a base-price body; `emails.move_in_day` lists a member of an object member where the docs list those (the
 * object's other members are then undocumented too, one level deep). Routes without an entry (the consent form POST /oauth2/authorize) are never restricted.
 * Names the docs show only through their descriptions or the seed spec count as documented (marked below), because
 * the reference lists them for that endpoint. Lists whose page was cut off count the names shown as the whole list:
 * that is what makes the strict modes meaningful there (the node's sorts, filters and created_after cursor).
 */

import { invalidContent, invalidUrlParam } from './errors';

/** How the sandbox treats query parameters and body members the docs do not list. */
export type UnknownParamsMode = 'accept' | 'ignore' | 'reject';
/** `full`: RateLimit-Limit, -Remaining, -Reset and Retry-After on 429; `documented`: only RateLimit-Limit and -Reset. */
export type HeadersMode = 'full' | 'documented';

export const UNKNOWN_PARAMS_MODES: UnknownParamsMode[] = ['accept', 'ignore', 'reject'];
export const HEADERS_MODES: HeadersMode[] = ['full', 'documented'];

export interface Documented {
	query: string[];
	body: string[];
}

const BILLING_PERIODS = [
	'monthly',
	'weekly',
	'every_four_weeks',
	'every_three_months',
	'every_six_months',
	'yearly',
	'one_time',
];

/** Keyed by method and path as the reference writes it (`{name}` for path parameters). */
export const DOCUMENTED: Record<string, Documented> = {
	// Names inferred, not confirmed by the docs: code, redirect_uri, code_verifier, refresh_token.
	'POST /oauth2/token': {
		query: [],
		body: [
			'grant_type',
			'client_id',
			'client_secret',
			'scope',
			'code',
			'redirect_uri',
			'code_verifier',
			'refresh_token',
		],
	},
	// Cut off / unconfirmed (seed only, not confirmed in the docs): documented = the names shown, so the strict modes drop or reject the sandbox's other filters, sorts and created_after.
	// Names inferred, not confirmed by the docs: state.
	'GET /oauth2/authorize': {
		query: [
			'client_id',
			'redirect_uri',
			'response_type',
			'scope',
			'state',
			'code_challenge',
			'code_challenge_method',
		],
		body: [],
	},
	'POST /oauth2/introspect': { query: [], body: ['token'] },
	'GET /oauth2/token/info': { query: [], body: [] },
	// Names inferred, not confirmed by the docs: email, search, type, source, marketing_source, use_case, status, created_after, created_before, updated_after, updated_before, metadata[], expand.
	'GET /2025-09/contacts': {
		query: [
			'page',
			'limit',
			'sort_by',
			'sort_direction',
			'email',
			'search',
			'type',
			'source',
			'marketing_source',
			'use_case',
			'status',
			'created_after',
			'created_before',
			'updated_after',
			'updated_before',
			'metadata[]',
			'expand',
		],
		body: [],
	},
	// Names inferred, not confirmed by the docs: phone_number, company_registration_number.
	'POST /2025-09/contacts': {
		query: [],
		body: [
			'email',
			'full_name',
			'phone_number',
			'tax_id',
			'company_registration_number',
			'address',
			'type',
			'marketing_source',
			'source',
			'use_case',
			'metadata',
		],
	},
	// Names inferred, not confirmed by the docs: expand.
	'GET /2025-09/contacts/{contact_id}': { query: ['expand'], body: [] },
	// Names inferred, not confirmed by the docs: type, marketing_source, source, use_case, company_registration_number.
	'PATCH /2025-09/contacts/{contact_id}': {
		query: [],
		body: [
			'email',
			'full_name',
			'phone_number',
			'tax_id',
			'address',
			'metadata',
			'type',
			'marketing_source',
			'source',
			'use_case',
			'company_registration_number',
		],
	},
	'DELETE /2025-09/contacts/{contact_id}': { query: [], body: [] },
	// Cut off / unconfirmed (page content not stored (only the index entry): page and limit, as on every list): documented = the names shown, so the strict modes drop or reject the sandbox's other filters, sorts and created_after.
	'GET /2025-09/contract_templates': { query: ['page', 'limit'], body: [] },
	// Cut off / unconfirmed (filters not visible in the stored copy): documented = the names shown, so the strict modes drop or reject the sandbox's other filters, sorts and created_after.
	'GET /2025-09/contracts': { query: ['page', 'limit'], body: [] },
	// Names inferred, not confirmed by the docs: expand.
	'GET /2025-09/contracts/{contract_id}': { query: ['expand'], body: [] },
	// Names inferred, not confirmed by the docs: sort_by, created_after, created_before, updated_after, updated_before.
	'GET /2025-09/coupons': {
		query: [
			'page',
			'limit',
			'sort_by',
			'sort_direction',
			'created_after',
			'created_before',
			'updated_after',
			'updated_before',
		],
		body: [],
	},
	'GET /2025-09/coupons/{coupon_id}': { query: [], body: [] },
	'GET /2025-09/credit_notes': { query: ['page', 'limit'], body: [] },
	'GET /2025-09/credit_notes/{credit_note_id}': { query: [], body: [] },
	// Cut off / unconfirmed (filters not visible in the stored copy): documented = the names shown, so the strict modes drop or reject the sandbox's other filters, sorts and created_after.
	// Names inferred, not confirmed by the docs: expand.
	'GET /2025-09/deals': { query: ['page', 'limit', 'expand'], body: [] },
	'GET /2025-09/deals/{deal_id}': { query: ['expand'], body: [] },
	// Names inferred, not confirmed by the docs: name, contact, stage, site, assignee, note, starts_at, metadata.
	'POST /2025-09/deals': {
		query: [],
		body: [
			'name',
			'contact',
			'stage',
			'line_items',
			'site',
			'assignee',
			'note',
			'starts_at',
			'metadata',
		],
	},
	// Names inferred, not confirmed by the docs: stage.
	'PATCH /2025-09/deals/{deal_id}': {
		query: [],
		body: ['name', 'assignee', 'site', 'note', 'starts_at', 'metadata', 'line_items', 'stage'],
	},
	// Names inferred, not confirmed by the docs: expand.
	'POST /2025-09/deals/{deal_id}/win': { query: ['expand'], body: [] },
	'POST /2025-09/deals/{deal_id}/lose': { query: ['expand'], body: ['lost_reason'] },
	// Names inferred, not confirmed by the docs: stage, assignee.
	'POST /2025-09/deals/{deal_id}/reopen': { query: ['expand'], body: ['stage', 'assignee'] },
	// Complete on the page: no filters (the node sends none).
	'GET /2025-09/deals/stages': { query: ['page', 'limit', 'sort_by', 'sort_direction'], body: [] },
	'GET /2025-09/deals/stages/{stage_id}': { query: [], body: [] },
	// Names inferred, not confirmed by the docs: status.
	'GET /2025-09/identity_verifications': {
		query: ['page', 'limit', 'sort_by', 'sort_direction', 'contact_id', 'expand', 'status'],
		body: [],
	},
	'GET /2025-09/identity_verifications/{identity_verification_id}': { query: ['expand'], body: [] },
	'GET /2025-09/images/{image_token}/{filename}': { query: [], body: [] },
	// Names inferred, not confirmed by the docs: sort_by, contact_id, site_id, subscription_id, tenancy_id, status, type, collection_status, created_after, created_before, updated_after, updated_before, due_after, due_before.
	'GET /2025-09/invoices': {
		query: [
			'page',
			'limit',
			'sort_by',
			'sort_direction',
			'contact_id',
			'site_id',
			'subscription_id',
			'tenancy_id',
			'status',
			'type',
			'collection_status',
			'created_after',
			'created_before',
			'updated_after',
			'updated_before',
			'due_after',
			'due_before',
			'expand',
		],
		body: [],
	},
	// Names inferred, not confirmed by the docs: expand.
	'GET /2025-09/invoices/{invoice_id}': { query: ['expand'], body: [] },
	// Cut off / unconfirmed (further parameters cut off in the stored copy): documented = the names shown, so the strict modes drop or reject the sandbox's other filters, sorts and created_after.
	'GET /2025-09/notes': {
		query: ['page', 'limit', 'sort_by', 'sort_direction', 'resource_id'],
		body: [],
	},
	'POST /2025-09/notes': { query: [], body: ['content', 'resource', 'metadata'] },
	// Seed only (no docs page): the seed spec's members.
	'GET /2025-09/notes/{note_id}': { query: ['expand'], body: [] },
	'PATCH /2025-09/notes/{note_id}': { query: [], body: ['content', 'resource', 'metadata'] },
	// Seed only (no docs page): the seed spec's members.
	'POST /2025-09/opportunities/{opportunity_id}/associate_deal': {
		query: ['expand'],
		body: ['deal'],
	},
	// Seed only (no docs page): the seed spec's members.
	'DELETE /2025-09/opportunities/{opportunity_id}/associate_deal': { query: ['expand'], body: [] },
	// Names inferred, not confirmed by the docs: contact_id, site_id, sort_by, status, source, billing_period, created_after, created_before, updated_after, updated_before, starts_after, starts_before.
	'GET /2025-09/orders': {
		query: [
			'page',
			'limit',
			'contact_id',
			'site_id',
			'sort_by',
			'sort_direction',
			'status',
			'source',
			'billing_period',
			'created_after',
			'created_before',
			'updated_after',
			'updated_before',
			'starts_after',
			'starts_before',
			'metadata[]',
			'expand',
		],
		body: [],
	},
	// Names inferred, not confirmed by the docs: site, finalize, contact.id (whether an existing contact's {id} is accepted is not shown).
	// `emails` has booking_confirmation and move_in_day only (the seed's payment_details is a response member the docs do not show).
	'POST /2025-09/orders': {
		query: [],
		body: [
			'site',
			'billing_period',
			'payment_method',
			'purchase_order_number',
			'starts_at',
			'emails',
			'coupon',
			'contract_template',
			'contact',
			'finalize',
			'metadata',
			'line_items',
			'emails.booking_confirmation',
			'emails.move_in_day',
			'contact.id',
			'contact.email',
			'contact.full_name',
			'contact.tax_id',
			'contact.phone_number',
			'contact.address',
			'contact.type',
			'contact.marketing_source',
			'contact.source',
			'contact.use_case',
			'finalize.cancel_redirect_url',
		],
	},
	'GET /2025-09/orders/{order_id}': { query: ['expand'], body: [] },
	'GET /2025-09/orders/{order_id}/validate': { query: ['expand'], body: [] },
	// Names inferred, not confirmed by the docs: finalize.
	'POST /2025-09/orders/{order_id}/finalize': { query: [], body: ['finalize'] },
	'POST /2025-09/orders/{order_id}/line_items': {
		query: [],
		body: ['type', 'quantity', 'price', 'item'],
	},
	// Seed only (no docs page): the seed spec's members.
	'PATCH /2025-09/price_adjustments/{price_adjustment_id}': {
		query: [],
		body: ['percentage', 'effective_from', 'applies_to', 'notification'],
	},
	'GET /2025-09/product_categories': { query: ['page', 'limit', 'expand'], body: [] },
	'GET /2025-09/product_categories/{product_category_id}': { query: [], body: [] },
	'GET /2025-09/products': { query: ['page', 'limit'], body: [] },
	'GET /2025-09/products/{product_id}': { query: [], body: [] },
	'POST /2025-09/products/{product_id}/base_price': {
		query: ['expand'],
		body: ['<billing_period>'],
	},
	'GET /2025-09/protection_levels': {
		query: ['page', 'limit', 'sort_by', 'sort_direction'],
		body: [],
	},
	'GET /2025-09/protection_levels/{protection_level_id}': { query: [], body: [] },
	'POST /2025-09/protection_levels/{protection_level_id}/base_price': {
		query: ['expand'],
		body: ['<billing_period>'],
	},
	// Names inferred, not confirmed by the docs: sort_by, search, created_after, created_before, updated_after, updated_before.
	'GET /2025-09/sites': {
		query: [
			'page',
			'limit',
			'sort_by',
			'sort_direction',
			'search',
			'created_after',
			'created_before',
			'updated_after',
			'updated_before',
		],
		body: [],
	},
	'GET /2025-09/sites/{site_id}': { query: [], body: [] },
	'GET /2025-09/subscriptions': { query: ['page', 'limit'], body: [] },
	// Names inferred, not confirmed by the docs: expand.
	'GET /2025-09/subscriptions/{subscription_id}': { query: ['expand'], body: [] },
	'GET /2025-09/tasks': { query: ['page', 'limit'], body: [] },
	'POST /2025-09/tasks': {
		query: [],
		body: ['title', 'description', 'due_at', 'site', 'assignee', 'metadata', 'resource'],
	},
	'PATCH /2025-09/tasks/{task_id}': {
		query: [],
		body: ['title', 'description', 'due_at', 'assignee', 'site', 'resource', 'metadata'],
	},
	'POST /2025-09/tasks/{task_id}/open': { query: [], body: [] },
	// Seed only (no docs page): the seed spec's members.
	'DELETE /2025-09/tasks/{task_id}': { query: [], body: [] },
	'GET /2025-09/tenancies': {
		query: ['page', 'limit', 'sort_by', 'sort_direction', 'expand'],
		body: [],
	},
	'GET /2025-09/tenancies/{tenancy_id}': { query: ['expand'], body: [] },
	// Names inferred, not confirmed by the docs: expand.
	'POST /2025-09/timeline/events': {
		query: ['expand'],
		body: ['source', 'template', 'contact', 'site', 'description', 'external', 'variables'],
	},
	'PATCH /2025-09/timeline/events/{event_id}': {
		query: [],
		body: ['source', 'template', 'contact', 'site', 'description', 'external', 'variables'],
	},
	'GET /2025-09/timeline/sources': { query: ['page', 'limit'], body: [] },
	// Names inferred, not confirmed by the docs: created_before, updated_after, updated_before.
	'GET /2025-09/timeline/templates': {
		query: ['page', 'limit', 'created_after', 'created_before', 'updated_after', 'updated_before'],
		body: [],
	},
	'GET /2025-09/timeline/templates/{template_id}': { query: [], body: [] },
	// Cut off / unconfirmed (further parameters cut off): documented = the names shown, so the strict modes drop or reject the sandbox's other filters, sorts and created_after.
	'GET /2025-09/unit_allocations': {
		query: [
			'page',
			'limit',
			'sort_by',
			'sort_direction',
			'contact_id',
			'tenancy_id',
			'unit_id',
			'site_id',
			'expand',
		],
		body: [],
	},
	'GET /2025-09/unit_allocations/{unit_allocation_id}': { query: ['expand'], body: [] },
	'GET /2025-09/unit_types': { query: ['page', 'limit'], body: [] },
	'GET /2025-09/unit_types/{unit_type_id}': { query: ['expand'], body: [] },
	'POST /2025-09/unit_types/{unit_type_id}/base_price': {
		query: ['expand'],
		body: ['<billing_period>'],
	},
	'GET /2025-09/units': {
		query: [
			'page',
			'limit',
			'sort_by',
			'sort_direction',
			'unit_type_id',
			'site_id',
			'expand',
			'status',
		],
		body: [],
	},
	'GET /2025-09/units/{unit_id}': { query: ['expand'], body: [] },
	'POST /2025-09/units/{unit_id}/reserve': { query: [], body: ['tenancy_id'] },
	'POST /2025-09/units/{unit_id}/grant_access': { query: [], body: ['tenancy_id'] },
	'POST /2025-09/units/{unit_id}/deallocate': { query: [], body: [] },
	'POST /2025-09/units/overlock': { query: [], body: ['contact_id'] },
	'POST /2025-09/units/remove_overlock': { query: [], body: ['contact_id'] },
	'GET /2025-09/webhook_endpoints': {
		query: ['page', 'limit', 'sort_by', 'sort_direction', 'expand', 'status', 'metadata[]'],
		body: [],
	},
	'POST /2025-09/webhook_endpoints': {
		query: [],
		body: ['name', 'api_version', 'url', 'event_types', 'description', 'metadata'],
	},
	'GET /2025-09/webhook_endpoints/{webhook_endpoint_id}': { query: ['expand'], body: [] },
	// Names inferred, not confirmed by the docs: status.
	'PATCH /2025-09/webhook_endpoints/{webhook_endpoint_id}': {
		query: [],
		body: ['name', 'description', 'url', 'event_types', 'metadata', 'status'],
	},
	'DELETE /2025-09/webhook_endpoints/{webhook_endpoint_id}': { query: [], body: [] },
};

const placeholders = (path: string) => path.replace(/\{[^}]+\}|:[A-Za-z_]+/g, '*');
const byRoute = new Map(
	Object.entries(DOCUMENTED).map(([key, documented]) => {
		const [method, path] = key.split(' ');
		return [`${method} ${placeholders(path)}`, documented];
	}),
);

/** The documented lists of a sandbox route (`:name` path parameters), or undefined when the docs have no such endpoint. */
export function documentedFor(method: string, pattern: string): Documented | undefined {
	return byRoute.get(`${method.toUpperCase()} ${placeholders(pattern)}`);
}

export function isDocumentedQuery(documented: Documented, name: string): boolean {
	if (documented.query.includes(name)) return true;
	return /^metadata\[.+\]$/.test(name) && documented.query.includes('metadata[]');
}

export function isDocumentedMember(documented: Documented, name: string): boolean {
	if (documented.body.includes(name)) return true;
	return documented.body.includes('<billing_period>') && BILLING_PERIODS.includes(name);
}

/** The documented members of the object member `name`, or undefined when the docs do not list them. */
function documentedMembersOf(documented: Documented, name: string): string[] | undefined {
	const members = documented.body
		.filter((entry) => entry.startsWith(`${name}.`))
		.map((entry) => entry.slice(name.length + 1));
	return members.length ? members : undefined;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
	value !== null && typeof value === 'object' && !Array.isArray(value);

/** `member.key` for every key of an object member whose documented members do not include it. */
function unknownNestedMembers(documented: Documented, body: Record<string, unknown>): string[] {
	return Object.entries(body).flatMap(([name, value]) => {
		const members = documentedMembersOf(documented, name);
		if (!members || !isPlainObject(value)) return [];
		return Object.keys(value)
			.filter((key) => !members.includes(key))
			.map((key) => `${name}.${key}`);
	});
}

/**
 * Applies the `ignore` / `reject` mode to one request: returns the query and body the handler may see, or throws 422
 * naming every undocumented member (query parameters first, as the URL is checked before the body).
 */
export function restrictToDocumented(
	mode: Exclude<UnknownParamsMode, 'accept'>,
	documented: Documented,
	query: Record<string, string>,
	body: unknown,
): { query: Record<string, string>; body: unknown } {
	const unknownQuery = Object.keys(query).filter((name) => !isDocumentedQuery(documented, name));
	const isObject = isPlainObject(body);
	const unknownMembers = isObject
		? Object.keys(body).filter((name) => !isDocumentedMember(documented, name))
		: [];
	const unknownNested = isObject ? unknownNestedMembers(documented, body) : [];
	if (mode === 'reject') {
		if (unknownQuery.length) {
			throw invalidUrlParam(
				unknownQuery.map((name) => ({
					message: `The query parameter '${name}' is not allowed`,
					pointer: name,
				})),
				`Unknown query parameter${unknownQuery.length > 1 ? 's' : ''}: ${unknownQuery.join(', ')}`,
			);
		}
		const unknown = [...unknownMembers, ...unknownNested];
		if (unknown.length) {
			throw invalidContent(
				unknown.map((name) => ({
					message: `The property '${name}' is not allowed`,
					pointer: `/${name.replace('.', '/')}`,
				})),
				`Unknown body member${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}`,
			);
		}
		return { query, body };
	}
	const keep = <T>(record: Record<string, T>, drop: string[]) =>
		Object.fromEntries(Object.entries(record).filter(([name]) => !drop.includes(name)));
	if (!isObject || (!unknownMembers.length && !unknownNested.length))
		return { query: keep(query, unknownQuery), body };
	const kept: Record<string, unknown> = keep(body, unknownMembers);
	for (const path of unknownNested) {
		const [name, key] = path.split('.');
		if (name in kept) kept[name] = keep(kept[name] as Record<string, unknown>, [key]);
	}
	return { query: keep(query, unknownQuery), body: kept };
}
