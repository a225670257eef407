// `node scripts/documentedFields.mjs`: writes sandbox/test/fixtures/documentedFields.json, the documented fields of
// every record the API returns, which sandbox/test/documentedFields.test.ts holds the sandbox (and the shipped output
// schemas) to. Run by hand when the reference changes: it reads the API reference notes beside this checkout
// (../shared/api-reference/resources.md, webhooks.md) and the user's spec (../shared/spec/...), which a clean clone of
// the repository does not have, so the test reads only the committed JSON.
//
// Names and plain types come from the reference's tables; prose sections, nested shapes and the points where the spec
// and the reference disagree are written out below (the spec wins; each such point lands in `differences`). The script
// fails when a name written here is not in the text it claims to come from, or when the spec and the reference list
// different fields for a resource and no decision below covers it.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
const SHARED = join(REPO, '..', 'shared');
const OUT = join(REPO, 'sandbox', 'test', 'fixtures', 'documentedFields.json');
const RESOURCES_MD = 'api-reference/resources.md';
const WEBHOOKS_MD = 'api-reference/webhooks.md';
const SPEC_MD = 'spec/stora-public-api-2025-09.md';
const read = (file) => readFileSync(join(SHARED, file), 'utf8');

// ------------------------------------------------------------------ a small notation for field types
// 'string', 'date-time?' (? = nullable), '[ref]' (array of), 'integer|string?' (either), obj({...}) (closed object).
function t(spec) {
	if (typeof spec !== 'string') return spec;
	const nullable = spec.endsWith('?');
	const base = nullable ? spec.slice(0, -1) : spec;
	const out = base.startsWith('[')
		? { type: 'array', items: t(base.slice(1, -1)) }
		: { type: base.includes('|') ? base.split('|') : base };
	return nullable ? { ...out, nullable: true } : out;
}
const obj = (fields, extra = {}) => ({
	type: 'object',
	fields: Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, t(v)])),
	...extra,
});
const nullableObj = (fields) => obj(fields, { nullable: true });
/** Present only while a sibling field holds a value (coupon amount/percent, a site's opening hours). */
const when = (spec, field, equals) => ({ ...t(spec), when: { field, equals } });
/** An object whose keys are free and whose values all have one type (metadata, timeline variables). */
const map = (values) => ({ type: 'object', values: t(values) });

const METADATA = map('any');
const PRICE = (id) => obj({ billing_period: 'string', price: 'money', [id]: 'string' });
const IMAGES = obj({
	default: nullableObj({ original: 'string', small: 'string', medium: 'string', large: 'string' }),
});
const DAY = obj({
	status: 'string',
	open: when('string', 'status', 'set_hours'),
	close: when('string', 'status', 'set_hours'),
});
const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

// ------------------------------------------------------------------ reading the reference

/** `### Heading` sections of a markdown text, keyed by the heading's name (before any ` (` or ` —`). */
function sections(text) {
	const out = {};
	for (const part of text.split(/^### /m).slice(1)) {
		const [heading, ...body] = part.split('\n');
		out[heading.split(/ \(| —/)[0].trim()] = body.join('\n').split(/^## /m)[0];
	}
	return out;
}

/** Rows of the first `| Field | Type | Notes |` table of a section: [names, type, notes]. */
function tableRows(section) {
	const lines = section.split('\n').filter((l) => l.startsWith('|'));
	return lines.slice(2).map((l) => {
		const [names, type, notes = ''] = l
			.split('|')
			.slice(1, -1)
			.map((c) => c.trim());
		return [names.split(',').map((n) => n.trim()), type, notes];
	});
}

/** A table's type cell (and its notes) in the notation above; nested shapes are given by SHAPES. */
function tableType(type, notes) {
	const nullable = /\bor null\b/.test(type) || /^null seen/.test(notes) ? '?' : '';
	const base = ['date-time', 'integer', 'number', 'boolean', 'money', 'string', 'object'].find(
		(w) => type.startsWith(w),
	);
	if (type.startsWith('array of ref')) return `[ref]${nullable}`;
	if (type.startsWith('array of string')) return `[string]${nullable}`;
	if (type.startsWith('array')) return `[any]${nullable}`;
	if (type.startsWith('ref')) return `ref${nullable}`;
	if (!base) throw new Error(`unknown type cell "${type}"`);
	return `${base}${nullable}`;
}

/** Backticked names outside brackets in prose: the top-level fields a prose section lists. */
function proseNames(section) {
	const names = new Set();
	let depth = 0;
	for (let i = 0; i < section.length; i++) {
		const c = section[i];
		if (c === '`') {
			const end = section.indexOf('`', i + 1);
			const token = section.slice(i + 1, end);
			if (depth === 0 && /^[a-z_][a-z0-9_]*$/.test(token)) names.add(token);
			i = end;
		} else if (c === '(' || c === '{') depth++;
		else if ((c === ')' || c === '}') && depth > 0) depth--;
	}
	return names;
}

/**
 * A section's fields: its table's, or those written for its prose (checked against the names the prose lists). `loose`:
 * bullets whose names sit inside code spans (the token pages); each written name need only occur in the section.
 */
function fieldsOf(section, prose, where, loose) {
	const typed = (written) => Object.fromEntries(Object.entries(written).map(([k, v]) => [k, t(v)]));
	if (loose) {
		const absent = Object.keys(loose).filter((n) => !section.includes(n));
		if (absent.length) throw new Error(`${where}: not in the text: ${absent}`);
		return typed(loose);
	}
	if (!prose)
		return Object.fromEntries(
			tableRows(section).flatMap(([names, type, notes]) =>
				names.map((n) => [n, t(tableType(type, notes))]),
			),
		);
	const listed = proseNames(section);
	const written = Object.keys(prose);
	const missing = [...listed].filter((n) => !written.includes(n));
	const unlisted = written.filter((n) => !listed.has(n));
	if (missing.length || unlisted.length)
		throw new Error(`${where}: listed but not typed ${missing}; typed but not listed ${unlisted}`);
	return typed(prose);
}

// ------------------------------------------------------------------ what the tables cannot say

/** Types of the prose sections of resources.md, by node resource. */
const PROSE = {
	unitAllocation: {
		id: 'string',
		created_at: 'date-time',
		updated_at: 'date-time',
		granted_access_at: 'date-time?',
		reserved_at: 'date-time?',
		tenancy: 'ref',
		unit: 'ref',
	},
	order: {
		id: 'string',
		billing_period: 'string?',
		contact: 'ref?',
		contract_template: 'ref?',
		coupon: 'ref?',
		created_at: 'date-time',
		updated_at: 'date-time',
		email_notifications: obj({ booking_confirmation: 'boolean', move_in_day: 'boolean' }),
		line_items: '[ref]',
		metadata: METADATA,
		one_time_total: 'money',
		one_time_total_excluding_tax: 'money',
		subtotal: 'money',
		tax: 'money',
		total: 'money',
		total_discount: 'money',
		total_excluding_tax: 'money',
		payment_method: 'string',
		payment_url: 'string?',
		purchase_order_number: 'string?',
		site: 'ref',
		source: 'string',
		starts_at: 'date-time?',
		status: 'string',
		subscription: 'ref?',
		tenancy: 'ref?',
	},
	orderLineItem: {
		id: 'string',
		created_at: 'date-time',
		updated_at: 'date-time',
		item: 'ref',
		type: 'string',
		quantity: 'integer',
		price: 'money',
		discount_total: 'money',
		tax: 'money',
		total: 'money',
		total_excluding_tax: 'money',
	},
	invoice: {
		id: 'string',
		number: 'string',
		amount_due: 'money',
		amount_paid: 'money',
		subtotal: 'money',
		tax: 'money',
		total: 'money',
		pre_payment_credit_notes_amount: 'money',
		post_payment_credit_notes_amount: 'money',
		collection_status: 'string',
		contact: 'ref',
		site: 'ref',
		subscription: 'ref',
		tenancy: 'ref',
		created_at: 'date-time?',
		due_date: 'date-time?',
		finalized_at: 'date-time?',
		paid_at: 'date-time?',
		period_start: 'date-time?',
		period_end: 'date-time?',
		voided_at: 'date-time?',
		line_items: {
			type: 'array',
			items: obj({
				accounting_code: 'string',
				description: 'string',
				discount_total: 'money',
				price: 'money',
				proration: 'boolean',
				quantity: 'integer',
				tax: 'money',
				total: 'money',
				total_excluding_tax: 'money',
				type: 'string?',
			}),
		},
		purchase_order_number: 'string?',
		refund_status: 'string',
		status: 'string',
		type: 'string',
	},
	coupon: {
		id: 'string',
		type: 'string',
		percent: when('number', 'type', 'percentage'),
		amount: when('money', 'type', 'amount'),
		auto_apply_to: obj({
			products: 'boolean',
			protections: 'boolean',
			subscriptions: 'boolean',
			unit_types: 'boolean',
		}),
		billing_period: 'string?',
		code: 'string?',
		duration: 'string',
		months: 'integer?',
		max_redemptions: 'integer?',
		name: 'string',
		public: 'boolean',
		title: 'string?',
		created_at: 'date-time',
		updated_at: 'date-time',
	},
	dealStage: {
		id: 'string',
		name: 'string',
		position: 'integer',
		created_at: 'date-time',
		updated_at: 'date-time',
	},
	staff: {
		id: 'string',
		name: 'string',
		email: 'string',
		created_at: 'date-time',
		updated_at: 'date-time',
	},
	note: {
		id: 'string',
		content: 'string',
		resource: 'ref',
		creator: 'ref',
		metadata: METADATA,
		created_at: 'date-time',
		updated_at: 'date-time',
	},
	productCategory: { id: 'string', name: 'string' },
	product: {
		id: 'string',
		name: 'string',
		description: 'string',
		accounting_code: 'string',
		sku: 'string?',
		category: 'ref',
		charge_type: 'string',
		prices: { type: 'array', items: PRICE('stripe_price_id') },
		site: 'ref',
		created_at: 'date-time',
		updated_at: 'date-time',
	},
	protectionLevel: {
		id: 'string',
		account_code: 'string?',
		cover_level: 'money',
		prices: { type: 'array', items: PRICE('stripe_price_id') },
		public: 'boolean',
		stripe_product_id: 'string',
		created_at: 'date-time',
		updated_at: 'date-time',
	},
	identityVerification: {
		id: 'string',
		contact: 'ref',
		status: 'string',
		error_code: 'string?',
		created_at: 'date-time',
		updated_at: 'date-time',
	},
	timelineEvent: {
		id: 'string',
		source: 'ref',
		template: 'ref',
		contact: 'ref',
		site: 'ref?',
		creator: 'ref',
		description: 'string',
		external: obj({ id: 'string', url: 'string' }),
		variables: map('string'),
		invoice: 'ref?',
		subscription: 'ref?',
		tenancy: 'ref?',
		unit: 'ref?',
		unit_type: 'ref?',
		created_at: 'date-time',
		updated_at: 'date-time',
	},
	timelineSource: {
		id: 'string',
		name: 'string',
		website_url: 'string',
		global: 'boolean',
		created_at: 'date-time',
		updated_at: 'date-time',
	},
	timelineTemplate: {
		id: 'string',
		name: 'string',
		message: 'string',
		global: 'boolean',
		variables: obj({ custom: '[string]', predefined: '[string]' }),
		created_at: 'date-time',
		updated_at: 'date-time',
	},
	// The token pages' bullets (no record page): `created_at`, `iat`, `exp` and token info's `expires_in` are Unix seconds.
	tokenInfo: {
		scope: '[string]',
		expires_in: 'integer',
		created_at: 'integer',
		application: obj({ uid: 'string' }),
		operator: obj({ name: 'string' }),
	},
	tokenIntrospection: {
		active: 'boolean',
		scope: 'string',
		client_id: 'string',
		token_type: 'string',
		iat: 'integer',
		exp: 'integer',
	},
};

/** Nested shapes (and a few types) the table sections give in their notes, by resource and field. */
const SHAPES = {
	contact: {
		address: nullableObj({
			line_1: 'string',
			line_2: 'string?',
			city: 'string',
			postal_code: 'string',
			state: 'string?',
			country_alpha2: 'string',
		}),
		identity_check: obj({ required: 'boolean', status: 'string' }),
		metadata: METADATA,
	},
	site: {
		access_hours: obj(Object.fromEntries(DAYS.map((d) => [d, DAY]))),
		address: obj({ line_1: 'string', line_2: 'string?', city: 'string', postal_code: 'string' }),
		directions: obj({ google_maps_url: 'string' }),
		images: IMAGES,
	},
	unitType: {
		_links: obj({ 'sf:new_order': obj({ href: 'string', title: 'string' }) }),
		dimensions: obj({
			height: 'number',
			length: 'number',
			width: 'number',
			measurement_unit: 'string',
		}),
		images: IMAGES,
		prices: { type: 'array', items: PRICE('stripe_price_id') },
		live_prices: { type: 'array', items: PRICE('stripe_price_id') },
	},
	subscription: {
		current_period: obj({ starts_at: 'date-time', ends_at: 'date-time?' }),
		line_items: {
			type: 'array',
			items: obj({
				created_at: 'date-time',
				updated_at: 'date-time',
				item: 'ref',
				price: 'money',
				quantity: 'integer',
				type: 'string',
			}),
		},
	},
	creditNote: {
		line_items: {
			type: 'array',
			items: obj({
				amount: 'money',
				description: 'string',
				discount_total: 'money',
				price: 'money',
				quantity: 'integer',
				tax: 'money',
				type: 'string',
			}),
		},
	},
	deal: {
		line_items: { type: 'array', items: obj({ item: 'ref', quantity: 'integer', type: 'string' }) },
		metadata: METADATA,
	},
	task: { metadata: METADATA },
	contract: {
		_links: obj({
			'sf:show_contract': { ...obj({ href: 'string', title: 'string' }), optional: true },
		}),
	},
	webhookEndpoint: { metadata: METADATA },
};

/** Where the reference has each resource: a resources.md section (table, or prose typed in PROSE) or another file. */
const DOCS = {
	contact: 'Contact',
	site: 'Site',
	unitType: 'Unit type',
	unit: 'Unit',
	unitAllocation: 'Unit allocation',
	tenancy: 'Tenancy',
	subscription: 'Subscription',
	order: 'Order',
	orderLineItem: 'Order line item',
	invoice: 'Invoice',
	creditNote: 'Credit note',
	coupon: 'Coupon',
	deal: 'Deal',
	dealStage: 'Deal stage',
	staff: 'Staff',
	task: 'Task',
	note: 'Note',
	productCategory: 'Product category',
	product: 'Product',
	protectionLevel: 'Protection level',
	contract: 'Contract',
	identityVerification: 'Identity verification',
	timelineEvent: 'Timeline event',
	timelineSource: 'Timeline source',
	timelineTemplate: 'Timeline template',
	tokenInfo: 'Access token',
	tokenIntrospection: 'Access token',
};
/** Resources whose fields the spec lists (its `### Name` under "Resources and their fields"). */
const SPEC = {
	opportunity: 'Opportunity',
	contact: 'Contact',
	order: 'Order',
	invoice: 'Invoice',
	site: 'Site',
	coupon: 'Coupon',
	unitAllocation: 'Unit Allocation',
	note: 'Note',
	timelineEvent: 'Timeline Event',
	priceAdjustment: 'Price Adjustment',
	unitType: 'Unit Type',
};

/** Fields the reference does not list but the spec does (its families absent from the stored docs), typed. */
const SPEC_ONLY = {
	opportunity: {
		id: 'string',
		created_at: 'date-time',
		updated_at: 'date-time',
		status: 'string',
		source: 'string?',
		archived_at: 'date-time?',
		associated_at: 'date-time?',
		contact: 'ref',
		site: 'ref?',
		deal: 'ref?',
		creator: 'ref?',
		line_items: { type: 'array', items: obj({ item: 'ref', quantity: 'integer', type: 'string' }) },
		metadata: METADATA,
	},
	priceAdjustment: {
		id: 'string',
		adjust_on: 'date',
		adjustment: 'any?',
		applies_to: obj({ products: 'boolean', protection_levels: 'boolean', unit_types: 'boolean' }),
		estimation: obj({ pre_amount: 'money', post_amount: 'money' }),
		invoice: 'ref?',
		notification: obj({
			notice_period: 'integer|string?',
			scheduled_at: 'date',
			sent_at: 'date-time?',
		}),
		percentage: 'number',
		status: 'string',
		subscription: 'ref',
		created_at: 'date-time',
		updated_at: 'date-time',
	},
};

// ------------------------------------------------------------------ where the spec and the reference differ

/** Renames a key in place, keeping the order of the others. */
function rename(fields, from, to) {
	if (!(from in fields)) throw new Error(`no field ${from} to rename`);
	const entries = Object.entries(fields).map(([k, v]) => [k === from ? to : k, v]);
	for (const k of Object.keys(fields)) delete fields[k];
	Object.assign(fields, Object.fromEntries(entries));
}
const renamePriceIds = (fields, ...lists) =>
	lists.forEach((l) => rename(fields[l].items.fields, 'stripe_price_id', 'payments_price_id'));
const PAYMENTS_NAMING =
	'The spec names the payment processor ids payments_* where it lists them (contact, unit type and its prices); the same naming is used where only the reference lists such a field (stripe_*).';
const NULL_UNION =
	'Nullable when either source shows null: the reference says a missing null note proves nothing, and the spec marks null only where its source showed it.';

/** Each point where the field list followed differs from the reference's, with what it does to the fields. */
const DECISIONS = [
	{
		resource: '*',
		field: 'money in webhook payloads',
		docs: '{amount, formatted} in the event schemas',
		spec: '{amount, currency, formatted} everywhere',
		followed: 'spec',
	},
	{
		resource: 'contact',
		field: 'payments_customer_id',
		docs: 'stripe_customer_id',
		spec: 'payments_customer_id',
		followed: 'spec',
		apply: (f) => rename(f, 'stripe_customer_id', 'payments_customer_id'),
	},
	{
		resource: 'contact',
		field: 'full_name',
		docs: 'string or null',
		spec: 'string',
		followed: 'docs',
		note: NULL_UNION,
	},
	{
		resource: 'contact',
		field: 'address',
		docs: 'object or null (null seen)',
		spec: 'object ("present on the contact"; inner shape not shown)',
		followed: 'docs',
		note: NULL_UNION,
	},
	{
		resource: 'site',
		field: 'directions.maps_url',
		docs: 'directions.google_maps_url',
		spec: 'directions.maps_url',
		followed: 'spec',
		apply: (f) => rename(f.directions.fields, 'google_maps_url', 'maps_url'),
	},
	{
		resource: 'unitType',
		field: 'payments_product_id',
		docs: 'stripe_product_id',
		spec: 'payments_product_id',
		followed: 'spec',
		apply: (f) => rename(f, 'stripe_product_id', 'payments_product_id'),
	},
	{
		resource: 'unitType',
		field: 'prices[].payments_price_id, live_prices[].payments_price_id',
		docs: 'stripe_price_id',
		spec: 'payments_price_id',
		followed: 'spec',
		apply: (f) => renamePriceIds(f, 'prices', 'live_prices'),
	},
	{
		resource: 'unitType',
		field: 'live_prices',
		docs: 'seed only, in no stored docs example',
		spec: 'listed',
		followed: 'spec',
	},
	{
		resource: 'order',
		field: 'email_notifications.payment_details',
		docs: 'absent (booking_confirmation, move_in_day only)',
		spec: 'listed',
		followed: 'spec',
		apply: (f) => Object.assign(f.email_notifications.fields, { payment_details: t('boolean') }),
	},
	{
		resource: 'unitAllocation',
		field: 'granted_access_at, reserved_at',
		docs: 'date-time, nullable ?',
		spec: 'date-time',
		followed: 'docs',
		note: NULL_UNION,
	},
	{
		resource: 'invoice',
		field: 'updated_at',
		docs: 'not listed',
		spec: 'not in the field table; the invoice list sorts by updated_at and filters on updated windows',
		followed: 'spec',
		note: 'Kept: a record sorted and filtered by updated_at carries it.',
		apply: (f) => Object.assign(f, { updated_at: t('date-time') }),
	},
	{
		resource: 'subscription',
		field: 'payments_subscription_id, payments_subscription_schedule_id',
		docs: 'stripe_subscription_id, stripe_subscription_schedule_id',
		spec: 'fields not shown',
		followed: 'spec naming',
		note: PAYMENTS_NAMING,
		apply: (f) => {
			rename(f, 'stripe_subscription_id', 'payments_subscription_id');
			rename(f, 'stripe_subscription_schedule_id', 'payments_subscription_schedule_id');
		},
	},
	{
		resource: 'product',
		field: 'prices[].payments_price_id',
		docs: 'stripe_price_id',
		spec: 'fields not shown',
		followed: 'spec naming',
		note: PAYMENTS_NAMING,
		apply: (f) => renamePriceIds(f, 'prices'),
	},
	{
		resource: 'protectionLevel',
		field: 'payments_product_id, prices[].payments_price_id',
		docs: 'stripe_product_id, stripe_price_id',
		spec: 'fields not shown',
		followed: 'spec naming',
		note: PAYMENTS_NAMING,
		apply: (f) => {
			rename(f, 'stripe_product_id', 'payments_product_id');
			renamePriceIds(f, 'prices');
		},
	},
	{
		resource: 'task',
		field: 'assignee, site',
		docs: 'ref',
		spec: 'fields not shown',
		followed: 'docs, nullable',
		note: 'Optional on create (endpoints.md, create a task), so a task may have none; null assumed.',
		apply: (f) => {
			f.assignee.nullable = true;
			f.site.nullable = true;
		},
	},
	{
		resource: 'timelineEvent',
		field: 'external',
		docs: '{id, url}',
		spec: '{id: string, url: string}; which create body members are required: not shown',
		followed: 'spec, nullable',
		note: 'An event created without it has none; null assumed, as for the links not supplied.',
		apply: (f) => {
			f.external.nullable = true;
		},
	},
	{
		resource: 'priceAdjustment',
		field: 'notification.scheduled_at',
		docs: 'family absent',
		spec: 'date',
		followed: 'spec, nullable',
		note: 'With notice_period null the customer is not notified, so nothing is scheduled; null assumed.',
		apply: (f) => {
			f.notification.fields.scheduled_at.nullable = true;
		},
	},
	{
		resource: 'opportunity',
		field: '*',
		docs: 'family absent from the stored docs (seed only)',
		spec: 'field table',
		followed: 'spec',
	},
	{
		resource: 'opportunity',
		field: 'line_items[]',
		docs: 'not found',
		spec: 'each references a unit type or a protection level',
		followed: 'assumed',
		note: 'Shaped as deal line items ({item, quantity, type}), as resources.md suggests.',
	},
	{
		resource: 'priceAdjustment',
		field: '*',
		docs: 'family absent from the stored docs (seed only)',
		spec: 'field table',
		followed: 'spec',
	},
	{
		resource: 'contractTemplate',
		field: '*',
		docs: 'only referenced by id; field list not stored',
		spec: 'fields not shown',
		followed: 'assumed',
		note: 'id, name, created_at, updated_at, as on deal stages.',
	},
	{
		resource: 'tokenInfo',
		field: 'expires_in, application',
		docs: 'absolute Unix time (typed any); {uid}',
		spec: 'not shown',
		followed: 'docs, nullable',
		note: 'A static access token has no expiry and no application: null assumed.',
		apply: (f) => {
			f.expires_in.nullable = true;
			f.application.nullable = true;
		},
	},
	{
		resource: 'tokenIntrospection',
		field: 'client_id, exp',
		docs: 'string; Unix seconds',
		spec: 'not shown',
		followed: 'docs, nullable',
		note: 'A static access token has no client and no expiry: null assumed.',
		apply: (f) => {
			f.client_id.nullable = true;
			f.exp.nullable = true;
		},
	},
];

// ------------------------------------------------------------------ the file

const between = (text, from, to) =>
	text.slice(text.indexOf(from), to ? text.indexOf(to) : undefined);

function build() {
	const docs = sections(between(read(RESOURCES_MD), '## 2. Objects'));
	const hooks = sections(read(WEBHOOKS_MD));
	const spec = sections(
		between(read(SPEC_MD), '## Resources and their fields', '## States and transitions'),
	);
	const resources = {};
	const add = (name, source, fields) => (resources[name] = { source, fields });

	for (const [name, heading] of Object.entries(DOCS)) {
		const section = docs[heading];
		if (!section) throw new Error(`resources.md has no section ${heading}`);
		const prose = PROSE[name];
		const tokens = name.startsWith('token');
		const fields = fieldsOf(
			section,
			tokens ? undefined : prose,
			`resources.md § ${heading}`,
			tokens ? prose : undefined,
		);
		for (const [field, shape] of Object.entries(SHAPES[name] ?? {})) {
			if (!(field in fields)) throw new Error(`${name}.${field}: not in resources.md § ${heading}`);
			fields[field] = t(shape);
		}
		add(name, `resources.md § ${heading} (${prose ? 'prose' : 'table'})`, fields);
	}
	const endpoint = fieldsOf(hooks['Endpoint object'], undefined, 'webhooks.md § Endpoint object');
	for (const [field, shape] of Object.entries(SHAPES.webhookEndpoint)) endpoint[field] = t(shape);
	add('webhookEndpoint', 'webhooks.md § Endpoint object (table)', endpoint);
	for (const [name, typed] of Object.entries(SPEC_ONLY)) {
		const listed = specNames(spec[SPEC[name]]);
		const written = Object.keys(typed);
		if (listed.join() !== [...written].sort().join())
			throw new Error(`${name}: spec lists ${listed}, typed ${written}`);
		add(
			name,
			`spec § ${SPEC[name]} (table)`,
			Object.fromEntries(Object.entries(typed).map(([k, v]) => [k, t(v)])),
		);
	}
	add('contractTemplate', 'assumed (see differences)', {
		id: t('string'),
		name: t('string'),
		created_at: t('date-time'),
		updated_at: t('date-time'),
	});

	const differences = DECISIONS.map(({ apply, ...difference }) => {
		apply?.(resources[difference.resource]?.fields);
		return difference;
	});
	// Whatever the spec lists for a resource the reference also has, the fields followed now list, and nothing else.
	for (const [name, heading] of Object.entries(SPEC)) {
		const listed = specNames(spec[heading]);
		const have = Object.keys(resources[name].fields).sort();
		const extra = have.filter(
			(f) =>
				!listed.includes(f) &&
				!differences.some((d) => d.resource === name && d.field.split(', ').includes(f)),
		);
		const missing = listed.filter((f) => !have.includes(f));
		if (extra.length || missing.length)
			throw new Error(
				`${name}: spec and fields differ, undecided: extra ${extra}, missing ${missing}`,
			);
	}
	return {
		about:
			'Documented fields of every record the API returns, by node resource. Written by scripts/documentedFields.mjs from the API reference notes (resources.md, webhooks.md) and the spec; read by sandbox/test/documentedFields.test.ts. Types: string, integer, number, boolean, date-time (ISO 8601 with a zone), date (YYYY-MM-DD), ref ({id}), money ({amount, currency, formatted}), array (items), object (fields: closed, every field present unless `when` or `optional`; values: free keys), any. `nullable`: null allowed. `when`: present exactly while the sibling field equals the value.',
		resources: Object.fromEntries(Object.entries(resources).sort(([a], [b]) => a.localeCompare(b))),
		differences,
	};
}

/** Top-level field names of a spec section: its table's first column, or its prose's backticked names. */
function specNames(section) {
	const rows = tableRows(section);
	return (rows.length ? rows.flatMap(([names]) => names) : [...proseNames(section)]).sort();
}

writeFileSync(OUT, `${JSON.stringify(build(), null, '\t')}\n`);
console.log(`wrote ${OUT.slice(REPO.length + 1)}`);
