import type { INodeProperties } from 'n8n-workflow';

import * as update from './update.operation';

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['priceAdjustment'] } },
		options: [
			{
				name: 'Update',
				value: 'update',
				description:
					"Change a draft price adjustment (a scheduled percentage change to a subscription's recurring prices): its percentage, effective date, what it applies to and the customer's notice period. Estimates are recomputed. A scheduled (pending) adjustment cannot be changed. Returns the updated price adjustment.",
				action: 'Update a price adjustment',
				routing: {
					request: {
						method: 'PATCH',
						url: '/price_adjustments/{priceAdjustmentId}',
					},
				},
			},
		],
		default: 'update',
	},
	...update.description,
];
