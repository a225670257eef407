import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { optionsOf } from '../common/choices';
import {
	expandOption,
	LINE_ITEM_ITEMS,
	optionsCollection,
	simplifyToggle,
} from '../common/getMany';
import { locator } from '../common/records';
import { DEAL_EXPAND } from './fields';

const LOST_REASONS = [
	'accessibility_concern',
	'better_deal_elsewhere',
	'chose_competitor',
	'price_concerns',
];

const properties: INodeProperties[] = [
	locator('deal'),
	{
		displayName: 'Lost Reason',
		name: 'lostReason',
		type: 'options',
		options: optionsOf(LOST_REASONS),
		default: 'price_concerns',
		required: true,
		description: 'Why the deal was lost',
		routing: { send: { type: 'body', property: 'lost_reason' } },
	},
	optionsCollection([expandOption(DEAL_EXPAND, LINE_ITEM_ITEMS)]),
	simplifyToggle(),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['deal'], operation: ['lose'] } },
	properties,
);
