import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { fieldsCollection } from '../common/bodies';
import { locator } from '../common/records';
import { dealFields } from './fields';

const properties: INodeProperties[] = [
	locator('deal'),
	fieldsCollection('updateFields', dealFields('updateFields', true)),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['deal'], operation: ['update'] } },
	properties,
);
