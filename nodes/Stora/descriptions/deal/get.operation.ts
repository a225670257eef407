import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { DEAL_EXPAND, expandOption, LINE_ITEM_ITEMS, locator, optionsCollection, simplifyToggle } from '../common';

const properties: INodeProperties[] = [
	locator('deal'),
	optionsCollection([expandOption(DEAL_EXPAND, LINE_ITEM_ITEMS)]),
	simplifyToggle(),
];

export const description = updateDisplayOptions({ show: { resource: ['deal'], operation: ['get'] } }, properties);
