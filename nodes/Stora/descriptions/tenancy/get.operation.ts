import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { expandOption, optionsCollection } from '../common/getMany';
import { locator } from '../common/records';

const EXPAND = ['contact', 'order', 'site', 'subscription', 'unit_allocations'];

const properties: INodeProperties[] = [
	locator('tenancy'),
	optionsCollection([expandOption(EXPAND)]),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['tenancy'], operation: ['get'] } },
	properties,
);
