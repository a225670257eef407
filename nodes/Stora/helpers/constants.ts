import { ID_PREFIXES } from './records';

/** API version: the first path segment of every resource path. */
export const API_VERSION = '2025-09';

/** The OAuth endpoints' paths: under the Base URL itself, not under the API version. */
export const OAUTH_PATH = /^\/oauth2\//;

/** The API accepts 1 to 100 records per page. */
export const MAX_PAGE_SIZE = 100;

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
export const USE_CASES = [
	'business_needs',
	'moving_home',
	'more_space',
	'refurb',
	'travelling',
	'other',
];

/** Line item types and the ID prefix of the item each one charges for (a security deposit is for a unit type). */
export const LINE_ITEM_ITEM_PREFIX: Record<string, string> = {
	unit_type: ID_PREFIXES.unitType,
	protection: ID_PREFIXES.protectionLevel,
	product: ID_PREFIXES.product,
	security_deposit: ID_PREFIXES.unitType,
};
