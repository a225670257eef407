import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { checkEmail } from '../../helpers/validation';
import { fieldsCollection } from '../common/bodies';
import { contactFields } from '../common/contact';
import { locator } from '../common/records';

const properties: INodeProperties[] = [
	locator('contact'),
	fieldsCollection(
		'updateFields',
		contactFields({ collection: 'updateFields' }, [
			{
				displayName: 'Email',
				name: 'email',
				type: 'string',
				placeholder: 'name@email.com',
				default: '',
				description: 'New email address of the contact',
				routing: {
					send: {
						type: 'body',
						property: 'email',
						preSend: [
							checkEmail('updateFields.email', 'Email', { optional: true, sentAs: 'email' }),
						],
					},
				},
			},
		]),
	),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['contact'], operation: ['update'] } },
	properties,
);
