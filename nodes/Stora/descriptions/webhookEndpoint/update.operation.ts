import type {
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { fail } from '../../helpers/validation';
import { fieldsCollection, metadataBodyField } from '../common/bodies';
import { locator } from '../common/records';
import { webhookDescriptionField, webhookEventTypesField, webhookUrlField } from './fields';

/** An update must change something. */
async function checkUpdateFields(this: IExecuteSingleFunctions, options: IHttpRequestOptions) {
	const fields = this.getNodeParameter('updateFields', {}) as IDataObject;
	if (!Object.keys(fields).length) {
		fail(
			this,
			'Update Fields: add at least one field to change',
			'Choose the fields of the webhook endpoint to update.',
		);
	}
	return options;
}

const properties: INodeProperties[] = [
	locator('webhookEndpoint'),
	{
		...fieldsCollection('updateFields', [
			webhookDescriptionField,
			webhookEventTypesField('updateFields.eventTypes', false),
			metadataBodyField('updateFields'),
			{
				displayName: 'Name',
				name: 'name',
				type: 'string',
				default: '',
				routing: { send: { type: 'body', property: 'name' } },
			},
			{
				displayName: 'Status',
				name: 'status',
				type: 'options',
				options: [
					{ name: 'Disabled', value: 'disabled', description: 'Stora stops sending events' },
					{ name: 'Enabled', value: 'enabled', description: 'Stora sends events' },
				],
				default: 'enabled',
				routing: { send: { type: 'body', property: 'status' } },
			},
			webhookUrlField('updateFields.url', false),
		]),
		routing: { send: { preSend: [checkUpdateFields] } },
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['webhookEndpoint'], operation: ['update'] } },
	properties,
);
