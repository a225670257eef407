import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { checkEmail } from '../../helpers/validation';
import { contactFields, fieldsCollection, locator } from '../common';

const properties: INodeProperties[] = [
	locator('contact'),
	fieldsCollection(
		'updateFields',
		contactFields('updateFields', [
			{
				displayName: 'Email',
				name: 'email',
				type: 'string',
				placeholder: 'name@email.com',
				default: '',
				description: 'New email address of the contact',
				routing: { send: { type: 'body', property: 'email', preSend: [checkEmail('updateFields.email', 'Email', true)] } },
			},
		]),
	),
];

export const description = updateDisplayOptions({ show: { resource: ['contact'], operation: ['update'] } }, properties);
