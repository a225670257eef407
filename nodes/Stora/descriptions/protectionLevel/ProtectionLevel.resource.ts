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
		displayOptions: { show: { resource: ['protectionLevel'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				description:
					'Get a protection level (optional cover for stored goods up to a coverage amount) by ID. Returns its cover level, prices per billing period and whether it is public.',
				action: 'Get a protection level',
				routing: {
					request: { method: 'GET', url: '/protection_levels/{protectionLevelId}' },
				},
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'List protection levels, newest first. Returns one item per protection level.',
				action: 'Get many protection levels',
				routing: { request: { method: 'GET', url: '/protection_levels' } },
			},
			{
				name: 'Set Base Price',
				value: 'setBasePrice',
				description:
					'Set the base price of a protection level for one or more billing periods (amounts in minor units). Prices of other periods are kept. Returns the protection level with its prices.',
				action: 'Set the base price of a protection level',
				routing: {
					request: {
						method: 'POST',
						url: '/protection_levels/{protectionLevelId}/base_price',
					},
				},
			},
		],
		default: 'getAll',
	},
	{
		displayName:
			"Stora has announced a breaking change to the protection level endpoints: protection levels are becoming site-scoped. Workflows that list or price protection levels may need a site once Stora releases the new API version; check Stora's changelog before relying on them.",
		name: 'protectionLevelNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { resource: ['protectionLevel'] } },
	},
	...get.description,
	...getAll.description,
	...setBasePrice.description,
];
