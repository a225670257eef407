import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { binaryPropertyName, locator } from '../common';

const properties: INodeProperties[] = [locator('invoice'), binaryPropertyName()];

export const description = updateDisplayOptions(
	{ show: { resource: ['invoice'], operation: ['downloadPdf'] } },
	properties,
);
