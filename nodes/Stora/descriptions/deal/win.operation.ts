import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	expandOption,
	LINE_ITEM_ITEMS,
	optionsCollection,
	simplifyToggle,
} from '../common/getMany';
import { locator } from '../common/records';
import { DEAL_EXPAND } from './fields';

const properties: INodeProperties[] = [
	locator('deal'),
	optionsCollection([expandOption(DEAL_EXPAND, LINE_ITEM_ITEMS)]),
	simplifyToggle(),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['deal'], operation: ['win'] } },
	properties,
);
