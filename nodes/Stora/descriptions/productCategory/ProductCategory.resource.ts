import type { INodeProperties } from 'n8n-workflow';

import * as get from './get.operation';
import * as getAll from './getAll.operation';

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['productCategory'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				description:
					'Get a product category (a classification of products) by ID. Returns its ID and name.',
				action: 'Get a product category',
				routing: {
					request: {
						method: 'GET',
						url: '/product_categories/{productCategoryId}',
					},
				},
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'List product categories. Returns one item per category with its ID and name.',
				action: 'Get many product categories',
				routing: { request: { method: 'GET', url: '/product_categories' } },
			},
		],
		default: 'getAll',
	},
	...get.description,
	...getAll.description,
];
