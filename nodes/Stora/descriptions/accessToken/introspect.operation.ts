import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

const properties: INodeProperties[] = [
	{
		displayName: 'Token To Check',
		name: 'token',
		type: 'string',
		typeOptions: { password: true },
		default: '',
		required: true,
		description: 'The access token to introspect',
		routing: { send: { type: 'body', property: 'token' } },
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['accessToken'], operation: ['introspect'] } },
	properties,
);
