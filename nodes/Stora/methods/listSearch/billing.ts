// Billing resources' list searches (orders, invoices, subscriptions, coupons, products, protection levels, ...).
// None of these list endpoints has a search parameter: each loaded page (newest first) is filtered on label and ID.
import type { IDataObject } from 'n8n-workflow';

import { searchListMethod } from './searchList';

const text = (value: unknown) => (value === null || value === undefined ? '' : String(value));
const day = (value: unknown) => text(value).slice(0, 10);
const formatted = (money: unknown) => text((money as IDataObject | null | undefined)?.formatted);

export const searchOrders = searchListMethod({
	path: '/orders',
	label: (order) =>
		`${text(order.status)} order from ${day(order.created_at)}${order.billing_period ? `, ${text(order.billing_period)}` : ''} (${text(order.id)})`,
});

export const searchInvoices = searchListMethod({
	path: '/invoices',
	label: (invoice) =>
		`${text(invoice.number || invoice.id)} (${text(invoice.status)}, ${formatted(invoice.total)})`,
});

export const searchCreditNotes = searchListMethod({
	path: '/credit_notes',
	label: (note) => `${text(note.number || note.id)} (${formatted(note.total)})`,
});

export const searchCoupons = searchListMethod({
	path: '/coupons',
	label: (coupon) =>
		`${text(coupon.name || coupon.id)}${coupon.code ? ` (${text(coupon.code)})` : ''}`,
});

export const searchProducts = searchListMethod({
	path: '/products',
	label: (product) => text(product.name || product.id),
});

export const searchProductCategories = searchListMethod({
	path: '/product_categories',
	label: (category) => text(category.name || category.id),
});

export const searchProtectionLevels = searchListMethod({
	path: '/protection_levels',
	label: (level) =>
		level.cover_level
			? `Cover up to ${formatted(level.cover_level)} (${text(level.id)})`
			: text(level.id),
});

export const searchSubscriptions = searchListMethod({
	path: '/subscriptions',
	label: (subscription) =>
		`${text(subscription.billing_period)} subscription since ${day(subscription.starts_at)}${
			subscription.cancelled === true ? ' (cancelled)' : ''
		} (${text(subscription.id)})`,
});
