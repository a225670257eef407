import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { checkNumber } from '../../helpers/validation';
import { fieldsCollection, lineItemTypeField } from '../common/bodies';
import { locator, recordDropdown } from '../common/records';

const forTypes = (types: string[]) => ({ show: { lineItemType: types } });

const properties: INodeProperties[] = [
	locator('order', {
		name: 'orderLineItemOrderId',
		description:
			'The draft order to add the line item to. Only draft orders accept new line items.',
	}),
	{
		...lineItemTypeField('lineItemType'),
		required: true,
		routing: { send: { type: 'body', property: 'type' } },
	},
	{
		...recordDropdown('unitType', {
			name: 'orderLineItemUnitTypeId',
			required: true,
			property: 'item',
			description: 'The unit type charged for (its rent, or its security deposit)',
		}),
		displayOptions: forTypes(['unit_type', 'security_deposit']),
	},
	{
		...locator('protectionLevel', {
			name: 'orderLineItemProtectionLevelId',
			send: { type: 'body', property: 'item.id' },
		}),
		displayOptions: forTypes(['protection']),
	},
	{
		...locator('product', {
			name: 'orderLineItemProductId',
			send: { type: 'body', property: 'item.id' },
		}),
		displayOptions: forTypes(['product']),
	},
	fieldsCollection('additionalFields', [
		{
			displayName: 'Price (Minor Units)',
			name: 'price',
			type: 'number',
			typeOptions: { minValue: 0, numberPrecision: 0 },
			default: 0,
			description:
				"Unit price in minor currency units (pence/cents), e.g. 4500 = 45.00. Without it the item's own price for the order's billing period is used.",
			builderHint: {
				propertyHint:
					"A whole number in minor currency units (pence/cents) of the site's currency: 45.00 is 4500. Never a decimal or a currency symbol.",
			},
			routing: {
				send: {
					type: 'body',
					property: 'price.amount',
					preSend: [
						checkNumber('additionalFields.price', 'Price (Minor Units)', { min: 0, integer: true }),
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
						checkNumber('additionalFields.quantity', 'Quantity', { min: 1, integer: true }),
					],
				},
			},
		},
	]),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['orderLineItem'], operation: ['create'] } },
	properties,
);
