import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { binaryPropertyName, locator } from '../common';

const properties: INodeProperties[] = [locator('contract'), binaryPropertyName()];

export const description = updateDisplayOptions(
	{ show: { resource: ['contract'], operation: ['downloadPdf'] } },
	properties,
);
