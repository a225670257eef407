import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { locator } from '../common/records';

const properties: INodeProperties[] = [locator('contact')];

export const description = updateDisplayOptions(
	{ show: { resource: ['contact'], operation: ['delete'] } },
	properties,
);
