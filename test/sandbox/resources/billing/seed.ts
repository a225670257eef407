/**
 * The billing part of the `demo` seed (the `empty` seed adds nothing). Deterministic: ids come from
 * `core.newId`, dates from `core.now()`. Runs after the CRM seed and uses `core.all('contacts')` in order:
 *
 * - contacts[0..14] customers: active tenancy + subscription (even index monthly, odd weekly) + occupied unit;
 *   contact 3's unit is overlocked; contacts 10 and 11 also hold a reserved unit.
 * - contacts[15..19] churned: ended tenancy, cancelled subscription, unit released.
 * - contacts 0..4 have invoices (20, covering every status, type and collection status); 3 credit notes.
 * - price adjustments: 3 drafts (one skips notification) and 1 pending.
 * - 4 sites, 12 unit types, 60 units, 3 protection levels, 3 product categories, 5 products, 3 coupons,
 *   20 orders behind the tenancies + 250 more in every status/source/billing period (270 orders, also without CRM).
 *
 * Records are inserted once in their final form (no `update`, so `updated_at` stays as seeded).
 */
import type { ApiRecord, SandboxCore } from '../../core/types';
import { priceOrder } from './order-line-items';
import { ORDER_SOURCES, ORDER_STATUSES, STOREFRONT } from './orders';
import { estimation, notification } from './price-adjustments';
import {
	BILLING_PERIODS,
	TAX_RATE,
	addDays,
	addMinutes,
	addPeriods,
	dateOnly,
	imageSet,
	iso,
	money,
	priceEntry,
	priceFor,
	startOfDay,
	type PriceEntry,
} from './shared';
import { renewalOnOrAfter } from './subscriptions';
import { livePrices } from './unit-types';

const CUSTOMERS = 15;
const CHURNED = 5;
/** Orders in the demo seed (those behind tenancies included): enough for several pages at limit=100. */
const TOTAL_ORDERS = 270;

const SITES = [
	{ name: 'Acme Storage London Bridge', code: 'LB', city: 'London', line_1: '12 Tooley Street', postal_code: 'SE1 2TU', phone: '+44 20 7946 0001', factor: 1.3, hours: 'weekdays' },
	{ name: 'Acme Storage Manchester Central', code: 'MC', city: 'Manchester', line_1: '80 Great Ancoats Street', postal_code: 'M4 5AB', phone: '+44 161 496 0002', factor: 1, hours: 'always' },
	{ name: 'Acme Storage Bristol Harbourside', code: 'BH', city: 'Bristol', line_1: '3 Canons Way', postal_code: 'BS1 5LL', phone: '+44 117 496 0003', factor: 1.1, hours: 'weekdays' },
	{ name: 'Acme Storage Leeds North', code: 'LN', city: 'Leeds', line_1: '221 Harrogate Road', postal_code: 'LS7 4NY', phone: '+44 113 496 0004', factor: 0.9, hours: 'long' },
];

const UNIT_TYPES = [
	{ name: 'Small locker', slug: 'small-locker', size: '25 sq ft', dims: [5, 5, 7], monthly: 4500, weekly: 1100, deposit: null as number | null },
	{ name: 'Medium room', slug: 'medium-room', size: '50 sq ft', dims: [10, 5, 8], monthly: 8900, weekly: 2200, deposit: 5000 },
	{ name: 'Large room', slug: 'large-room', size: '100 sq ft', dims: [10, 10, 8], monthly: 15900, weekly: 3900, deposit: 10000 },
];
const UNITS_PER_TYPE = 5;

const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

function accessHours(kind: string) {
	return Object.fromEntries(
		DAYS.map((day, i) => {
			if (kind === 'always') return [day, { status: 'twenty_four_hours', open: null, close: null }];
			if (kind === 'weekdays' && i === 6) return [day, { status: 'closed', open: null, close: null }];
			const weekend = i >= 5;
			return [day, { status: 'set_hours', open: weekend ? '09:00' : kind === 'long' ? '06:00' : '08:00', close: weekend ? '17:00' : kind === 'long' ? '22:00' : '20:00' }];
		}),
	);
}

const round100 = (amount: number) => Math.round(amount / 100) * 100;

/** Contacts seeded by the CRM module, or none when that module is missing. */
function contactsOf(core: SandboxCore): ApiRecord[] {
	try {
		return core.all('contacts') ?? [];
	} catch {
		return [];
	}
}

export function seedBilling(core: SandboxCore, seed: string): void {
	if (seed !== 'demo') return;
	const now = core.now();
	const today = startOfDay(now);
	const ago = (days: number, minutes = 0) => iso(addMinutes(addDays(now, -days), -minutes));
	const stamp = (days: number, minutes = 0) => ({ created_at: ago(days, minutes), updated_at: ago(days, minutes) });
	// Units and invoices change after they are built (allocations, credit notes): they are inserted at the end.
	// Everything else is final when built and inserted at once (order pricing reads coupons and products back).
	const deferred: Record<string, ApiRecord[]> = { units: [], invoices: [] };
	const put = (collection: string, record: ApiRecord) => {
		if (deferred[collection]) deferred[collection].push(record);
		else core.insert(collection, record);
		return record;
	};

	/* ------------------------------------------------------------ catalogue */

	const coupons = [
		put('coupons', {
			id: core.newId('cpn_'),
			type: 'percentage',
			percent: 50,
			auto_apply_to: { products: false, protections: false, subscriptions: true, unit_types: true },
			billing_period: 'monthly',
			code: 'HALF3',
			duration: 'repeating',
			months: 3,
			max_redemptions: 100,
			name: 'Half price for 3 months',
			public: true,
			title: '50% off your first 3 months',
			...stamp(400),
		}),
		put('coupons', {
			id: core.newId('cpn_'),
			type: 'amount',
			amount: money(core, 1000),
			auto_apply_to: { products: false, protections: false, subscriptions: false, unit_types: false },
			billing_period: null,
			code: 'TENOFF',
			duration: 'forever',
			months: null,
			max_redemptions: null,
			name: '£10 off',
			public: false,
			title: null,
			created_at: ago(300),
			updated_at: ago(20),
		}),
		put('coupons', {
			id: core.newId('cpn_'),
			type: 'percentage',
			percent: 10,
			auto_apply_to: { products: true, protections: true, subscriptions: true, unit_types: true },
			billing_period: null,
			code: null,
			duration: 'forever',
			months: null,
			max_redemptions: null,
			name: 'Student discount',
			public: true,
			title: '10% off for students',
			...stamp(120),
		}),
	];

	const protectionLevels = [100000, 250000, 500000].map((cover, i) =>
		put('protection_levels', {
			id: core.newId('plvl_'),
			account_code: i === 0 ? null : `PROT-${i + 1}`,
			cover_level: money(core, cover),
			prices: [priceEntry(core, 'monthly', 500 + i * 500), priceEntry(core, 'weekly', 150 + i * 120)],
			public: i < 2,
			payments_product_id: core.newId('prod_'),
			...stamp(500 - i),
		}),
	);

	const categories = ['Packing supplies', 'Security', 'Services'].map((name, i) =>
		put('product_categories', { id: core.newId('pcat_'), name, ...stamp(500 - i) }),
	);

	const sites = SITES.map((s, i) => {
		const id = core.newId('site_');
		return put('sites', {
			id,
			access_hours: accessHours(s.hours),
			address: { city: s.city, line_1: s.line_1, line_2: i % 2 ? null : 'Unit 4', postal_code: s.postal_code },
			created_at: ago(900 - i * 100),
			updated_at: ago(30 - i * 5),
			opened_at: ago(880 - i * 100),
			description: `Secure, clean self storage in ${s.city} with drive-up access.`,
			name: s.name,
			phone: s.phone,
			directions: { maps_url: `https://maps.google.com/?q=${encodeURIComponent(`${s.line_1}, ${s.city} ${s.postal_code}`)}` },
			images: { default: i < 3 ? imageSet(id, 'site-photo.png') : null },
		});
	});

	const productSpecs = [
		{ name: 'Disc padlock', category: 1, charge: 'one_time', amount: 999, sku: 'LOCK-DISC' },
		{ name: 'Large double-wall box', category: 0, charge: 'one_time', amount: 450, sku: 'BOX-L' },
		{ name: 'Bubble wrap roll', category: 0, charge: 'one_time', amount: 1200, sku: null },
		{ name: 'Parking space', category: 2, charge: 'recurring', amount: 3500, sku: 'PARK' },
		{ name: 'Van hire (half day)', category: 2, charge: 'one_time', amount: 2500, sku: 'VAN-HALF' },
	];
	const products = productSpecs.map((p, i) =>
		put('products', {
			id: core.newId('prod_'),
			name: p.name,
			description: `${p.name} available at reception.`,
			accounting_code: `PRD-${100 + i}`,
			sku: p.sku,
			category: { id: categories[p.category].id },
			charge_type: p.charge,
			prices:
				p.charge === 'one_time'
					? [priceEntry(core, 'one_time', p.amount)]
					: [priceEntry(core, 'monthly', p.amount), priceEntry(core, 'weekly', round100(p.amount / 4))],
			site: { id: sites[i % sites.length].id },
			...stamp(450 - i),
		}),
	);
	const parking = products[3];

	const unitTypes: ApiRecord[] = [];
	const units: ApiRecord[] = [];
	sites.forEach((site, s) => {
		UNIT_TYPES.forEach((t, k) => {
			const id = core.newId('utype_');
			const prices: PriceEntry[] = [
				priceEntry(core, 'monthly', round100(t.monthly * SITES[s].factor)),
				priceEntry(core, 'weekly', round100(t.weekly * SITES[s].factor)),
			];
			const dynamic = k === 2;
			unitTypes.push(
				put('unit_types', {
					id,
					_links: { 'sf:new_order': { href: `/book/${t.slug}?site=${SITES[s].code.toLowerCase()}`, title: `Book a ${t.name.toLowerCase()}` } },
					dimensions: { height: t.dims[2], length: t.dims[1], width: t.dims[0], measurement_unit: 'ft' },
					dynamic_pricing: dynamic,
					images: { default: k < 2 ? imageSet(id, 'unit-type-photo.png') : null },
					live_prices: livePrices(core, dynamic, prices),
					prices,
					name: t.name,
					promotion: s === 0 && k === 1 ? { id: coupons[0].id } : null,
					require_insurance_coverage: k > 0,
					require_security_deposit: t.deposit !== null,
					security_deposit: t.deposit === null ? null : money(core, t.deposit),
					selling_points: ['Drive-up access', k === 0 ? 'Fits a small flat clear-out' : 'Fits a one-bedroom flat'],
					site: { id: site.id },
					size_description: t.size,
					slug: t.slug,
					status: 'bookable',
					payments_product_id: core.newId('prod_'),
					...stamp(850 - s * 100 - k),
				}),
			);
			for (let u = 0; u < UNITS_PER_TYPE; u++) {
				units.push(
					put('units', {
						id: core.newId('unit_'),
						reference_id: `${SITES[s].code}-${'SML'[k]}${String(u + 1).padStart(2, '0')}`,
						site: { id: site.id },
						unit_type: { id },
						// The last unit of some types is out of service or repossessed; the rest start available.
						status: u === UNITS_PER_TYPE - 1 && k === 0 ? 'unavailable' : u === UNITS_PER_TYPE - 1 && k === 1 && s < 2 ? 'repossessed' : 'available',
						unit_allocation: null,
						...stamp(840 - s * 100 - k, u),
					}),
				);
			}
		});
	});
	const freeUnit = (siteId: string, typeId: string) =>
		units.find((u) => u.status === 'available' && u.site && (u.site as { id: string }).id === siteId && (u.unit_type as { id: string }).id === typeId);

	/* ---------------------------------------------------- orders (helper) */

	let orderSeq = 0;
	function order(fields: {
		contact: string | null;
		site: ApiRecord;
		status: string;
		source: string;
		period: string | null;
		created: string;
		updated: string;
		startsAt: string | null;
		lines: Array<{ type: string; item: ApiRecord; quantity?: number }>;
		coupon?: string | null;
		metadata?: Record<string, unknown>;
		subscription?: string;
		tenancy?: string;
	}): ApiRecord {
		orderSeq++;
		const id = core.newId('order_');
		const lines: ApiRecord[] = fields.lines.map((l) => {
			const unit =
				l.type === 'security_deposit'
					? (l.item.security_deposit as { amount: number } | null)?.amount ?? 0
					: priceFor(l.item, l.item.charge_type === 'one_time' ? 'one_time' : fields.period) ?? priceFor(l.item, null) ?? 0;
			return {
				id: core.newId('olitm_'),
				created_at: fields.created,
				updated_at: fields.created,
				item: { id: l.item.id },
				type: l.type,
				quantity: l.quantity ?? 1,
				price: money(core, unit),
				discount_total: money(core, 0),
				tax: money(core, 0),
				total: money(core, 0),
				total_excluding_tax: money(core, 0),
			};
		});
		const record: ApiRecord = {
			id,
			billing_period: fields.period,
			contact: fields.contact ? { id: fields.contact } : null,
			contract_template: null,
			coupon: fields.coupon ? { id: fields.coupon } : null,
			created_at: fields.created,
			updated_at: fields.updated,
			email_notifications: { booking_confirmation: true, move_in_day: orderSeq % 2 === 0, payment_details: true },
			line_items: lines.map((l) => ({ id: l.id })),
			metadata: fields.metadata ?? {},
			one_time_total: null,
			one_time_total_excluding_tax: null,
			payment_method: 'card',
			payment_url: fields.status === 'draft' || fields.status === 'abandoned' ? null : `${STOREFRONT}/checkout/${id}`,
			purchase_order_number: orderSeq % 11 === 0 ? `PO-${1000 + orderSeq}` : null,
			site: { id: fields.site.id },
			source: fields.source,
			starts_at: fields.startsAt,
			status: fields.status,
			subscription: fields.subscription ? { id: fields.subscription } : null,
			tenancy: fields.tenancy ? { id: fields.tenancy } : null,
			subtotal: null,
			tax: null,
			total: null,
			total_discount: null,
			total_excluding_tax: null,
		};
		const { lineChanges, totals } = priceOrder(core, record, lines);
		for (const line of lines) put('order_line_items', { ...line, ...lineChanges.get(line.id) });
		Object.assign(record, totals);
		return put('orders', record);
	}

	/* ------------------------------------------- customers and churned */

	const contacts = contactsOf(core);
	const subscriptionsByContact: ApiRecord[] = [];
	const tenancyByContact: ApiRecord[] = [];

	for (let i = 0; i < Math.min(contacts.length, CUSTOMERS + CHURNED); i++) {
		const contact = contacts[i];
		const churned = i >= CUSTOMERS;
		const site = sites[i % sites.length];
		const siteTypes = unitTypes.filter((t) => (t.site as { id: string }).id === site.id);
		const type = siteTypes[i % siteTypes.length];
		const unit = freeUnit(site.id, type.id) ?? freeUnit(site.id, siteTypes[0].id);
		if (!unit) continue;
		const period = i % 2 === 0 ? 'monthly' : 'weekly';
		const startDays = churned ? 400 + i * 7 : 30 * (i + 2);
		const start = ago(startDays);
		const endDays = 20 + (i - CUSTOMERS) * 10;
		const protection = i % 3 === 2 ? null : protectionLevels[i % protectionLevels.length];

		const subscriptionId = core.newId('sub_');
		const tenancyId = core.newId('ten_');
		const allocationId = core.newId('alloc_');
		const orderRecord = order({
			contact: contact.id,
			site,
			status: 'completed',
			source: ORDER_SOURCES[i % 4],
			period,
			created: ago(startDays + 2, i + 1),
			updated: ago(startDays, i + 1),
			startsAt: start,
			lines: [
				{ type: 'unit_type', item: type },
				...(protection ? [{ type: 'protection', item: protection }] : []),
				...(type.security_deposit ? [{ type: 'security_deposit', item: type }] : []),
			],
			subscription: subscriptionId,
			tenancy: tenancyId,
		});

		const allocations = [{ id: allocationId }];
		put('unit_allocations', {
			id: allocationId,
			created_at: ago(startDays + 1),
			updated_at: ago(churned ? endDays : startDays),
			granted_access_at: ago(startDays),
			reserved_at: ago(startDays + 1),
			tenancy: { id: tenancyId },
			unit: { id: unit.id },
		});
		if (churned) {
			unit.updated_at = ago(endDays);
		} else {
			unit.status = i === 3 ? 'overlocked' : 'occupied';
			unit.unit_allocation = { id: allocationId };
			unit.updated_at = ago(i === 3 ? 5 : startDays);
		}
		if (!churned && (i === 10 || i === 11)) {
			// A second unit reserved ahead of a move-in next week.
			const other = siteTypes.find((t) => t.id !== type.id && freeUnit(site.id, t.id));
			const spare = other ? freeUnit(site.id, other.id) : undefined;
			if (spare) {
				const reservedId = core.newId('alloc_');
				put('unit_allocations', {
					id: reservedId,
					...stamp(1, i),
					granted_access_at: null,
					reserved_at: ago(1, i),
					tenancy: { id: tenancyId },
					unit: { id: spare.id },
				});
				spare.status = 'reserved';
				spare.unit_allocation = { id: reservedId };
				spare.updated_at = ago(1, i);
				allocations.push({ id: reservedId });
			}
		}

		// Renewal dates: the next one a few days ahead (active) or the end date (churned).
		const renewal = churned ? startOfDay(addDays(now, -endDays)) : addDays(today, period === 'monthly' ? 3 + i : 1 + (i % 6));
		const periodStart = addPeriods(renewal, period, -1)!;
		const lineItems = [
			{ created_at: start, updated_at: start, item: { id: type.id }, price: money(core, priceFor(type, period) ?? 0), quantity: 1, type: 'unit_type' },
			...(protection
				? [{ created_at: start, updated_at: start, item: { id: protection.id }, price: money(core, priceFor(protection, period) ?? 0), quantity: 1, type: 'protection' }]
				: []),
			...(i % 5 === 0
				? [{ created_at: start, updated_at: start, item: { id: parking.id }, price: money(core, priceFor(parking, period) ?? 0), quantity: 1, type: 'custom_product' }]
				: []),
		];
		const subscription = put('subscriptions', {
			id: subscriptionId,
			billing_period: period,
			cancellation_reason: churned ? (i % 2 ? 'no_longer_needed' : 'moved_out') : null,
			cancelled: churned,
			contact: { id: contact.id },
			site: { id: site.id },
			order: { id: orderRecord.id },
			tenancy: { id: tenancyId },
			current_period: { starts_at: iso(periodStart), ends_at: iso(renewal) },
			starts_at: start,
			ends_at: churned ? ago(endDays) : null,
			line_items: lineItems,
			payments_subscription_id: core.newId('sub_'),
			payments_subscription_schedule_id: i % 4 === 0 ? core.newId('sub_sched_') : null,
			created_at: start,
			updated_at: churned ? ago(endDays) : iso(periodStart),
		});
		const tenancy = put('tenancies', {
			id: tenancyId,
			contact: { id: contact.id },
			site: { id: site.id },
			order: { id: orderRecord.id },
			subscription: { id: subscriptionId },
			unit_allocations: churned ? [] : allocations,
			starts_at: start,
			ends_at: churned ? ago(endDays) : null,
			created_at: ago(startDays + 1),
			updated_at: churned ? ago(endDays) : ago(startDays),
		});
		subscriptionsByContact[i] = subscription;
		tenancyByContact[i] = tenancy;
	}

	/* ------------------------------------------------ invoices, credit notes */

	// Per contact 0..4: [deposit paid, subscription paid, subscription current, ad hoc].
	const CURRENT = [
		['open', 'pending'],
		['open', 'overdue'],
		['uncollectible', 'not_collected'],
		['open', 'overdue'],
		['draft', 'pending'],
	];
	const AD_HOC = [
		['void', 'not_collected'],
		['deleted', 'not_collected'],
		['paid', 'collected'],
		['open', 'pending'],
		['paid', 'collected'],
	];
	let invoiceNumber = 0;
	const invoicesByContact: ApiRecord[][] = [];
	for (let c = 0; c < 5; c++) {
		const subscription = subscriptionsByContact[c];
		const tenancy = tenancyByContact[c];
		if (!subscription || !tenancy) continue;
		const period = String(subscription.billing_period);
		const renewal = new Date(String((subscription.current_period as { ends_at: string }).ends_at));
		const recurring = (subscription.line_items as Array<{ price: { amount: number }; type: string; item: { id: string } }>).map((l) => ({
			description: l.type === 'unit_type' ? 'Storage unit rent' : l.type === 'protection' ? 'Protection cover' : 'Parking space',
			amount: l.price.amount,
		}));
		const deposit = (unitTypes.find((t) => t.id === (subscription.line_items as Array<{ item: { id: string } }>)[0].item.id)?.security_deposit as { amount: number } | null)?.amount ?? 5000;
		const specs = [
			{ type: 'deposit', status: 'paid', collection: 'collected', lines: [{ description: 'Security deposit', amount: deposit }], periodEnd: addDays(renewal, -60) },
			{ type: 'subscription', status: 'paid', collection: 'collected', lines: recurring, periodEnd: addPeriods(renewal, period, -1)! },
			{ type: 'subscription', status: CURRENT[c][0], collection: CURRENT[c][1], lines: recurring, periodEnd: renewal },
			{ type: 'ad_hoc', status: AD_HOC[c][0], collection: AD_HOC[c][1], lines: [{ description: 'Disc padlock', amount: 999 }], periodEnd: addDays(renewal, -10) },
		];
		invoicesByContact[c] = specs.map((spec, k) => {
			invoiceNumber++;
			const periodStart = spec.type === 'subscription' ? addPeriods(spec.periodEnd, period, -1)! : spec.periodEnd;
			// Overdue invoices fell due a week ago; pending ones fall due in a week; paid ones long ago.
			const created =
				spec.collection === 'overdue'
					? addDays(now, -21 - c)
					: spec.collection === 'pending'
						? addDays(now, -(c + 1))
						: addDays(now, -(90 - k * 20 + c));
			const due = spec.collection === 'overdue' ? addDays(now, -7 - c) : spec.collection === 'pending' ? addDays(now, 7 + c) : addDays(created, 7);
			const lines = spec.lines.map((l) => {
				const tax = Math.round(l.amount * TAX_RATE);
				return {
					accounting_code: spec.type === 'deposit' ? 'DEP-001' : spec.type === 'ad_hoc' ? 'PRD-100' : 'RENT-001',
					description: l.description,
					discount_total: money(core, 0),
					price: money(core, l.amount),
					proration: false,
					quantity: 1,
					tax: money(core, tax),
					total: money(core, l.amount + tax),
					total_excluding_tax: money(core, l.amount),
					type: null,
				};
			});
			const subtotal = spec.lines.reduce((a, l) => a + l.amount, 0);
			const tax = lines.reduce((a, l) => a + l.tax.amount, 0);
			const paid = spec.status === 'paid';
			const finalized = spec.status !== 'draft' && spec.status !== 'deleted';
			return put('invoices', {
				id: core.newId('inv_'),
				amount_due: money(core, paid || spec.status === 'void' || spec.status === 'deleted' ? 0 : subtotal + tax),
				amount_paid: money(core, paid ? subtotal + tax : 0),
				collection_status: spec.collection,
				contact: { id: String((subscription.contact as { id: string }).id) },
				site: { id: String((subscription.site as { id: string }).id) },
				subscription: { id: subscription.id },
				tenancy: { id: tenancy.id },
				created_at: iso(created),
				due_date: iso(due),
				finalized_at: finalized ? iso(addMinutes(created, 5)) : null,
				paid_at: paid ? iso(addDays(created, 2)) : null,
				period_start: iso(periodStart),
				period_end: iso(spec.periodEnd),
				voided_at: spec.status === 'void' ? iso(addDays(created, 1)) : null,
				line_items: lines,
				number: `ACME-${String(invoiceNumber).padStart(4, '0')}`,
				post_payment_credit_notes_amount: money(core, 0),
				pre_payment_credit_notes_amount: money(core, 0),
				purchase_order_number: c === 2 ? 'PO-7781' : null,
				refund_status: 'not_refunded',
				status: spec.status,
				subtotal: money(core, subtotal),
				tax: money(core, tax),
				total: money(core, subtotal + tax),
				type: spec.type,
				updated_at: iso(paid ? addDays(created, 2) : addMinutes(created, 5)),
			});
		});
	}
	const creditNoteSpecs: Array<[number, number, string, string, number]> = [
		// [contact, invoice index, type, reason, share of the total in %]
		[0, 1, 'post_payment', 'order_change', 50],
		[2, 2, 'pre_payment', 'other', 100],
		[1, 0, 'post_payment', 'duplicate', 100],
	];
	creditNoteSpecs.forEach(([c, k, type, reason, share]) => {
		const invoice = invoicesByContact[c]?.[k];
		if (!invoice) return;
		const total = Math.round(((invoice.total as { amount: number }).amount * share) / 100);
		const subtotal = Math.round(total / (1 + TAX_RATE));
		const created = addDays(new Date(String(invoice.created_at)), 3);
		put('credit_notes', {
			id: core.newId('cred_'),
			contact: invoice.contact,
			site: invoice.site,
			invoice: { id: invoice.id },
			number: `${String(invoice.number)}-CN-1`,
			reason,
			status: 'issued',
			type,
			subtotal: money(core, subtotal),
			total: money(core, total),
			line_items: [
				{
					amount: money(core, total),
					description: `Credit for ${String((invoice.line_items as Array<{ description: string }>)[0].description)}`,
					discount_total: money(core, 0),
					price: money(core, subtotal),
					quantity: 1,
					tax: money(core, total - subtotal),
					type: 'invoice_line_item',
				},
			],
			created_at: iso(created),
			updated_at: iso(created),
		});
		invoice[type === 'pre_payment' ? 'pre_payment_credit_notes_amount' : 'post_payment_credit_notes_amount'] = money(core, total);
	});

	/* ----------------------------------------------------- price adjustments */

	const adjustmentSpecs: Array<{ contact: number; status: string; percentage: number; notice: number | null; from: number; applies: [boolean, boolean, boolean] }> = [
		{ contact: 0, status: 'draft', percentage: 5, notice: 30, from: 40, applies: [true, false, false] },
		{ contact: 2, status: 'draft', percentage: 3.5, notice: null, from: 35, applies: [true, true, false] },
		{ contact: 1, status: 'pending', percentage: 7, notice: 14, from: 21, applies: [true, false, false] },
		{ contact: 4, status: 'draft', percentage: -10, notice: 45, from: 60, applies: [true, true, true] },
	];
	adjustmentSpecs.forEach((spec, n) => {
		const subscription = subscriptionsByContact[spec.contact];
		if (!subscription) return;
		const adjustOn = renewalOnOrAfter(subscription, addDays(today, spec.from), today);
		if (!adjustOn) return;
		const appliesTo = { products: spec.applies[2], protection_levels: spec.applies[1], unit_types: spec.applies[0] };
		put('price_adjustments', {
			id: core.newId('pradj_'),
			adjust_on: dateOnly(adjustOn),
			adjustment: null,
			applies_to: appliesTo,
			estimation: estimation(core, subscription, spec.percentage, appliesTo),
			invoice: null,
			notification: notification(spec.notice, dateOnly(adjustOn), today),
			percentage: spec.percentage,
			status: spec.status,
			subscription: { id: subscription.id },
			...stamp(10 - n),
		});
	});

	/* ------------------------------------------------------ generated orders */

	const leadsAndAll = contacts.length ? contacts : [];
	const generated = TOTAL_ORDERS - orderSeq;
	for (let i = 0; i < generated; i++) {
		const contact = leadsAndAll.length ? leadsAndAll[(i * 7) % leadsAndAll.length].id : null;
		let status = ORDER_STATUSES[[0, 1, 2, 3, 2, 0, 3, 1][i % 8]];
		if (!contact && status !== 'abandoned') status = 'draft';
		const empty = status === 'draft' && (i % 10 === 3 || !contact);
		const site = sites[i % sites.length];
		const siteTypes = unitTypes.filter((t) => (t.site as { id: string }).id === site.id);
		const period = empty ? null : BILLING_PERIODS[i % BILLING_PERIODS.length];
		const createdMinutes = 420 * (i + 1) + 13;
		const created = addMinutes(now, -createdMinutes);
		const noUnitType = status === 'draft' && i % 10 === 7;
		order({
			contact: empty ? null : contact,
			site,
			status,
			source: ORDER_SOURCES[i % ORDER_SOURCES.length],
			period,
			created: iso(created),
			updated: iso(addMinutes(created, Math.min(60 * ((i % 5) + 1), createdMinutes - 1))),
			startsAt: empty ? null : iso(addDays(startOfDay(created), 3 + (i % 20))),
			lines: empty
				? []
				: [
						...(noUnitType ? [] : [{ type: 'unit_type', item: siteTypes[i % siteTypes.length] }]),
						...(i % 3 === 0 || noUnitType ? [{ type: 'protection', item: protectionLevels[i % protectionLevels.length] }] : []),
						...(i % 13 === 0 ? [{ type: 'product', item: products[i % 3], quantity: 2 }] : []),
					],
			coupon: i % 9 === 0 && !empty ? coupons[i % 2 === 0 ? 0 : 2].id : null,
			metadata: i % 5 === 0 ? { campaign: 'spring-2025' } : i % 5 === 1 ? { campaign: 'autumn-2025', ref: `R${i}` } : {},
		});
	}

	for (const [collection, records] of Object.entries(deferred)) {
		for (const record of records) core.insert(collection, record);
	}
}
