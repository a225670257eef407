import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { fieldsCollection } from '../common/bodies';
import { locator } from '../common/records';
import { dealFields } from './fields';

const properties: INodeProperties[] = [
	locator('contact', {
		name: 'dealContactId',
		send: { type: 'body', property: 'contact.id' },
		description: 'The contact the deal is for',
	}),
	fieldsCollection('additionalFields', dealFields('additionalFields', false)),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['deal'], operation: ['create'] } },
	properties,
);
