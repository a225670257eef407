import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { fieldsCollection } from '../common/bodies';
import { locator } from '../common/records';
import { taskFields } from './fields';

const properties: INodeProperties[] = [
	locator('task'),
	fieldsCollection('updateFields', [
		...taskFields('updateFields', true),
		{
			displayName: 'Title',
			name: 'title',
			type: 'string',
			default: '',
			description: 'New title of the task',
			routing: { send: { type: 'body', property: 'title' } },
		},
	]),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['task'], operation: ['update'] } },
	properties,
);
