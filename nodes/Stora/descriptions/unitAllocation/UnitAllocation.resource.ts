import type { INodeProperties } from 'n8n-workflow';

import * as get from './get.operation';
import * as getAll from './getAll.operation';

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['unitAllocation'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				description:
					'Get a unit allocation (the assignment of a unit to a tenancy) by ID. Returns its unit, tenancy and when the unit was reserved and access was granted.',
				action: 'Get a unit allocation',
				routing: {
					request: { method: 'GET', url: '/unit_allocations/{unitAllocationId}' },
				},
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description:
					'List unit allocations, optionally filtered by contact, tenancy, unit or site (e.g. which units a contact holds). Returns one item per allocation.',
				action: 'Get many unit allocations',
				routing: { request: { method: 'GET', url: '/unit_allocations' } },
			},
		],
		default: 'getAll',
	},
	...get.description,
	...getAll.description,
];
