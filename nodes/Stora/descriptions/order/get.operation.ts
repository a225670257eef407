import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { expandOption, optionsCollection, simplifyToggle } from '../common/getMany';
import { locator } from '../common/records';
import { ORDER_EXPAND } from './fields';

const properties: INodeProperties[] = [
	locator('order'),
	optionsCollection([expandOption(ORDER_EXPAND)]),
	simplifyToggle(),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['order'], operation: ['get'] } },
	properties,
);
