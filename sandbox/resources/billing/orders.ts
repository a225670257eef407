/**
 * Orders: list (every documented filter, created/updated/starts windows, metadata), create (draft, source
 * `public_api`; `finalize` in the body finalizes at once), get, validate and finalize.
 *
 * Validation problems (422 `invalid_content`, one detail each): `/starts_at` blank, `/billing_period` missing,
 * `/contact` missing, `/line_items` without a unit type line item. Finalize: 409 `conflict` unless draft, then the
 * same validation, then status `finalized` with a hosted `payment_url`. Create emits `order.created`.
 */
import { conflict, invalidContent, notFound } from '../../core/errors';
import type {
	ApiRecord,
	ErrorDetail,
	RequestContext,
	ResourceModule,
	SandboxCore,
} from '../../core/types';
import { validateBody, type FieldSpec, type Schema } from '../../core/validate';
import {
	buildContact,
	CONTACT_SOURCES,
	CONTACT_TYPES,
	MARKETING_SOURCES,
	USE_CASES,
} from '../crm/contacts';
import { buildLineItems, LINE_ITEM_SCHEMA, priceOrder } from './orderLineItems';
import {
	BILLING_PERIODS,
	V,
	addDays,
	addMinutes,
	arr,
	iso,
	money,
	obj,
	priceFor,
	refId,
	registerReadable,
	startOfDay,
	type SeedWriter,
} from './shared';

export const ORDER_STATUSES = ['draft', 'finalized', 'completed', 'abandoned'];
export const ORDER_SOURCES = [
	'backoffice',
	'storefront',
	'storefront_multi_step',
	'import',
	'public_api',
	'unspecified',
];
export const STOREFRONT = 'https://acme.stora.test';

const nullableString: FieldSpec = { type: 'string', nullable: true };
const nullableEnum = (values: readonly string[]): FieldSpec => ({
	type: 'string',
	enum: [...values],
	nullable: true,
});

const CREATE: Schema = {
	site: { type: 'ref', prefix: 'site_', required: true },
	billing_period: nullableEnum(BILLING_PERIODS),
	payment_method: { type: 'string', minLength: 1 },
	purchase_order_number: nullableString,
	starts_at: { type: 'string', format: 'date-time', nullable: true },
	emails: {
		type: 'object',
		fields: {
			booking_confirmation: { type: 'boolean' },
			move_in_day: { type: 'boolean' },
			payment_details: { type: 'boolean' },
		},
	},
	coupon: { type: 'ref', prefix: 'cpn_', nullable: true },
	contract_template: { type: 'ref', prefix: 'ctpl_', nullable: true },
	// Either `{id}` of an existing contact or an inline contact (created, or matched by email).
	contact: {
		type: 'object',
		nullable: true,
		fields: {
			id: { type: 'string', pattern: /^con_/ },
			email: { type: 'string', format: 'email' },
			full_name: nullableString,
			phone_number: nullableString,
			tax_id: nullableString,
			company_registration_number: nullableString,
			address: { type: 'object', nullable: true, open: true, fields: {} },
			type: nullableEnum(CONTACT_TYPES),
			marketing_source: nullableEnum(MARKETING_SOURCES),
			source: nullableEnum(CONTACT_SOURCES),
			use_case: nullableEnum(USE_CASES),
		},
	},
	finalize: { type: 'object', fields: { cancel_redirect_url: { type: 'string', format: 'url' } } },
	metadata: { type: 'metadata' },
	line_items: { type: 'array', items: LINE_ITEM_SCHEMA },
};

const FINALIZE: Schema = {
	finalize: { type: 'object', fields: { cancel_redirect_url: { type: 'string', format: 'url' } } },
};

/** Problems that keep an order from being finalized (empty when it is ready). */
export function orderProblems(core: SandboxCore, order: ApiRecord): ErrorDetail[] {
	const details: ErrorDetail[] = [];
	if (!order.starts_at)
		details.push({ message: "starts_at can't be blank", pointer: '/starts_at' });
	if (!order.billing_period)
		details.push({ message: 'billing_period is missing', pointer: '/billing_period' });
	if (!refId(order.contact)) details.push({ message: 'contact is missing', pointer: '/contact' });
	const hasUnitType = arr(order.line_items).some(
		(r) => core.get('order_line_items', refId(r) ?? '')?.type === 'unit_type',
	);
	if (!hasUnitType)
		details.push({
			message: 'line_items must include at least one unit type line item',
			pointer: '/line_items',
		});
	return details;
}

function finalizeOrder(core: SandboxCore, order: ApiRecord): ApiRecord {
	if (order.status !== 'draft')
		throw conflict(
			`Order ${order.id} is ${String(order.status)}; only a draft order can be finalized`,
		);
	const problems = orderProblems(core, order);
	if (problems.length) throw invalidContent(problems, 'The order is not ready to be finalized');
	return core.update('orders', order.id, {
		status: 'finalized',
		payment_url: `${STOREFRONT}/checkout/${order.id}`,
	});
}

/** The contact of a create body: an existing one by id, else one matched by email, else a new one. */
function resolveContact(
	core: SandboxCore,
	value: Record<string, unknown>,
): { id: string; created: boolean } {
	if (typeof value.id === 'string') {
		if (Object.keys(value).length > 1) {
			throw invalidContent([
				{
					message: 'Give either the id of an existing contact or the fields of a new contact',
					pointer: '/contact',
				},
			]);
		}
		const contact = core.get('contacts', value.id);
		if (!contact) throw notFound('Contact', value.id);
		return { id: contact.id, created: false };
	}
	if (typeof value.email !== 'string') {
		throw invalidContent([
			{
				message: "The object at /contact is missing the required property 'email'",
				pointer: '/contact',
			},
		]);
	}
	const email = value.email.toLowerCase();
	const existing = core.all('contacts').find((c) => String(c.email).toLowerCase() === email);
	if (existing) return { id: existing.id, created: false };
	const contact = core.insert(
		'contacts',
		buildContact(core, core.newId('con_'), { ...value, source: value.source ?? 'booking' }),
	);
	return { id: contact.id, created: true };
}

function mustRef(
	core: SandboxCore,
	collection: string,
	name: string,
	value: unknown,
): { id: string } | null {
	const id = refId(value);
	if (!id) return null;
	if (!core.get(collection, id)) throw notFound(name, id);
	return { id };
}

function createOrder(ctx: RequestContext): ApiRecord {
	const core = ctx.sandbox;
	const body = validateBody(ctx.body, CREATE);
	const site = mustRef(core, 'sites', 'Site', body.site);
	const coupon = mustRef(core, 'coupons', 'Coupon', body.coupon);
	const templateId = refId(body.contract_template);
	if (templateId && !core.find(templateId)) throw notFound('Contract template', templateId);
	const period = (body.billing_period as string | null | undefined) ?? null;
	const lines = buildLineItems(
		core,
		arr(body.line_items) as Record<string, unknown>[],
		period,
		'/line_items',
	);
	const contact = body.contact ? resolveContact(core, obj(body.contact)) : null;
	const emails = obj(body.emails);
	const now = iso(core.now());
	const order: ApiRecord = {
		id: core.newId('order_'),
		billing_period: period,
		contact: contact ? { id: contact.id } : null,
		contract_template: templateId ? { id: templateId } : null,
		coupon,
		created_at: now,
		updated_at: now,
		email_notifications: {
			booking_confirmation: emails.booking_confirmation ?? true,
			move_in_day: emails.move_in_day ?? true,
			payment_details: emails.payment_details ?? true,
		},
		line_items: lines.map((l) => ({ id: l.id })),
		metadata: obj(body.metadata),
		one_time_total: null,
		one_time_total_excluding_tax: null,
		payment_method: (body.payment_method as string | undefined) ?? 'card',
		payment_url: null,
		purchase_order_number: (body.purchase_order_number as string | null | undefined) ?? null,
		site,
		source: 'public_api',
		starts_at: typeof body.starts_at === 'string' ? iso(new Date(body.starts_at)) : null,
		status: 'draft',
		subscription: null,
		tenancy: null,
		subtotal: null,
		tax: null,
		total: null,
		total_discount: null,
		total_excluding_tax: null,
	};
	const { lineChanges, totals } = priceOrder(core, order, lines);
	for (const line of lines)
		core.insert('order_line_items', { ...line, ...lineChanges.get(line.id) });
	Object.assign(order, totals);
	if (body.finalize) {
		const problems = orderProblems(core, order);
		if (problems.length) {
			// Nothing is created when the order cannot be finalized.
			for (const line of lines) core.remove('order_line_items', line.id);
			if (contact?.created) core.remove('contacts', contact.id);
			throw invalidContent(problems, 'The order is not ready to be finalized');
		}
		Object.assign(order, {
			status: 'finalized',
			payment_url: `${STOREFRONT}/checkout/${order.id}`,
		});
	}
	core.insert('orders', order);
	const stored = core.mustGet('orders', order.id);
	core.emit('order.created', stored);
	return stored;
}

export const orders: ResourceModule = {
	register(api) {
		registerReadable(
			api,
			{ name: 'orders', key: 'order', prefix: 'order_', scope: 'order' },
			{
				path: 'orders',
				param: 'order_id',
				spec: {
					sortBy: ['created_at', 'updated_at'],
					filters: {
						contact_id: { field: 'contact.id' },
						site_id: { field: 'site.id' },
						status: { field: 'status', values: ORDER_STATUSES },
						source: { field: 'source', values: ORDER_SOURCES },
						billing_period: { field: 'billing_period', values: [...BILLING_PERIODS] },
					},
					windows: { created: 'created_at', updated: 'updated_at', starts: 'starts_at' },
					metadata: true,
				},
			},
		);
		api.route('POST', `${V}/orders`, { scopes: ['public.order:write'] }, (ctx) =>
			ctx.sandbox.single(ctx, 'orders', createOrder(ctx), 201),
		);
		api.route('GET', `${V}/orders/:order_id/validate`, { scopes: ['public.order:read'] }, (ctx) => {
			const order = ctx.sandbox.mustGet('orders', ctx.params.order_id);
			const problems = orderProblems(ctx.sandbox, order);
			if (problems.length) throw invalidContent(problems, 'The order is not ready to be finalized');
			return ctx.sandbox.single(ctx, 'orders', order);
		});
		api.route(
			'POST',
			`${V}/orders/:order_id/finalize`,
			{ scopes: ['public.order:write'] },
			(ctx) => {
				const order = ctx.sandbox.mustGet('orders', ctx.params.order_id);
				if (ctx.body !== undefined && ctx.body !== null && ctx.body !== '')
					validateBody(ctx.body, FINALIZE);
				return ctx.sandbox.single(ctx, 'orders', finalizeOrder(ctx.sandbox, order));
			},
		);
	},
};

/** One demo order: who, where, status, dates and its line items (priced like a real order). */
export interface SeedOrder {
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
}

/** Builds demo orders one by one (their ids and numbering follow the call order); `count` is how many so far. */
export function orderSeeder(w: SeedWriter) {
	const { core, put } = w;
	let orderSeq = 0;
	function order(fields: SeedOrder): ApiRecord {
		orderSeq++;
		const id = core.newId('order_');
		const lines: ApiRecord[] = fields.lines.map((l) => {
			const unit =
				l.type === 'security_deposit'
					? ((l.item.security_deposit as { amount: number } | null)?.amount ?? 0)
					: (priceFor(l.item, l.item.charge_type === 'one_time' ? 'one_time' : fields.period) ??
						priceFor(l.item, null) ??
						0);
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
			email_notifications: {
				booking_confirmation: true,
				move_in_day: orderSeq % 2 === 0,
				payment_details: true,
			},
			line_items: lines.map((l) => ({ id: l.id })),
			metadata: fields.metadata ?? {},
			one_time_total: null,
			one_time_total_excluding_tax: null,
			payment_method: 'card',
			payment_url:
				fields.status === 'draft' || fields.status === 'abandoned'
					? null
					: `${STOREFRONT}/checkout/${id}`,
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
	return { order, count: () => orderSeq };
}

export type OrderSeeder = ReturnType<typeof orderSeeder>;

/** Orders in the demo seed (those behind tenancies included): enough for several pages at limit=100. */
const TOTAL_ORDERS = 270;

/** Demo seed: orders in every status, source and billing period up to 270 in all (also without CRM contacts). */
export function seedGeneratedOrders(
	w: SeedWriter,
	seeder: OrderSeeder,
	catalogue: {
		contacts: ApiRecord[];
		sites: ApiRecord[];
		unitTypes: ApiRecord[];
		protectionLevels: ApiRecord[];
		products: ApiRecord[];
		coupons: ApiRecord[];
	},
) {
	const { now } = w;
	const { contacts, sites, unitTypes, protectionLevels, products, coupons } = catalogue;
	const leadsAndAll = contacts.length ? contacts : [];
	const generated = TOTAL_ORDERS - seeder.count();
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
		seeder.order({
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
						...(i % 3 === 0 || noUnitType
							? [{ type: 'protection', item: protectionLevels[i % protectionLevels.length] }]
							: []),
						...(i % 13 === 0 ? [{ type: 'product', item: products[i % 3], quantity: 2 }] : []),
					],
			coupon: i % 9 === 0 && !empty ? coupons[i % 2 === 0 ? 0 : 2].id : null,
			metadata:
				i % 5 === 0
					? { campaign: 'spring-2025' }
					: i % 5 === 1
						? { campaign: 'autumn-2025', ref: `R${i}` }
						: {},
		});
	}
}
