import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { basePriceRows, locator, simplifyToggle } from '../common';

const properties: INodeProperties[] = [locator('protectionLevel'), basePriceRows(), simplifyToggle()];

export const description = updateDisplayOptions(
	{ show: { resource: ['protectionLevel'], operation: ['setBasePrice'] } },
	properties,
);
