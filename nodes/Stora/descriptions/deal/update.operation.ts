import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { dealFields, fieldsCollection, locator } from '../common';

const properties: INodeProperties[] = [
	locator('deal'),
	fieldsCollection('updateFields', dealFields('updateFields', true)),
];

export const description = updateDisplayOptions({ show: { resource: ['deal'], operation: ['update'] } }, properties);
