/** What `expand` can return in full on an order. */
export const ORDER_EXPAND = [
	'contact',
	'contract_template',
	'coupon',
	'line_items',
	'line_items.item',
	'site',
	'subscription',
	'tenancy',
];
