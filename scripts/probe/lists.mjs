/**
 * The lists the node reads and what it sends to each: its Get Many's filters and options (descriptions/<resource>/
 * getAll.operation.ts), plus what Return All and the Stora Polling Trigger add (transport/walk.ts: sort_by,
 * sort_direction, created_after, created_before as a window's end, updated_after for New or Updated Record).
 * `documented` is the query parameters the API reference lists for the endpoint (sandbox/core/documented.ts).
 * test/probe/lists.test.ts holds this table to the built node description, the sandbox's routes and DOCUMENTED.
 */

const PAGING = ['page', 'limit'];
const WINDOWS = (...prefixes) =>
	prefixes.flatMap((prefix) => [`${prefix}_after`, `${prefix}_before`]);

/**
 * path: after /2025-09/; resource: the node's resource name; scope: the read scope the list needs; filters: the
 * Get Many's Filters; sortBy: its Sort By values; expand: its Expand values (null: a free-text field); cursor: false
 * where the node pages by number only (helpers/resources.ts `listWithoutTimeFilters`).
 */
export const LISTS = [
	{
		path: 'contacts',
		resource: 'contact',
		scope: 'public.contact:read',
		filters: [
			'email',
			'search',
			'type',
			'source',
			'marketing_source',
			'use_case',
			'status',
			...WINDOWS('created', 'updated'),
			'metadata[]',
		],
		sortBy: ['created_at', 'full_name', 'updated_at'],
		documented: [
			...PAGING,
			'sort_by',
			'sort_direction',
			'email',
			'search',
			'type',
			'source',
			'marketing_source',
			'use_case',
			'status',
			...WINDOWS('created', 'updated'),
			'metadata[]',
			'expand',
		],
	},
	{
		path: 'contracts',
		resource: 'contract',
		scope: 'public.contract:read',
		filters: [
			'contact_id',
			'contract_template_id',
			...WINDOWS('created', 'sent', 'signed', 'updated'),
			'status',
			'tenancy_id',
		],
		sortBy: ['created_at', 'sent_at', 'signed_at', 'updated_at'],
		expand: ['contact', 'contract_template', 'tenancy'],
		documented: PAGING,
	},
	{
		path: 'contract_templates',
		resource: 'contractTemplate',
		scope: 'public.contract_template:read',
		filters: WINDOWS('created', 'updated'),
		sortBy: ['created_at', 'name', 'updated_at'],
		documented: PAGING,
	},
	{
		path: 'coupons',
		resource: 'coupon',
		scope: 'public.coupon:read',
		filters: WINDOWS('created', 'updated'),
		sortBy: ['created_at', 'updated_at'],
		documented: [...PAGING, 'sort_by', 'sort_direction', ...WINDOWS('created', 'updated')],
	},
	{
		path: 'credit_notes',
		resource: 'creditNote',
		scope: 'public.credit_note:read',
		filters: [],
		sortBy: [],
		documented: PAGING,
	},
	{
		path: 'deals',
		resource: 'deal',
		scope: 'public.deal:read',
		filters: [
			'assignee_id',
			'contact_id',
			...WINDOWS('created', 'starts', 'updated'),
			'metadata[]',
			'search',
			'site_id',
			'stage_id',
			'status',
		],
		sortBy: ['created_at', 'starts_at', 'updated_at'],
		expand: ['assignee', 'contact', 'creator', 'line_items.item', 'site', 'stage'],
		documented: [...PAGING, 'expand'],
	},
	{
		path: 'deals/stages',
		resource: 'dealStage',
		scope: 'public.deal_stage:read',
		filters: [],
		sortBy: ['created_at', 'position', 'updated_at'],
		cursor: false,
		documented: [...PAGING, 'sort_by', 'sort_direction'],
	},
	{
		path: 'identity_verifications',
		resource: 'identityVerification',
		scope: 'public.identity_verification:read',
		filters: ['contact_id', ...WINDOWS('created', 'updated'), 'status'],
		sortBy: ['created_at', 'updated_at'],
		expand: ['contact'],
		documented: [...PAGING, 'sort_by', 'sort_direction', 'contact_id', 'expand', 'status'],
	},
	{
		path: 'invoices',
		resource: 'invoice',
		scope: 'public.invoice:read',
		filters: [
			'collection_status',
			'contact_id',
			...WINDOWS('created', 'due', 'updated'),
			'site_id',
			'status',
			'subscription_id',
			'tenancy_id',
			'type',
		],
		sortBy: ['created_at', 'due_date', 'updated_at'],
		expand: ['contact', 'site', 'subscription', 'tenancy'],
		documented: [
			...PAGING,
			'sort_by',
			'sort_direction',
			'contact_id',
			'site_id',
			'subscription_id',
			'tenancy_id',
			'status',
			'type',
			'collection_status',
			...WINDOWS('created', 'updated', 'due'),
			'expand',
		],
	},
	{
		path: 'notes',
		resource: 'note',
		scope: 'public.note:read',
		filters: ['creator_id', ...WINDOWS('created', 'updated'), 'metadata[]', 'resource_id'],
		sortBy: ['created_at', 'updated_at'],
		expand: ['creator', 'resource'],
		documented: [...PAGING, 'sort_by', 'sort_direction', 'resource_id'],
	},
	{
		path: 'orders',
		resource: 'order',
		scope: 'public.order:read',
		filters: [
			'billing_period',
			'contact_id',
			...WINDOWS('created', 'starts', 'updated'),
			'metadata[]',
			'site_id',
			'source',
			'status',
		],
		sortBy: ['created_at', 'updated_at'],
		expand: [
			'contact',
			'contract_template',
			'coupon',
			'line_items',
			'line_items.item',
			'site',
			'subscription',
			'tenancy',
		],
		documented: [
			...PAGING,
			'contact_id',
			'site_id',
			'sort_by',
			'sort_direction',
			'status',
			'source',
			'billing_period',
			...WINDOWS('created', 'updated', 'starts'),
			'metadata[]',
			'expand',
		],
	},
	{
		path: 'products',
		resource: 'product',
		scope: 'public.product:read',
		filters: [],
		sortBy: [],
		documented: PAGING,
	},
	{
		path: 'product_categories',
		resource: 'productCategory',
		scope: 'public.product_category:read',
		filters: [],
		sortBy: [],
		expand: null,
		documented: [...PAGING, 'expand'],
	},
	{
		path: 'protection_levels',
		resource: 'protectionLevel',
		scope: 'public.protection_level:read',
		filters: [],
		sortBy: ['created_at'],
		documented: [...PAGING, 'sort_by', 'sort_direction'],
	},
	{
		path: 'sites',
		resource: 'site',
		scope: 'public.site:read',
		filters: [...WINDOWS('created', 'updated'), 'search'],
		sortBy: ['created_at', 'name', 'updated_at'],
		documented: [
			...PAGING,
			'sort_by',
			'sort_direction',
			'search',
			...WINDOWS('created', 'updated'),
		],
	},
	{
		path: 'subscriptions',
		resource: 'subscription',
		scope: 'public.subscription:read',
		filters: [],
		sortBy: [],
		documented: PAGING,
	},
	{
		path: 'tasks',
		resource: 'task',
		scope: 'public.task:read',
		filters: [
			'assignee_id',
			...WINDOWS('created', 'due', 'updated'),
			'resource_id',
			'metadata[]',
			'search',
			'site_id',
			'status',
		],
		sortBy: ['created_at', 'due_at', 'updated_at'],
		expand: ['assignee', 'creator', 'resource', 'site'],
		documented: PAGING,
	},
	{
		path: 'tenancies',
		resource: 'tenancy',
		scope: 'public.tenancy:read',
		filters: [],
		sortBy: ['created_at'],
		expand: ['contact', 'order', 'site', 'subscription', 'unit_allocations'],
		documented: [...PAGING, 'sort_by', 'sort_direction', 'expand'],
	},
	{
		path: 'timeline/sources',
		resource: 'timelineSource',
		scope: 'public.timeline_source:read',
		filters: WINDOWS('created', 'updated'),
		sortBy: ['created_at', 'updated_at'],
		documented: PAGING,
	},
	{
		path: 'timeline/templates',
		resource: 'timelineTemplate',
		scope: 'public.timeline_template:read',
		filters: WINDOWS('created', 'updated'),
		sortBy: ['created_at', 'updated_at'],
		documented: [...PAGING, ...WINDOWS('created', 'updated')],
	},
	{
		path: 'units',
		resource: 'unit',
		scope: 'public.unit:read',
		filters: ['site_id', 'status', 'unit_type_id'],
		sortBy: ['created_at'],
		expand: ['site', 'unit_allocation', 'unit_type'],
		documented: [
			...PAGING,
			'sort_by',
			'sort_direction',
			'unit_type_id',
			'site_id',
			'expand',
			'status',
		],
	},
	{
		path: 'unit_allocations',
		resource: 'unitAllocation',
		scope: 'public.unit_allocation:read',
		filters: ['contact_id', 'site_id', 'tenancy_id', 'unit_id'],
		sortBy: ['created_at'],
		expand: ['tenancy', 'unit'],
		documented: [
			...PAGING,
			'sort_by',
			'sort_direction',
			'contact_id',
			'tenancy_id',
			'unit_id',
			'site_id',
			'expand',
		],
	},
	{
		path: 'unit_types',
		resource: 'unitType',
		scope: 'public.unit_type:read',
		filters: [],
		sortBy: [],
		documented: PAGING,
	},
	{
		path: 'webhook_endpoints',
		resource: 'webhookEndpoint',
		scope: 'public.webhook_endpoint:read',
		filters: ['metadata[]', 'status'],
		sortBy: ['created_at'],
		expand: ['creator'],
		documented: [...PAGING, 'sort_by', 'sort_direction', 'expand', 'status', 'metadata[]'],
	},
];

/** The read scope an expanded reference needs (docs: expanding needs the related resource's read scope). */
export const EXPAND_SCOPES = {
	contact: 'public.contact:read',
	contract_template: 'public.contract_template:read',
	coupon: 'public.coupon:read',
	order: 'public.order:read',
	site: 'public.site:read',
	stage: 'public.deal_stage:read',
	subscription: 'public.subscription:read',
	tenancy: 'public.tenancy:read',
	unit: 'public.unit:read',
	unit_allocation: 'public.unit_allocation:read',
	unit_allocations: 'public.unit_allocation:read',
	unit_type: 'public.unit_type:read',
	assignee: 'public.staff:read',
	creator: 'public.staff:read',
};

/** Filters a record does not carry the field of (transport/listFilters.ts NOT_ON_RECORD), with the ID prefix to test them by. */
export const NOT_ON_RECORD = { unitAllocation: { contact_id: 'con_', site_id: 'site_' } };

/** Every query parameter the node sends to `list`, in the order the probe asks about them. */
export function parametersOf(list) {
	const cursor = list.cursor !== false;
	const sends = ['limit', 'page', ...list.filters];
	if (list.sortBy.length || cursor) sends.push('sort_by', 'sort_direction');
	if (list.expand !== undefined) sends.push('expand');
	if (cursor) sends.push('created_after', 'created_before', 'updated_after');
	return [...new Set(sends)];
}

/** The sort values the node sends to `list`, most telling first: the poll's updated_at, then the Get Many's own. */
export function sortValuesOf(list) {
	const values = list.cursor !== false ? ['updated_at', ...list.sortBy] : list.sortBy;
	return [...new Set(values.filter((value) => value !== 'created_at'))];
}

export const isDocumented = (list, parameter) =>
	list.documented.includes(parameter) ||
	(parameter.startsWith('metadata[') && list.documented.includes('metadata[]'));
