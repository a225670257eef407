import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { locator } from '../common/records';

const properties: INodeProperties[] = [
	locator('contact', {
		name: 'unitContactId',
		send: { type: 'body', property: 'contact_id' },
		description: 'The contact whose units are overlocked or released',
	}),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['unit'], operation: ['overlock'] } },
	properties,
);
