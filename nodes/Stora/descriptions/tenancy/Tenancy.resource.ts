import type { INodeProperties } from 'n8n-workflow';

import * as get from './get.operation';
import * as getAll from './getAll.operation';

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['tenancy'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				description:
					'Get a tenancy (a storage agreement between a contact and the operator at a site) by ID. Returns its contact, site, order, subscription, unit allocations and start and end dates.',
				action: 'Get a tenancy',
				routing: { request: { method: 'GET', url: '/tenancies/{tenancyId}' } },
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description:
					'List tenancies. Returns one item per tenancy; an active tenancy has no end date or one in the future.',
				action: 'Get many tenancies',
				routing: { request: { method: 'GET', url: '/tenancies' } },
			},
		],
		default: 'getAll',
	},
	...get.description,
	...getAll.description,
];
