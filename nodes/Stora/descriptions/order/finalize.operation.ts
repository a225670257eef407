import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { fieldsCollection } from '../common/bodies';
import { simplifyToggle } from '../common/getMany';
import { locator } from '../common/records';

const properties: INodeProperties[] = [
	locator('order'),
	fieldsCollection('additionalFields', [
		{
			displayName: 'Cancel Redirect URL',
			name: 'cancelRedirectUrl',
			type: 'string',
			default: '',
			placeholder: 'https://example.com/booking-cancelled',
			description: 'Where the hosted checkout sends the customer who cancels the payment',
			routing: { send: { type: 'body', property: 'finalize.cancel_redirect_url' } },
		},
	]),
	simplifyToggle(),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['order'], operation: ['finalize'] } },
	properties,
);
