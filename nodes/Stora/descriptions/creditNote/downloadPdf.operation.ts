import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { binaryPropertyName, locator } from '../common';

const properties: INodeProperties[] = [locator('creditNote'), binaryPropertyName()];

export const description = updateDisplayOptions(
	{ show: { resource: ['creditNote'], operation: ['downloadPdf'] } },
	properties,
);
