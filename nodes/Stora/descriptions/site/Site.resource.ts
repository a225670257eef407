import type { INodeProperties } from 'n8n-workflow';

import * as get from './get.operation';
import * as getAll from './getAll.operation';

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['site'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				description: 'Get a site (a physical storage location) by ID',
				action: 'Get a site',
				routing: { request: { method: 'GET', url: '/sites/{siteId}' } },
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'List sites, optionally filtered by name and creation or update time',
				action: 'Get many sites',
				routing: { request: { method: 'GET', url: '/sites' } },
			},
		],
		default: 'getAll',
	},
	...get.description,
	...getAll.description,
];
