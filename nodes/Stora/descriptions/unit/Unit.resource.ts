import type { INodeProperties } from 'n8n-workflow';

import * as deallocate from './deallocate.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as grantAccess from './grantAccess.operation';
import * as overlock from './overlock.operation';
import * as removeOverlock from './removeOverlock.operation';
import * as reserve from './reserve.operation';

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['unit'] } },
		options: [
			{
				name: 'Deallocate',
				value: 'deallocate',
				description:
					'Release a reserved or occupied unit from its tenancy so it becomes available again. Returns the updated unit.',
				action: 'Deallocate a unit',
				routing: { request: { method: 'POST', url: '/units/{unitId}/deallocate' } },
			},
			{
				name: 'Get',
				value: 'get',
				description:
					'Get a unit (one bookable storage space) by ID. Returns its reference, site, unit type, status and current allocation.',
				action: 'Get a unit',
				routing: { request: { method: 'GET', url: '/units/{unitId}' } },
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description:
					'List units, optionally filtered by site, unit type and status (e.g. available units of a size at a site). Returns one item per unit.',
				action: 'Get many units',
				routing: { request: { method: 'GET', url: '/units' } },
			},
			{
				name: 'Grant Access',
				value: 'grantAccess',
				description:
					'Give a tenancy immediate access to a unit: the unit becomes occupied. A reserved unit must be reserved for the same tenancy. Returns the updated unit.',
				action: 'Grant access to a unit',
				routing: {
					request: { method: 'POST', url: '/units/{unitId}/grant_access' },
				},
			},
			{
				name: 'Overlock',
				value: 'overlock',
				description:
					'Overlock every occupied unit of a contact (e.g. for unpaid rent). Returns success, a message saying how many units were overlocked, and their IDs in unit_ids.',
				action: 'Overlock the units of a contact',
				routing: { request: { method: 'POST', url: '/units/overlock' } },
			},
			{
				name: 'Remove Overlock',
				value: 'removeOverlock',
				description:
					'Remove the overlock from every overlocked unit of a contact. Returns success, a message saying how many units were released, and their IDs in unit_ids.',
				action: 'Remove the overlock from the units of a contact',
				routing: { request: { method: 'POST', url: '/units/remove_overlock' } },
			},
			{
				name: 'Reserve',
				value: 'reserve',
				description:
					'Reserve an available unit for a tenancy until move-in: the unit becomes reserved. Returns the updated unit.',
				action: 'Reserve a unit',
				routing: { request: { method: 'POST', url: '/units/{unitId}/reserve' } },
			},
		],
		default: 'getAll',
	},
	...deallocate.description,
	...get.description,
	...getAll.description,
	...grantAccess.description,
	...overlock.description,
	...removeOverlock.description,
	...reserve.description,
];
