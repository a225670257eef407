import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { expandOption, locator, optionsCollection, simplifyToggle, ORDER_EXPAND } from '../common';

const properties: INodeProperties[] = [
	locator('order'),
	optionsCollection([expandOption(ORDER_EXPAND)]),
	simplifyToggle(),
];

export const description = updateDisplayOptions({ show: { resource: ['order'], operation: ['get'] } }, properties);
