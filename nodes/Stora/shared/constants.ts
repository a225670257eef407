/** API version: the first path segment of every resource path. */
export const API_VERSION = '2025-09';

export const DEFAULT_BASE_URL = 'https://public-api.stora.co';

/** The API accepts 1 to 100 records per page. */
export const MAX_PAGE_SIZE = 100;

export const DOCS_URL = 'https://github.com/stora-community/n8n-nodes-stora#readme';

/**
 * Every scope the node's operations can need. The docs' scope table is cut off part-way, so the tail
 * (timeline, unit, unit type, webhook endpoint, opportunity and price adjustment scopes) follows the spec and the
 * endpoint pages; see the README's "Unconfirmed behaviour" section.
 */
export const ALL_SCOPES = [
	'public.contact:read',
	'public.contact:write',
	'public.contract:read',
	'public.contract_template:read',
	'public.coupon:read',
	'public.credit_note:read',
	'public.deal:read',
	'public.deal:write',
	'public.deal_stage:read',
	'public.identity_verification:read',
	'public.invoice:read',
	'public.note:read',
	'public.note:write',
	'public.opportunity:write',
	'public.order:read',
	'public.order:write',
	'public.price_adjustment:write',
	'public.product:read',
	'public.product:write',
	'public.product_category:read',
	'public.protection_level:read',
	'public.protection_level:write',
	'public.site:read',
	'public.staff:read',
	'public.subscription:read',
	'public.task:read',
	'public.task:write',
	'public.tenancy:read',
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
];
