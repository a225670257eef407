import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { basePriceRows, expandOption, locator, optionsCollection, simplifyToggle } from '../common';

const properties: INodeProperties[] = [
	locator('product'),
	basePriceRows(),
	optionsCollection([expandOption(['category', 'site'])]),
	simplifyToggle(),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['product'], operation: ['setBasePrice'] } },
	properties,
);
