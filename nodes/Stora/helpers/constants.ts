import { ID_PREFIXES } from './records';

/** API version: the first path segment of every resource path. */
export const API_VERSION = '2025-09';

/** The OAuth endpoints' paths: under the Base URL itself, not under the API version. */
export const OAUTH_PATH = /^\/oauth2\//;

/** The API accepts 1 to 100 records per page. */
export const MAX_PAGE_SIZE = 100;

/**
 * The OAuth2 credential's default scope: every scope the node uses that the docs show, in their scope table (cut off
 * after `public.tenancy:read`) or, for that table's tail, on an endpoint page or in the spec (timeline event and
 * source, unit, unit allocation, unit type, webhook endpoint read). Asking for a scope the operator's app does not
 * have can fail the whole token request, so the default asks for nothing else.
 */
export const DEFAULT_SCOPES = [
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
	'public.order:read',
	'public.order:write',
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
	'public.unit:read',
	'public.unit:write',
	'public.unit_allocation:read',
	'public.unit_type:read',
	'public.unit_type:write',
	'public.webhook_endpoint:read',
];

/**
 * Scopes some operations need that the docs do not show (the scope table's visible run has no opportunity or price
 * adjustment scope; timeline template read and webhook endpoint write follow the naming pattern only), with what
 * needs each. The OAuth2 credential's Scope description lists them (a test keeps it in step).
 */
export const OPTIONAL_SCOPES: Record<string, string> = {
	'public.opportunity:write': 'Opportunity: Associate Deal and Disassociate Deal (with public.deal:write)',
	'public.price_adjustment:write': 'Price Adjustment: Update',
	'public.price_adjustment:skip_notifications':
		'Price Adjustment: Update with Skip Notification, or of a draft that already skips it',
	'public.timeline_template:read': "Timeline Template: Get and Get Many, and Timeline Event's Template list",
	'public.webhook_endpoint:write': 'Webhook Endpoint: Create, Update and Delete, and the Stora Trigger',
};

/** Every scope the node's operations can need. */
export const ALL_SCOPES = [...DEFAULT_SCOPES, ...Object.keys(OPTIONAL_SCOPES)];

/** The API's billing periods (the order `billing_period` enum), also the keys of a Set Base Price body. */
export const BILLING_PERIODS = [
	'monthly',
	'weekly',
	'every_four_weeks',
	'every_three_months',
	'every_six_months',
	'yearly',
	'one_time',
];

/** Contact enums, shared by Contact Create / Update and the new contact of Order Create. */
export const CONTACT_TYPES = ['domestic', 'company', 'student', 'charity', 'local_authority'];
export const CONTACT_SOURCES = [
	'pre_open',
	'incomplete_booking',
	'registered_interest',
	'price_interest',
	'quotation_request',
	'booking',
	'popup',
	'external_enquiry',
	'phone',
	'walkin',
	'import',
	'other',
];
export const MARKETING_SOURCES = [
	'used_before',
	'recommendation',
	'received_leaflet',
	'seen_building_signs',
	'seen_advert',
	'facebook_marketplace',
	'google_search',
	'other_online_search',
	'social_media',
	'email',
	'radio',
	'other',
];
export const USE_CASES = ['business_needs', 'moving_home', 'more_space', 'refurb', 'travelling', 'other'];

/** Line item types and the ID prefix of the item each one charges for (a security deposit is for a unit type). */
export const LINE_ITEM_ITEM_PREFIX: Record<string, string> = {
	unit_type: ID_PREFIXES.unitType,
	protection: ID_PREFIXES.protectionLevel,
	product: ID_PREFIXES.product,
	security_deposit: ID_PREFIXES.unitType,
};
