import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { basePriceRows } from '../common/bodies';
import { expandOption, optionsCollection, simplifyToggle } from '../common/getMany';
import { locator } from '../common/records';

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
