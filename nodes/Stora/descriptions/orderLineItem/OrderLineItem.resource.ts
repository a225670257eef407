import type { INodeProperties } from 'n8n-workflow';

import * as create from './create.operation';

export const description: INodeProperties[] = [
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
				routing: {
					request: { method: 'POST', url: '/orders/{orderLineItemOrderId}/line_items' },
				},
			},
		],
		default: 'create',
	},
	...create.description,
];
