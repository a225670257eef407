import type { INodeProperties } from 'n8n-workflow';

import * as get from './get.operation';
import * as getAll from './getAll.operation';

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['subscription'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				description:
					'Get a subscription (a recurring billing agreement) by ID. Returns its billing period, current period, contact, site, tenancy, recurring line items and whether it is cancelled.',
				action: 'Get a subscription',
				routing: {
					request: { method: 'GET', url: '/subscriptions/{subscriptionId}' },
				},
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'List subscriptions, newest first. Returns one item per subscription.',
				action: 'Get many subscriptions',
				routing: { request: { method: 'GET', url: '/subscriptions' } },
			},
		],
		default: 'getAll',
	},
	...get.description,
	...getAll.description,
];
