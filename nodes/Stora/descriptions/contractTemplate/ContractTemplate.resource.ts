import type { INodeProperties } from 'n8n-workflow';

import * as getAll from './getAll.operation';

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['contractTemplate'] } },
		options: [
			{
				name: 'Get Many',
				value: 'getAll',
				description:
					'List contract templates (the reusable blueprints contracts and orders are generated from), with their ID and name',
				action: 'Get many contract templates',
				routing: { request: { method: 'GET', url: '/contract_templates' } },
			},
		],
		default: 'getAll',
	},
	...getAll.description,
];
