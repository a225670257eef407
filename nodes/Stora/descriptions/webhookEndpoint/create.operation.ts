import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { fieldsCollection, metadataBodyField } from '../common/bodies';
import { webhookDescriptionField, webhookEventTypesField, webhookUrlField } from './fields';

const properties: INodeProperties[] = [
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		required: true,
		default: '',
		description: 'A name for the endpoint, shown in Stora',
		routing: { send: { type: 'body', property: 'name' } },
	},
	webhookUrlField('url', true),
	webhookEventTypesField('eventTypes', true),
	fieldsCollection('additionalFields', [
		webhookDescriptionField,
		metadataBodyField('additionalFields'),
	]),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['webhookEndpoint'], operation: ['create'] } },
	properties,
);
