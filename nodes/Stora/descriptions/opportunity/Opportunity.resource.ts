import type { INodeProperties } from 'n8n-workflow';

import * as associateDeal from './associateDeal.operation';
import * as disassociateDeal from './disassociateDeal.operation';

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['opportunity'] } },
		options: [
			{
				name: 'Associate Deal',
				value: 'associateDeal',
				description:
					'Link an opportunity (an expression of interest such as an incomplete booking or quote request) to an existing deal of the same contact. Fails with a conflict if it is already associated, was converted to a deal before, or belongs to another contact. Returns the opportunity with status "associated".',
				action: 'Associate an opportunity with a deal',
				routing: {
					request: {
						method: 'POST',
						url: '/opportunities/{opportunityId}/associate_deal',
					},
				},
			},
			{
				name: 'Disassociate Deal',
				value: 'disassociateDeal',
				description:
					'Remove the link between an opportunity and its deal. Fails with a conflict if it has no deal. Returns the opportunity, open again (or archived if it was archived before).',
				action: 'Disassociate an opportunity from its deal',
				routing: {
					request: {
						method: 'DELETE',
						url: '/opportunities/{opportunityId}/associate_deal',
					},
				},
			},
		],
		default: 'associateDeal',
	},
	...associateDeal.description,
	...disassociateDeal.description,
];
