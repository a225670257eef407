import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { expandOption, optionsCollection, simplifyToggle } from '../common/getMany';
import { locator } from '../common/records';

const EXPAND = ['contact', 'contract_template', 'tenancy'];

const properties: INodeProperties[] = [
	locator('contract'),
	optionsCollection([expandOption(EXPAND)]),
	simplifyToggle(),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['contract'], operation: ['get'] } },
	properties,
);
