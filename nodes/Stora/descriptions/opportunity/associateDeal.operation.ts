import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { expandOption, LINE_ITEM_ITEMS, optionsCollection } from '../common/getMany';
import { locator } from '../common/records';

const properties: INodeProperties[] = [
	locator('opportunity', {
		description: 'ID of the opportunity (opp_...), e.g. from a Stora Trigger event',
	}),
	locator('deal', {
		name: 'opportunityDealId',
		send: { type: 'body', property: 'deal.id' },
		description: 'The deal to link the opportunity to; it must belong to the same contact',
	}),
	optionsCollection([
		expandOption(['contact', 'creator', 'deal', 'line_items.item', 'site'], LINE_ITEM_ITEMS),
	]),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['opportunity'], operation: ['associateDeal'] } },
	properties,
);
