import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { expandOption, locator, optionsCollection, simplifyToggle } from '../common';

const EXPAND = ['contact', 'contract_template', 'tenancy'];

const properties: INodeProperties[] = [
	locator('contract'),
	optionsCollection([expandOption(EXPAND)]),
	simplifyToggle(),
];

export const description = updateDisplayOptions({ show: { resource: ['contract'], operation: ['get'] } }, properties);
