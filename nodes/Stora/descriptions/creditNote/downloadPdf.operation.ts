import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { binaryPropertyName } from '../common/downloads';
import { locator } from '../common/records';

const properties: INodeProperties[] = [locator('creditNote'), binaryPropertyName()];

export const description = updateDisplayOptions(
	{ show: { resource: ['creditNote'], operation: ['downloadPdf'] } },
	properties,
);
