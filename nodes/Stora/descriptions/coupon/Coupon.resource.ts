import type { INodeProperties } from 'n8n-workflow';

import * as get from './get.operation';
import * as getAll from './getAll.operation';

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['coupon'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				description:
					'Get a coupon (a reusable promotion reducing a price by a percentage or a fixed amount) by ID. Returns its type, percent or amount, code, duration and what it applies to automatically.',
				action: 'Get a coupon',
				routing: { request: { method: 'GET', url: '/coupons/{couponId}' } },
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description:
					'List coupons, newest first, optionally filtered by creation or update time. Returns one item per coupon.',
				action: 'Get many coupons',
				routing: { request: { method: 'GET', url: '/coupons' } },
			},
		],
		default: 'getAll',
	},
	...get.description,
	...getAll.description,
];
