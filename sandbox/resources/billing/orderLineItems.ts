/**
 * Order line items: POST /orders/:order_id/line_items (draft orders only, 409 `conflict` otherwise). Also the money
 * rules shared with orders: a line's price defaults to the item's price for the order's billing period; the order's
 * coupon discounts unit type lines (and protection/product lines when its `auto_apply_to` says so); VAT 20%.
 */
import { conflict, invalidContent, notFound } from '../../core/errors';
import type { ApiRecord, ErrorDetail, ResourceModule, SandboxCore } from '../../core/types';
import { validateBody, type FieldSpec, type Schema } from '../../core/validate';
import { TAX_RATE, V, amountOf, arr, iso, money, num, obj, priceFor, refId, str } from './shared';

export const LINE_ITEM_TYPES = ['unit_type', 'protection', 'product', 'security_deposit'];

/** Item collection and prefix by line item type (a security deposit is charged for a unit type). */
const ITEM_OF: Record<string, { collection: string; prefix: string; name: string }> = {
	unit_type: { collection: 'unit_types', prefix: 'utype_', name: 'Unit type' },
	security_deposit: { collection: 'unit_types', prefix: 'utype_', name: 'Unit type' },
	protection: { collection: 'protection_levels', prefix: 'plvl_', name: 'Protection level' },
	product: { collection: 'products', prefix: 'prod_', name: 'Product' },
};

const LINE_ITEM_FIELDS: Schema = {
	type: { type: 'string', enum: LINE_ITEM_TYPES, required: true },
	quantity: { type: 'integer', min: 1 },
	price: { type: 'object', fields: { amount: { type: 'integer', min: 0, required: true } } },
	item: { type: 'object', fields: { id: { type: 'string', required: true } }, required: true },
};
/** One line item of a create-order body or of the line item endpoint. */
export const LINE_ITEM_SCHEMA: FieldSpec = { type: 'object', fields: LINE_ITEM_FIELDS };

/** Checks a validated line item body against the catalogue; returns problems (prefix) or throws 404 (unknown item). */
function resolveItem(
	core: SandboxCore,
	body: Record<string, unknown>,
	pointer: string,
	details: ErrorDetail[],
) {
	const type = String(body.type);
	const spec = ITEM_OF[type];
	const id = String(obj(body.item).id);
	if (!id.startsWith(spec.prefix)) {
		details.push({
			message: `A ${type} line item needs an item id starting with '${spec.prefix}'`,
			pointer: `${pointer}/item/id`,
		});
		return undefined;
	}
	const item = core.get(spec.collection, id);
	if (!item) throw notFound(spec.name, id);
	return item;
}

/** The default unit price of a line: the given price, else the item's price for the order's billing period. */
function defaultPrice(item: ApiRecord, type: string, period: string | null): number | null {
	if (type === 'security_deposit')
		return item.security_deposit ? amountOf(item.security_deposit) : 0;
	if (type === 'product' && item.charge_type === 'one_time') return priceFor(item, 'one_time');
	return priceFor(item, period) ?? priceFor(item, null);
}

/**
 * Validates and builds line item records for an order (not stored yet). `base` is the JSON pointer of the array
 * (`/line_items`) or '' for the single-item endpoint. All problems end up in one 422.
 */
export function buildLineItems(
	core: SandboxCore,
	bodies: Record<string, unknown>[],
	period: string | null,
	base: string,
): ApiRecord[] {
	const details: ErrorDetail[] = [];
	const now = iso(core.now());
	const built: ApiRecord[] = [];
	bodies.forEach((body, i) => {
		const pointer = base ? `${base}/${i}` : '';
		const item = resolveItem(core, body, pointer, details);
		if (!item) return;
		const type = String(body.type);
		const given = body.price ? num(obj(body.price).amount) : null;
		const unit = given ?? defaultPrice(item, type, period);
		if (unit === null) {
			details.push({
				message: `The item has no price for the billing period ${period ?? 'of the order'}; give a price`,
				pointer: `${pointer}/price`,
			});
			return;
		}
		const quantity = typeof body.quantity === 'number' ? body.quantity : 1;
		built.push({
			id: core.newId('olitm_'),
			created_at: now,
			updated_at: now,
			item: { id: item.id },
			type,
			quantity,
			price: money(core, unit),
			discount_total: money(core, 0),
			tax: money(core, 0),
			total: money(core, 0),
			total_excluding_tax: money(core, 0),
		});
	});
	if (details.length) throw invalidContent(details);
	return built;
}

/** A line counts towards the one-time totals (deposits, one-off products, one-time orders). */
function oneTime(core: SandboxCore, line: ApiRecord, period: string | null): boolean {
	if (line.type === 'security_deposit' || period === 'one_time') return true;
	if (line.type !== 'product') return false;
	return core.get('products', refId(line.item) ?? '')?.charge_type === 'one_time';
}

/**
 * Prices an order: every line's discount, tax and totals, and the order's money fields. Pure: returns the changes
 * (per line id, and for the order) without storing anything.
 */
export function priceOrder(core: SandboxCore, order: ApiRecord, lines: ApiRecord[]) {
	const coupon = core.get('coupons', refId(order.coupon) ?? '');
	const period = str(order.billing_period);
	const auto = obj(coupon?.auto_apply_to);
	let amountLeft = coupon?.type === 'amount' ? amountOf(coupon.amount) : 0;
	const sum = { subtotal: 0, discount: 0, excl: 0, tax: 0, total: 0, oneTime: 0, oneTimeExcl: 0 };
	const lineChanges = new Map<string, Record<string, unknown>>();
	for (const line of lines) {
		const gross = amountOf(line.price) * num(line.quantity);
		const discounted =
			line.type === 'unit_type' ||
			(line.type === 'protection' && auto.protections === true) ||
			(line.type === 'product' && auto.products === true);
		let discount = 0;
		if (coupon && discounted) {
			if (coupon.type === 'percentage') discount = Math.round((gross * num(coupon.percent)) / 100);
			else {
				discount = Math.min(amountLeft, gross);
				amountLeft -= discount;
			}
		}
		const excl = gross - discount;
		const tax = Math.round(excl * TAX_RATE);
		lineChanges.set(line.id, {
			discount_total: money(core, discount),
			tax: money(core, tax),
			total: money(core, excl + tax),
			total_excluding_tax: money(core, excl),
		});
		sum.subtotal += gross;
		sum.discount += discount;
		sum.excl += excl;
		sum.tax += tax;
		sum.total += excl + tax;
		if (oneTime(core, line, period)) {
			sum.oneTime += excl + tax;
			sum.oneTimeExcl += excl;
		}
	}
	const totals: Record<string, unknown> = {
		one_time_total: money(core, sum.oneTime),
		one_time_total_excluding_tax: money(core, sum.oneTimeExcl),
		subtotal: money(core, sum.subtotal),
		tax: money(core, sum.tax),
		total: money(core, sum.total),
		total_discount: money(core, sum.discount),
		total_excluding_tax: money(core, sum.excl),
	};
	return { lineChanges, totals };
}

/** Re-prices the stored lines of an order, stores the line changes and returns the order's money fields. */
export function orderTotals(
	core: SandboxCore,
	order: ApiRecord,
	lineIds: string[],
): Record<string, unknown> {
	const lines = lineIds
		.map((id) => core.get('order_line_items', id))
		.filter((l): l is ApiRecord => !!l);
	const { lineChanges, totals } = priceOrder(core, order, lines);
	for (const [id, changes] of lineChanges) core.update('order_line_items', id, changes);
	return totals;
}

export const orderLineItems: ResourceModule = {
	register(api) {
		api.collection({
			name: 'order_line_items',
			key: 'line_item',
			prefix: 'olitm_',
			scope: 'order',
		});
		api.route(
			'POST',
			`${V}/orders/:order_id/line_items`,
			{ scopes: ['public.order:write'] },
			(ctx) => {
				const core = ctx.sandbox;
				const order = core.mustGet('orders', ctx.params.order_id);
				const body = validateBody(ctx.body, LINE_ITEM_FIELDS);
				if (order.status !== 'draft') {
					throw conflict(
						`Order ${order.id} is ${String(order.status)}; line items can only be added to a draft order`,
					);
				}
				const [line] = buildLineItems(core, [body], str(order.billing_period), '');
				core.insert('order_line_items', line);
				const lineIds = [...arr(order.line_items).map((r) => refId(r) ?? ''), line.id];
				core.update('orders', order.id, {
					line_items: lineIds.map((id) => ({ id })),
					...orderTotals(core, order, lineIds),
				});
				return core.single(ctx, 'order_line_items', core.mustGet('order_line_items', line.id), 201);
			},
		);
	},
};
