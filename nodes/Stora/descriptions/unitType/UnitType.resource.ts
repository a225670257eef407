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
		displayOptions: { show: { resource: ['unitType'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				description:
					'Get a unit type (a standard storage offering at a site) by ID. Returns its name, size, dimensions, site, images and prices per billing period.',
				action: 'Get a unit type',
				routing: { request: { method: 'GET', url: '/unit_types/{unitTypeId}' } },
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'List unit types with their sites and prices. Returns one item per unit type.',
				action: 'Get many unit types',
				routing: { request: { method: 'GET', url: '/unit_types' } },
			},
			{
				name: 'Set Base Price',
				value: 'setBasePrice',
				description:
					'Set the base price of a unit type for one or more billing periods (amounts in minor units). Prices of other periods are kept. Returns the updated unit type with one price per period.',
				action: 'Set the base price of a unit type',
				routing: {
					request: { method: 'POST', url: '/unit_types/{unitTypeId}/base_price' },
				},
			},
		],
		default: 'getAll',
	},
	...get.description,
	...getAll.description,
	...setBasePrice.description,
];
