import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { expandOption, optionsCollection, simplifyToggle } from '../common/getMany';
import { locator } from '../common/records';

const EXPAND = ['contact', 'site', 'subscription', 'tenancy'];

const properties: INodeProperties[] = [
	locator('invoice'),
	optionsCollection([expandOption(EXPAND)]),
	simplifyToggle(),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['invoice'], operation: ['get'] } },
	properties,
);
