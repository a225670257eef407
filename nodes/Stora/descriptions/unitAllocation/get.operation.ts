import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { expandOption, optionsCollection } from '../common/getMany';
import { locator } from '../common/records';

const EXPAND = ['tenancy', 'unit'];

const properties: INodeProperties[] = [
	locator('unitAllocation'),
	optionsCollection([expandOption(EXPAND)]),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['unitAllocation'], operation: ['get'] } },
	properties,
);
