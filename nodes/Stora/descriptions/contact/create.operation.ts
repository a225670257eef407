import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { checkEmail } from '../../helpers/validation';
import { fieldsCollection } from '../common/bodies';
import { contactFields } from '../common/contact';

const properties: INodeProperties[] = [
	{
		displayName: 'Email',
		name: 'email',
		type: 'string',
		placeholder: 'name@email.com',
		default: '',
		required: true,
		description: 'Email address of the contact',
		routing: {
			send: {
				type: 'body',
				property: 'email',
				preSend: [checkEmail('email', 'Email', { sentAs: 'email' })],
			},
		},
	},
	fieldsCollection('additionalFields', contactFields({ collection: 'additionalFields' })),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['contact'], operation: ['create'] } },
	properties,
);
