import type { IDataObject, IExecuteSingleFunctions, IHttpRequestOptions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { optionsOf, resourceLocator, showFor, type ResourceDefinition } from '../shared/descriptions';
import { checkIdPrefix, checkNumber } from '../shared/validation';

/** Line item types and the ID prefix of the item each one charges for (a security deposit is for a unit type). */
export const LINE_ITEM_ITEM_PREFIX: Record<string, string> = {
	unit_type: 'utype_',
	protection: 'plvl_',
	product: 'prod_',
	security_deposit: 'utype_',
};

const TYPE_DESCRIPTION =
	'What the line charges for: a unit type (rent), a protection level, a product, or the security deposit of a unit type';

/**
 * The "Line Items" rows of Create Order as the API's `line_items` array, checked before any request: the item ID must
 * match the type's prefix, the quantity must be a whole number of at least 1, and a price override (minor units) a
 * whole number of at least 0. A blank price override means the item's own price for the order's billing period.
 */
export function lineItemRowsField(collection: string): INodeProperties {
	return {
		displayName: 'Line Items',
		name: 'lineItems',
		type: 'fixedCollection',
		placeholder: 'Add Line Item',
		typeOptions: { multipleValues: true, sortable: true },
		default: {},
		description: 'The charges of the order. A finalized order needs at least one unit type line item.',
		options: [
			{
				displayName: 'Line Item',
				name: 'lineItem',
				values: [
					{
						displayName: 'Type',
						name: 'type',
						type: 'options',
						options: optionsOf(Object.keys(LINE_ITEM_ITEM_PREFIX)),
						default: 'unit_type',
						description: TYPE_DESCRIPTION,
					},
					{
						displayName: 'Item ID',
						name: 'itemId',
						type: 'string',
						default: '',
						placeholder: 'utype_a1b2c3',
						description:
							'ID of the unit type (utype_…; also for a security deposit), protection level (plvl_…) or product (prod_…)',
					},
					{
						displayName: 'Quantity',
						name: 'quantity',
						type: 'number',
						typeOptions: { minValue: 1, numberPrecision: 0 },
						default: 1,
					},
					{
						displayName: 'Price Override (Minor Units)',
						name: 'price',
						type: 'string',
						default: '',
						placeholder: 'e.g. 4500',
						description:
							"Unit price in minor currency units (pence/cents), e.g. 4500 = 45.00. Leave empty to use the item's own price for the order's billing period.",
					},
				],
			},
		],
		routing: {
			send: {
				preSend: [
					async function (this: IExecuteSingleFunctions, options: IHttpRequestOptions) {
						const rows = ((this.getNodeParameter(`${collection}.lineItems`, {}) as IDataObject).lineItem ??
							[]) as IDataObject[];
						const fail = (row: number, message: string, description: string): never => {
							throw new NodeOperationError(this.getNode(), `Line Items, row ${row}: ${message}`, {
								description,
								itemIndex: this.getItemIndex(),
							});
						};
						const lineItems = rows.map((row, index) => {
							const type = String(row.type ?? '');
							const prefix = LINE_ITEM_ITEM_PREFIX[type];
							if (!prefix)
								fail(
									index + 1,
									`"${type}" is not a line item type`,
									`Use one of: ${Object.keys(LINE_ITEM_ITEM_PREFIX).join(', ')}.`,
								);
							const itemId = String(row.itemId ?? '').trim();
							if (!new RegExp(`^${prefix}[A-Za-z0-9]+$`).test(itemId)) {
								fail(
									index + 1,
									`"${itemId}" is not a valid item ID for a ${type} line`,
									`A ${type} line item charges for an item whose ID starts with "${prefix}".`,
								);
							}
							const quantity = Number(row.quantity ?? 1);
							if (!Number.isInteger(quantity) || quantity < 1) {
								fail(
									index + 1,
									`quantity ${String(row.quantity)} is out of range`,
									'Quantity must be a whole number of at least 1.',
								);
							}
							const line: IDataObject = {
								type,
								item: { id: itemId },
								quantity,
							};
							const price = String(row.price ?? '').trim();
							if (price !== '') {
								if (!/^\d+$/.test(price)) {
									fail(
										index + 1,
										`price "${price}" is not an amount in minor units`,
										'Give the unit price as a whole number of pence/cents of at least 0 (e.g. 4500 = 45.00), or leave it empty.',
									);
								}
								line.price = { amount: Number(price) };
							}
							return line;
						});
						if (lineItems.length) {
							options.body = {
								...((options.body as IDataObject | undefined) ?? {}),
								line_items: lineItems,
							};
						}
						return options;
					},
				],
			},
		},
	};
}

const create = showFor('orderLineItem', ['create']);
const forTypes = (types: string[]) => ({
	show: { ...create.show, lineItemType: types },
});

const properties: ResourceDefinition['properties'] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['orderLineItem'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				description:
					"Add a line item (a charge for a unit type, protection level, product or security deposit) to a draft order. The price defaults to the item's price for the order's billing period and the order's totals are recomputed. Returns the new line item.",
				action: 'Add a line item to an order',
				routing: { request: { method: 'POST' } },
			},
		],
		default: 'create',
	},
	resourceLocator({
		name: 'orderId',
		displayName: 'Order',
		prefix: 'order_',
		searchListMethod: 'searchOrders',
		url: '/orders/{id}/line_items',
		displayOptions: create,
		description: 'The draft order to add the line item to. Only draft orders accept new line items.',
	}),
	{
		displayName: 'Type',
		name: 'lineItemType',
		type: 'options',
		required: true,
		options: optionsOf(Object.keys(LINE_ITEM_ITEM_PREFIX)),
		default: 'unit_type',
		description: TYPE_DESCRIPTION,
		displayOptions: create,
		routing: { send: { type: 'body', property: 'type' } },
	},
	{
		displayName: 'Unit Type Name or ID',
		name: 'unitTypeId',
		type: 'options',
		required: true,
		typeOptions: { loadOptionsMethod: 'getUnitTypes' },
		default: '',
		description:
			'The unit type charged for (its rent, or its security deposit). Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		displayOptions: forTypes(['unit_type', 'security_deposit']),
		routing: {
			send: {
				type: 'body',
				property: 'item.id',
				preSend: [checkIdPrefix('unitTypeId', 'Unit Type', 'utype_')],
			},
		},
	},
	resourceLocator({
		name: 'protectionLevelId',
		displayName: 'Protection Level',
		prefix: 'plvl_',
		searchListMethod: 'searchProtectionLevels',
		send: { type: 'body', property: 'item.id' },
		displayOptions: forTypes(['protection']),
	}),
	resourceLocator({
		name: 'productId',
		displayName: 'Product',
		prefix: 'prod_',
		searchListMethod: 'searchProducts',
		send: { type: 'body', property: 'item.id' },
		displayOptions: forTypes(['product']),
	}),
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: create,
		options: [
			{
				displayName: 'Price (Minor Units)',
				name: 'price',
				type: 'number',
				typeOptions: { minValue: 0, numberPrecision: 0 },
				default: 0,
				description:
					"Unit price in minor currency units (pence/cents), e.g. 4500 = 45.00. Without it the item's own price for the order's billing period is used.",
				routing: {
					send: {
						type: 'body',
						property: 'price.amount',
						preSend: [
							checkNumber('additionalFields.price', 'Price (Minor Units)', {
								min: 0,
								integer: true,
							}),
						],
					},
				},
			},
			{
				displayName: 'Quantity',
				name: 'quantity',
				type: 'number',
				typeOptions: { minValue: 1, numberPrecision: 0 },
				default: 1,
				description: 'How many of the item (default 1)',
				routing: {
					send: {
						type: 'body',
						property: 'quantity',
						preSend: [
							checkNumber('additionalFields.quantity', 'Quantity', {
								min: 1,
								integer: true,
							}),
						],
					},
				},
			},
		],
	},
];

export const orderLineItemResource: ResourceDefinition = {
	option: { name: 'Order Line Item', value: 'orderLineItem' },
	properties,
};
