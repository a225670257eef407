import type { INodeProperties } from 'n8n-workflow';

import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as setBasePrice from './setBasePrice.operation';

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['product'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				description:
					'Get a product (a sellable item such as a padlock, boxes or a service) by ID. Returns its name, category, site, charge type and prices per billing period.',
				action: 'Get a product',
				routing: { request: { method: 'GET', url: '/products/{productId}' } },
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'List products, newest first. Returns one item per product.',
				action: 'Get many products',
				routing: { request: { method: 'GET', url: '/products' } },
			},
			{
				name: 'Set Base Price',
				value: 'setBasePrice',
				description:
					'Set the base price of a product for one or more billing periods (amounts in minor units). Prices of other periods are kept. Returns the product with its prices.',
				action: 'Set the base price of a product',
				routing: {
					request: { method: 'POST', url: '/products/{productId}/base_price' },
				},
			},
		],
		default: 'getAll',
	},
	...get.description,
	...getAll.description,
	...setBasePrice.description,
];
