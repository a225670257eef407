import {
	optionsCollection,
	resourceLocator,
	showFor,
	type ResourceDefinition,
} from '../shared/descriptions';
import { crmExpand } from './deal';

const both = showFor('opportunity', ['associateDeal', 'disassociateDeal']);

const properties: ResourceDefinition['properties'] = [
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
				routing: { request: { method: 'POST' } },
			},
			{
				name: 'Disassociate Deal',
				value: 'disassociateDeal',
				description:
					'Remove the link between an opportunity and its deal. Fails with a conflict if it has no deal. Returns the opportunity, open again (or archived if it was archived before).',
				action: 'Disassociate an opportunity from its deal',
				routing: { request: { method: 'DELETE' } },
			},
		],
		default: 'associateDeal',
	},
	// The API has no endpoint listing opportunities, so they are picked by ID only.
	resourceLocator({
		name: 'opportunityId',
		displayName: 'Opportunity',
		prefix: 'opp_',
		url: '/opportunities/{id}/associate_deal',
		description: 'ID of the opportunity (opp_...), e.g. from a Stora Trigger event',
		displayOptions: both,
	}),
	resourceLocator({
		name: 'dealId',
		displayName: 'Deal',
		prefix: 'deal_',
		searchListMethod: 'searchDeals',
		send: { type: 'body', property: 'deal.id' },
		description: 'The deal to link the opportunity to; it must belong to the same contact',
		displayOptions: showFor('opportunity', ['associateDeal']),
	}),
	optionsCollection(both, [crmExpand(['contact', 'creator', 'deal', 'line_items.item', 'site'])]),
];

export const opportunityResource: ResourceDefinition = {
	option: { name: 'Opportunity', value: 'opportunity' },
	properties,
};
