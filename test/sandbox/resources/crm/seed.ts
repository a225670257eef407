/**
 * Deterministic CRM data for the `demo` seed (the `empty` seed creates nothing).
 *
 * Coordination with the billing seed, which runs AFTER this one (CRM modules come first in the registry) and
 * picks contacts by index in `core.all('contacts')` order (= the order below, see `DEMO_CONTACTS`):
 *   - contacts[0..14]  are meant to become customers (billing gives each at least one active tenancy),
 *   - contacts[15..19] are meant to become churned   (billing gives them only ended tenancies),
 *   - contacts[20..39] stay leads (no tenancies, no invoices: they can be deleted),
 *   - contacts[0..4]   have invoices.
 * CRM records that point at billing records (sites, unit types, tenancies) are linked by `linkDemo`, run by
 * `crmLinksModule` (registered after the billing modules) and again at the end of this seed (a no-op when the
 * billing records do not exist yet). Until then those references are null.
 *
 * Dates are relative to `core.now()` at fixed hours, so the same clock gives the same data.
 */
import type { ApiRecord, Ref, ResourceModule, SandboxCore } from '../../core/types';
import { buildContact, CONTACT_SOURCES, CONTACT_TYPES, MARKETING_SOURCES, USE_CASES } from './contacts';
import { buildDeal, valueEstimate } from './deals';
import { buildNote } from './notes';
import { markArchivedBefore, markConverted, opportunityState } from './opportunities';
import { daysAgo, perSandbox, refId, safeAll } from './shared';
import { buildTask } from './tasks';
import { buildEvent, renderMessage } from './timeline';

/** Index ranges of the seeded contacts (see the comment at the top). */
export const DEMO_CONTACTS = {
	count: 40,
	customers: [0, 14],
	churned: [15, 19],
	leads: [20, 39],
	withInvoices: [0, 4],
} as const;

const FIRST = ['Olivia', 'Jack', 'Amelia', 'Harry', 'Isla', 'Oscar', 'Ava', 'George', 'Mia', 'Noah'];
const LAST = ['Smith', 'Jones', 'Taylor', 'Brown', 'Williams', 'Wilson', 'Johnson', 'Davies', 'Patel', 'Wright', 'Walker', 'Khan'];
// Every enum value plus null (the "unspecified" filter value), cycled over the contacts.
const TYPES = [...CONTACT_TYPES, null];
const SOURCES = [...CONTACT_SOURCES, null];
const MARKETING = [...MARKETING_SOURCES, null];
const USES = [...USE_CASES, null];
const CITIES = ['London', 'Manchester', 'Leeds', 'Bristol', 'Glasgow'];

/** Identity verifications of contacts 0..7: [status, error_code]. */
const VERIFICATIONS: Array<[string, string | null]> = [
	['succeeded', null],
	['succeeded', null],
	['failed', 'document_expired'],
	['succeeded', null],
	['processing', null],
	['failed', 'selfie_mismatch'],
	['succeeded', null],
	['processing', null],
];

const pad = (n: number, width = 3) => String(n).padStart(width, '0');
const later = (iso: string, hours: number) => new Date(Date.parse(iso) + hours * 3_600_000).toISOString();

/** Ids of the demo records by role, for the link phase (one per sandbox). */
interface DemoIds {
	deals: string[];
	opportunities: string[];
	tasks: string[];
	events: string[];
	contracts: string[];
}
const demoState = perSandbox<{ ids?: DemoIds }>(() => ({}));

function insert(core: SandboxCore, collection: string, record: ApiRecord): ApiRecord {
	return core.insert(collection, record);
}

function seedStaff(core: SandboxCore): ApiRecord[] {
	const people = [
		['Alex Morgan', 'alex.morgan@acme-storage.test'],
		['Priya Shah', 'priya.shah@acme-storage.test'],
		['Tom Becker', 'tom.becker@acme-storage.test'],
		['Lucy Evans', 'lucy.evans@acme-storage.test'],
	];
	return people.map(([name, email], i) => {
		const at = daysAgo(core, 400 - i * 10, 8);
		return insert(core, 'staff', { id: core.newId('staff_'), name, email, created_at: at, updated_at: at });
	});
}

function seedStages(core: SandboxCore): ApiRecord[] {
	const stages: Array<[string, number]> = [
		['New enquiry', 1],
		['Viewing booked', 2],
		['Quote sent', 3],
		['Negotiation', 5],
	];
	return stages.map(([name, position], i) => {
		const at = daysAgo(core, 380 - i, 8, 30);
		return insert(core, 'stages', { id: core.newId('dstg_'), name, position, created_at: at, updated_at: at });
	});
}

function seedContacts(core: SandboxCore): ApiRecord[] {
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
		out.push(insert(core, 'contacts', record));
	}
	return out;
}

export function seedDemo(core: SandboxCore) {
	const staff = seedStaff(core);
	const stages = seedStages(core);
	const contacts = seedContacts(core);
	const staffRef = (i: number): Ref => ({ id: staff[i % staff.length].id });
	const contactRef = (i: number): Ref => ({ id: contacts[i].id });
	const ids: DemoIds = { deals: [], opportunities: [], tasks: [], events: [], contracts: [] };

	// Deals: [contact index, status, stage index, assignee index | null, lost_reason]
	const deals: Array<[number, string, number, number | null, string | null]> = [
		[20, 'open', 0, 0, null], // d0: open; opportunity o0 (same contact) can be associated
		[21, 'open', 1, 1, null], // d1
		[22, 'open', 2, 2, null], // d2: archived opportunity o2 of the same contact
		[23, 'open', 3, 3, null], // d3: associated with o3
		[24, 'open', 0, null, null], // d4: associated with o4, unassigned
		[25, 'open', 1, 0, null], // d5: o6 (same contact) was converted before
		[26, 'won', 3, 1, null], // d6: won, associated with o8
		[27, 'lost', 2, 2, 'price_concerns'], // d7: lost
		[5, 'won', 3, 3, null], // d8: won (a customer)
		[28, 'lost', 1, 0, 'chose_competitor'], // d9: lost
		[29, 'open', 2, 1, null], // d10
		[30, 'open', 0, 2, null], // d11
	];
	const dealRecords = deals.map(([c, status, stage, assignee, lostReason], i) => {
		const created = daysAgo(core, 60 - i * 3, 10 + (i % 6));
		const record = buildDeal(
			core,
			core.newId('deal_'),
			{
				name: `${contacts[c].full_name as string} – ${['5x5', '10x10', '10x15', '20x10'][i % 4]} unit`,
				contact: contactRef(c),
				stage: { id: stages[stage].id },
				assignee: assignee === null ? null : staffRef(assignee),
				creator: staffRef(i),
				status,
				lost_reason: lostReason,
				note: i % 3 === 0 ? `Approx. £${40 + i * 5} per month` : null,
				starts_at: status === 'open' ? daysAgo(core, -(7 + i * 2), 9) : null,
				metadata: i % 2 === 0 ? { campaign: i % 4 === 0 ? 'spring' : 'summer' } : {},
			},
			created,
		);
		record.updated_at = later(created, 6 + i);
		ids.deals.push(record.id);
		return insert(core, 'deals', record);
	});

	// Opportunities: [contact index, status, source, deal index | null, converted before, archived before association]
	const opps: Array<[number, string, string | null, number | null, boolean, boolean]> = [
		[20, 'open', 'incomplete_booking', null, false, false], // o0: associate with d0 works
		[21, 'open', 'price_reveal', null, false, false], // o1: associate with d1 works
		[22, 'archived', 'quote_requested', null, false, false], // o2: archived; associate with d2 works, disassociate → archived
		[23, 'associated', 'unit_type_interest', 3, false, false], // o3: associated with d3
		[24, 'associated', 'popup_form', 4, false, false], // o4: associated with d4
		[31, 'open', 'public_api', null, false, false], // o5: contact without deals (associate → 409 contact mismatch)
		[25, 'open', 'incomplete_booking', null, true, false], // o6: converted before (associate with d5 → 409)
		[32, 'archived', 'pre_opening_lead', null, false, false], // o7: archived
		[26, 'associated', 'quote_requested', 6, false, true], // o8: associated with d6, archived before (disassociate → archived)
		[33, 'open', null, null, false, false], // o9: unknown origin
	];
	const state = opportunityState.get(core);
	state.converted.clear();
	state.archivedBefore.clear();
	opps.forEach(([c, status, source, deal, converted, archivedBefore], i) => {
		const created = daysAgo(core, 50 - i * 3, 11 + (i % 5));
		const archivedAt = status === 'archived' || archivedBefore ? later(created, 48) : null;
		const associatedAt = status === 'associated' ? later(created, 72) : null;
		const storefront = source !== null && ['incomplete_booking', 'price_reveal', 'quote_requested', 'popup_form', 'unit_type_interest'].includes(source);
		const record: ApiRecord = {
			id: core.newId('opp_'),
			status,
			source,
			archived_at: status === 'archived' ? archivedAt : null,
			associated_at: associatedAt,
			contact: contactRef(c),
			site: null,
			deal: deal === null ? null : { id: dealRecords[deal].id },
			creator: storefront ? contactRef(c) : staffRef(i),
			line_items: [],
			metadata: i % 3 === 0 ? { utm_source: 'google' } : {},
			created_at: created,
			updated_at: associatedAt ?? archivedAt ?? created,
		};
		insert(core, 'opportunities', record);
		ids.opportunities.push(record.id);
		if (converted) markConverted(core, record.id);
		if (archivedBefore && archivedAt) markArchivedBefore(core, record.id, archivedAt);
	});

	// Tasks: completed ones are 2, 5, 7, 9; task 9 is unassigned.
	const titles = [
		'Call back about a larger unit',
		'Send quote for 10x10',
		'Chase unsigned contract',
		'Book a viewing',
		'Check insurance details',
		'Confirm move-in date',
		'Follow up on overdue invoice',
		'Update company details',
		'Arrange key collection',
		'Welcome call',
	];
	const taskRecords = titles.map((title, i) => {
		const created = daysAgo(core, 30 - i * 2, 9 + (i % 7));
		const completed = [2, 5, 7, 9].includes(i);
		const record = buildTask(
			core,
			core.newId('task_'),
			{
				title,
				description: i % 2 === 0 ? `<p>${title} for ${contacts[i * 3].full_name as string}.</p>` : null,
				assignee: i === 9 ? null : staffRef(i),
				creator: staffRef(i + 1),
				resource: contactRef(i * 3),
				status: completed ? 'completed' : 'open',
				due_at: i === 4 ? null : daysAgo(core, 10 - i * 2, 17),
				completed_at: completed ? later(created, 26) : null,
				metadata: i % 3 === 0 ? { priority: 'high' } : {},
			},
			created,
		);
		record.updated_at = completed ? (record.completed_at as string) : created;
		ids.tasks.push(record.id);
		return insert(core, 'tasks', record);
	});

	// Notes: one on each of contacts 0..9, two on tasks 0 and 1.
	for (let i = 0; i < 12; i++) {
		const onTask = i >= 10;
		const created = daysAgo(core, 40 - i * 3, 14, i * 4);
		insert(
			core,
			'notes',
			buildNote(
				core,
				core.newId('note_'),
				{
					content: onTask ? `Progress update on "${taskRecords[i - 10].title as string}"` : `Spoke with ${contacts[i].full_name as string} about their storage needs.`,
					resource: onTask ? { id: taskRecords[i - 10].id } : contactRef(i),
					creator: staffRef(i),
					metadata: i % 4 === 0 ? { channel: 'phone' } : {},
				},
				created,
			),
		);
	}

	// Timeline sources and templates.
	const sources = [
		['Stora', 'https://stora.co', true],
		['Acme Gate Control', 'https://gates.example.com', false],
		['CallDesk', 'https://calldesk.example.com', false],
	].map(([name, website_url, global], i) => {
		const at = daysAgo(core, 300 - i * 20, 12);
		return insert(core, 'sources', { id: core.newId('tsrc_'), name, website_url, global, created_at: at, updated_at: at });
	});
	const templates = [
		{
			name: 'Gate access',
			message: '{{ contact }} accessed {{ site }} through {{ gate }}{% if global_context %} (logged by Stora){% endif %}',
			global: false,
			variables: { custom: ['gate'], predefined: ['contact', 'site'] },
		},
		{
			name: 'Call logged',
			message: 'Call with {{ contact }} about {{ topic }} ({{ duration }} min)',
			global: false,
			variables: { custom: ['topic', 'duration'], predefined: ['contact'] },
		},
		{
			name: 'Payment reminder',
			message: 'Payment reminder sent to {{ contact }} for invoice {{ invoice }}',
			global: true,
			variables: { custom: [], predefined: ['contact', 'invoice'] },
		},
	].map((t, i) => {
		const at = daysAgo(core, 250 - i * 30, 12, 30);
		return insert(core, 'templates', { id: core.newId('aetpl_'), ...t, created_at: at, updated_at: at });
	});

	// Timeline events: calls logged on contacts 0..3 (template "Call logged", source CallDesk).
	for (let i = 0; i < 4; i++) {
		const fields: Record<string, unknown> = {
			contact: contactRef(i),
			source: { id: sources[2].id },
			template: { id: templates[1].id },
			variables: { topic: ['access codes', 'billing', 'moving out', 'upgrade'][i], duration: String(3 + i * 4) },
			external: { id: `call-${1000 + i}`, url: `https://calldesk.example.com/calls/${1000 + i}` },
			creator: staffRef(i),
		};
		fields.description = renderMessage(core, templates[1].message as string, fields);
		const record = buildEvent(core, core.newId('aevt_'), fields, daysAgo(core, 20 - i * 4, 15));
		ids.events.push(record.id);
		insert(core, 'timeline_events', record);
	}

	// Identity verifications on contacts 0..7.
	VERIFICATIONS.forEach(([status, errorCode], i) => {
		const created = daysAgo(core, 150 - i * 10, 10);
		insert(core, 'identity_verifications', {
			id: core.newId('idver_'),
			contact: contactRef(i),
			status,
			error_code: errorCode,
			created_at: created,
			updated_at: status === 'processing' ? created : later(created, 1),
		});
	});

	// Contract templates and contracts.
	const contractTemplates = ['Standard storage agreement', 'Business storage agreement'].map((name, i) => {
		const at = daysAgo(core, 365 - i * 30, 9);
		return insert(core, 'contract_templates', { id: core.newId('ctpl_'), name, created_at: at, updated_at: at });
	});
	// [contact index, status, template index]
	const contracts: Array<[number, string, number]> = [
		[0, 'signed', 0],
		[1, 'signed', 1],
		[2, 'pending', 0],
		[3, 'voided', 0],
		[4, 'declined', 1],
		[5, 'deleted', 0],
		[15, 'signed', 0],
		[6, 'pending', 1],
	];
	contracts.forEach(([c, status, tpl], i) => {
		const sent = daysAgo(core, 140 - i * 12, 11);
		const signed = status === 'signed' ? later(sent, 20) : null;
		const record: ApiRecord = {
			id: core.newId('ctr_'),
			name: `${contractTemplates[tpl].name as string} – ${contacts[c].full_name as string}`,
			contact: contactRef(c),
			contract_template: { id: contractTemplates[tpl].id },
			tenancy: null,
			status,
			sent_at: sent,
			signed_at: signed,
			created_at: sent,
			updated_at: signed ?? later(sent, status === 'pending' ? 0 : 30),
		};
		ids.contracts.push(record.id);
		insert(core, 'contracts', record);
	});

	// Keep the roles for the link phase.
	demoState.get(core).ids = ids;
}

/** Sets a stored field without bumping `updated_at` (seed-time links are part of the original data). */
function setStored(core: SandboxCore, collection: string, id: string, changes: Record<string, unknown>) {
	const record = core.get(collection, id);
	if (record) Object.assign(record, changes);
}

/**
 * Links the demo CRM records to billing records once those exist: sites (round robin) on deals, opportunities,
 * tasks and timeline events; a unit type line item (and value estimate) on open deals; each contract's tenancy
 * (the contact's first tenancy). Idempotent; a no-op without billing data.
 */
export function linkDemo(core: SandboxCore) {
	const ids = demoState.get(core).ids;
	if (!ids) return;
	const sites = safeAll(core, 'sites');
	const unitTypes = safeAll(core, 'unit_types');
	if (sites.length) {
		const siteFor = (i: number): Ref => ({ id: sites[i % sites.length].id });
		ids.deals.forEach((id, i) => {
			const deal = core.get('deals', id);
			if (!deal) return;
			const site = siteFor(i);
			const changes: Record<string, unknown> = { site };
			const unitType = unitTypes.find((u) => refId(u.site) === site.id) ?? unitTypes[i % Math.max(1, unitTypes.length)];
			if (unitType && deal.status === 'open') {
				const lineItems = [{ item: { id: unitType.id }, quantity: 1, type: 'unit_type' }];
				changes.line_items = lineItems;
				changes.value_estimate = valueEstimate(core, lineItems);
			}
			setStored(core, 'deals', id, changes);
		});
		ids.opportunities.forEach((id, i) => {
			const site = siteFor(i);
			const unitType = unitTypes.find((u) => refId(u.site) === site.id);
			setStored(core, 'opportunities', id, {
				site,
				line_items: unitType ? [{ item: { id: unitType.id }, quantity: 1, type: 'unit_type' }] : [],
			});
		});
		ids.tasks.forEach((id, i) => setStored(core, 'tasks', id, { site: siteFor(i) }));
		ids.events.forEach((id, i) => setStored(core, 'timeline_events', id, { site: siteFor(i) }));
	}
	const tenancies = safeAll(core, 'tenancies');
	for (const id of ids.contracts) {
		const contract = core.get('contracts', id);
		if (!contract) continue;
		const tenancy = tenancies.find((t) => refId(t.contact) === refId(contract.contact));
		if (tenancy) setStored(core, 'contracts', id, { tenancy: { id: tenancy.id } });
	}
}

export const seedModule: ResourceModule = {
	register() {},
	seed(core, seed) {
		opportunityState.reset(core);
		demoState.reset(core);
		if (seed !== 'demo') return;
		seedDemo(core);
		linkDemo(core);
	},
};

/** Runs `linkDemo` after the billing seed: register it after the billing modules. */
export const crmLinksModule: ResourceModule = {
	register() {},
	seed(core, seed) {
		if (seed === 'demo') linkDemo(core);
	},
};
