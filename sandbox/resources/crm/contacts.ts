/**
 * Contacts: list (filters, fuzzy search, derived status), create, get, update, delete.
 * `status` and `tenancies_count` are derived from the `tenancies` collection on every render.
 */
import { conflict, invalidUrlParam } from '../../core/errors';
import type { ApiRecord, RequestContext, ResourceModule, SandboxCore } from '../../core/types';
import type { FieldSpec, Schema } from '../../core/validate';
import {
	contactStatus,
	CREATED,
	daysAgo,
	later,
	nowIso,
	present,
	refId,
	safeAll,
	tenanciesOf,
	TIME_WINDOWS,
	validate,
	withMergedMetadata,
} from './shared';
import { VERIFICATIONS } from './identityVerifications';

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
const STATUSES = ['lead', 'customer', 'churned'];

const nullableString: FieldSpec = { type: 'string', nullable: true };
const enumOf = (values: string[]): FieldSpec => ({ type: 'string', enum: values, nullable: true });

const ADDRESS: FieldSpec = {
	type: 'object',
	nullable: true,
	fields: {
		line_1: nullableString,
		line_2: nullableString,
		city: nullableString,
		postal_code: nullableString,
		state: nullableString,
		country_alpha2: { type: 'string', pattern: /^[A-Z]{2}$/, nullable: true },
	},
};

const FIELDS: Schema = {
	email: { type: 'string', format: 'email' },
	full_name: nullableString,
	phone_number: nullableString,
	tax_id: nullableString,
	company_registration_number: nullableString,
	address: ADDRESS,
	type: enumOf(CONTACT_TYPES),
	marketing_source: enumOf(MARKETING_SOURCES),
	source: enumOf(CONTACT_SOURCES),
	use_case: enumOf(USE_CASES),
	metadata: { type: 'metadata' },
};
const CREATE: Schema = { ...FIELDS, email: { type: 'string', format: 'email', required: true } };
const UPDATE: Schema = FIELDS;

const ADDRESS_KEYS = ['line_1', 'line_2', 'city', 'postal_code', 'state', 'country_alpha2'];

/** A full address object (every member present, missing ones null), or null. */
export function normaliseAddress(value: unknown): Record<string, unknown> | null {
	if (!value || typeof value !== 'object') return null;
	const input = value as Record<string, unknown>;
	return Object.fromEntries(ADDRESS_KEYS.map((k) => [k, input[k] ?? null]));
}

/** Builds a stored contact (every documented field present) from create-body members. */
export function buildContact(
	core: SandboxCore,
	id: string,
	fields: Record<string, unknown>,
	at = nowIso(core),
): ApiRecord {
	return {
		id,
		email: fields.email as string,
		full_name: (fields.full_name as string | null | undefined) ?? null,
		phone_number: (fields.phone_number as string | null | undefined) ?? null,
		tax_id: (fields.tax_id as string | null | undefined) ?? null,
		company_registration_number:
			(fields.company_registration_number as string | null | undefined) ?? null,
		address: normaliseAddress(fields.address),
		type: (fields.type as string | null | undefined) ?? null,
		marketing_source: (fields.marketing_source as string | null | undefined) ?? null,
		source: (fields.source as string | null | undefined) ?? null,
		use_case: (fields.use_case as string | null | undefined) ?? null,
		metadata: (fields.metadata as Record<string, unknown> | undefined) ?? {},
		payments_customer_id: (fields.payments_customer_id as string | null | undefined) ?? null,
		identity_check: (fields.identity_check as Record<string, unknown> | undefined) ?? {
			required: false,
			status: 'not_attempted',
		},
		created_at: at,
		updated_at: at,
	};
}

/** Field order of the rendered contact; `status` and `tenancies_count` are derived. */
function render(record: ApiRecord, core: SandboxCore): ApiRecord {
	return {
		...record,
		status: contactStatus(core, record.id),
		tenancies_count: tenanciesOf(core, record.id).length,
	};
}

function statusFilter(ctx: RequestContext): string[] | undefined {
	const raw = ctx.query.status;
	if (raw === undefined || raw === '') return undefined;
	const values = raw
		.split(',')
		.map((v) => v.trim())
		.filter(Boolean);
	const bad = values.filter((v) => !STATUSES.includes(v));
	if (bad.length) {
		throw invalidUrlParam([
			{
				message: `status must be one of: ${STATUSES.join(', ')} (got ${bad.join(', ')})`,
				pointer: 'status',
			},
		]);
	}
	return values;
}

export const contactsModule: ResourceModule = {
	register(api) {
		api.collection({ name: 'contacts', key: 'contact', prefix: 'con_', scope: 'contact', render });

		api.route(
			'GET',
			'/2025-09/contacts',
			{ scopes: ['public.contact:read'], formats: ['text/csv'] },
			(ctx) => {
				const core = ctx.sandbox;
				let records = core.all('contacts');
				// The derived status is filtered here (it is not stored); the remaining filters go to the list engine.
				const statuses = statusFilter(ctx);
				if (statuses) records = records.filter((r) => statuses.includes(contactStatus(core, r.id)));
				const query = { ...ctx.query };
				delete query.status;
				return core.list({ ...ctx, query }, 'contacts', records, {
					sortBy: ['created_at', 'updated_at', 'full_name'],
					filters: {
						email: { field: 'email' },
						type: { field: 'type', values: CONTACT_TYPES, unspecified: true },
						source: { field: 'source', values: CONTACT_SOURCES, unspecified: true },
						marketing_source: {
							field: 'marketing_source',
							values: MARKETING_SOURCES,
							unspecified: true,
						},
						use_case: { field: 'use_case', values: USE_CASES, unspecified: true },
					},
					windows: TIME_WINDOWS,
					metadata: true,
					search: { param: 'search', fields: ['full_name', 'email', 'phone_number'] },
				});
			},
		);

		api.route('POST', '/2025-09/contacts', { scopes: ['public.contact:write'] }, (ctx) => {
			const core = ctx.sandbox;
			const body = validate(ctx.body, CREATE);
			const record = core.insert('contacts', buildContact(core, core.newId('con_'), body));
			core.emit('contact.created', record);
			return core.single(ctx, 'contacts', record, CREATED);
		});

		api.route('GET', '/2025-09/contacts/:contact_id', { scopes: ['public.contact:read'] }, (ctx) =>
			ctx.sandbox.single(ctx, 'contacts', ctx.sandbox.mustGet('contacts', ctx.params.contact_id)),
		);

		api.route(
			'PATCH',
			'/2025-09/contacts/:contact_id',
			{ scopes: ['public.contact:write'] },
			(ctx) => {
				const core = ctx.sandbox;
				const existing = core.mustGet('contacts', ctx.params.contact_id);
				const body = validate(ctx.body, UPDATE);
				const changes = withMergedMetadata(existing, present(body, Object.keys(UPDATE)));
				if ('address' in changes) changes.address = normaliseAddress(changes.address);
				const record = core.update('contacts', ctx.params.contact_id, changes);
				core.emit('contact.updated', record);
				return core.single(ctx, 'contacts', record);
			},
		);

		api.route(
			'DELETE',
			'/2025-09/contacts/:contact_id',
			{ scopes: ['public.contact:write'] },
			(ctx) => {
				const core = ctx.sandbox;
				const contact = core.mustGet('contacts', ctx.params.contact_id);
				const status = contactStatus(core, contact.id);
				if (status !== 'lead') {
					throw conflict(
						`Contact ${contact.id} cannot be deleted: only leads can be deleted (status is ${status})`,
					);
				}
				if (safeAll(core, 'invoices').some((inv) => refId(inv.contact) === contact.id)) {
					throw conflict(`Contact ${contact.id} cannot be deleted: it has invoices`);
				}
				core.remove('contacts', contact.id);
				return core.success(ctx, `Contact ${contact.id} deleted`);
			},
		);
	},
};

/**
 * Index ranges of the seeded contacts. The billing seed runs after the CRM one and picks contacts by index in this
 * order: 0..14 become customers (an active tenancy each), 15..19 churned (only ended tenancies), 20..39 stay leads
 * (no tenancies, no invoices: they can be deleted); 0..4 have invoices.
 */
export const DEMO_CONTACTS = {
	count: 40,
	customers: [0, 14],
	churned: [15, 19],
	leads: [20, 39],
	withInvoices: [0, 4],
} as const;

const FIRST = [
	'Olivia',
	'Jack',
	'Amelia',
	'Harry',
	'Isla',
	'Oscar',
	'Ava',
	'George',
	'Mia',
	'Noah',
];
const LAST = [
	'Smith',
	'Jones',
	'Taylor',
	'Brown',
	'Williams',
	'Wilson',
	'Johnson',
	'Davies',
	'Patel',
	'Wright',
	'Walker',
	'Khan',
];
// Every enum value plus null (the "unspecified" filter value), cycled over the contacts.
const TYPES = [...CONTACT_TYPES, null];
const SOURCES = [...CONTACT_SOURCES, null];
const MARKETING = [...MARKETING_SOURCES, null];
const USES = [...USE_CASES, null];
const CITIES = ['London', 'Manchester', 'Leeds', 'Bristol', 'Glasgow'];
const pad = (n: number, width = 3) => String(n).padStart(width, '0');

/** Demo seed: 40 contacts cycling through every type, source, marketing source and use case (and null). */
export function seedContacts(core: SandboxCore): ApiRecord[] {
	const out: ApiRecord[] = [];
	for (let i = 0; i < DEMO_CONTACTS.count; i++) {
		const first = FIRST[i % FIRST.length];
		const last = LAST[(i * 7 + Math.floor(i / FIRST.length)) % LAST.length];
		const type = TYPES[i % TYPES.length];
		const company = type === 'company';
		const created = daysAgo(core, 200 - i * 4, 9 + (i % 8), (i * 7) % 60);
		const metadata: Record<string, unknown> = {};
		if (i % 3 === 0) metadata.crm_ref = `CRM-${1000 + i}`;
		if (i % 5 === 0) metadata.tier = 'gold';
		else if (i % 5 === 1) metadata.tier = 'silver';
		const record = buildContact(
			core,
			core.newId('con_'),
			{
				email: `${first}.${last}${i}@example.com`.toLowerCase(),
				full_name: company ? `${last} & Co Ltd` : `${first} ${last}`,
				phone_number: i % 4 === 3 ? null : `+44 7700 9${pad(i, 5)}`,
				tax_id: company ? `GB${pad(100000000 + i * 7919, 9)}` : null,
				company_registration_number: company ? pad(1000000 + i * 31, 8) : null,
				address:
					i % 2 === 0
						? {
								line_1: `${10 + i} High Street`,
								line_2: i % 4 === 0 ? `Flat ${i + 1}` : null,
								city: CITIES[i % CITIES.length],
								postal_code: `E${1 + (i % 9)} ${i % 10}AB`,
								state: null,
								country_alpha2: 'GB',
							}
						: null,
				type,
				source: SOURCES[i % SOURCES.length],
				marketing_source: MARKETING[(i * 5) % MARKETING.length],
				use_case: USES[i % USES.length],
				metadata,
				payments_customer_id: i < 20 ? `cus_demo${pad(i, 10)}` : null,
				identity_check: { required: i < 20, status: VERIFICATIONS[i]?.[0] ?? 'not_attempted' },
			},
			created,
		);
		record.updated_at = later(created, 24 * (i % 5));
		out.push(core.insert('contacts', record));
	}
	return out;
}
