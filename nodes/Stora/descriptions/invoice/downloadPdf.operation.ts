import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { binaryPropertyName } from '../common/downloads';
import { locator } from '../common/records';

const properties: INodeProperties[] = [locator('invoice'), binaryPropertyName()];

export const description = updateDisplayOptions(
	{ show: { resource: ['invoice'], operation: ['downloadPdf'] } },
	properties,
);
