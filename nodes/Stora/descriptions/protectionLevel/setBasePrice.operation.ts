import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { basePriceRows } from '../common/bodies';
import { expandOption, optionsCollection, simplifyToggle } from '../common/getMany';
import { locator } from '../common/records';

// The docs' protection level holds no reference (yet: site scoping is announced), so `expand` takes typed paths.
const properties: INodeProperties[] = [
	locator('protectionLevel'),
	basePriceRows(),
	optionsCollection([expandOption([])]),
	simplifyToggle(),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['protectionLevel'], operation: ['setBasePrice'] } },
	properties,
);
