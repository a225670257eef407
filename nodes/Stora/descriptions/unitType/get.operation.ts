import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { expandOption, optionsCollection, simplifyToggle } from '../common/getMany';
import { locator } from '../common/records';

const EXPAND = ['promotion', 'site'];

const properties: INodeProperties[] = [
	locator('unitType'),
	optionsCollection([expandOption(EXPAND)]),
	simplifyToggle(),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['unitType'], operation: ['get'] } },
	properties,
);
