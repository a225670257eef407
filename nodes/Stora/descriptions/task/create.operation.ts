import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { fieldsCollection } from '../common/bodies';
import { taskFields } from './fields';

const properties: INodeProperties[] = [
	{
		displayName: 'Title',
		name: 'title',
		type: 'string',
		default: '',
		required: true,
		description: 'Short title of the task',
		routing: { send: { type: 'body', property: 'title' } },
	},
	fieldsCollection('additionalFields', taskFields('additionalFields', false)),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['task'], operation: ['create'] } },
	properties,
);
