import type { IDataObject, IExecuteSingleFunctions, IHttpRequestOptions, INodeProperties } from 'n8n-workflow';

import { API_VERSION } from '../shared/constants';
import {
	EMPTY_AS_NULL,
	expandOption,
	filtersCollection,
	metadataBodyField,
	metadataFilter,
	multiValueFilter,
	optionsCollection,
	outputFormat,
	resourceLocator,
	returnAllAndLimit,
	showFor,
	sortOptions,
	type ResourceDefinition,
} from '../shared/descriptions';
import { fail } from '../shared/validation';
import { EVENT_TYPE_OPTIONS } from '../shared/events';

const getMany = showFor('webhookEndpoint', ['getAll']);
const create = showFor('webhookEndpoint', ['create']);
const update = showFor('webhookEndpoint', ['update']);
const EXPAND = ['creator'];


/** Stora only delivers to HTTPS addresses: say so before the API rejects the URL. */
function checkHttpsUrl(parameter: string) {
	return async function (this: IExecuteSingleFunctions, options: IHttpRequestOptions) {
		const raw = this.getNodeParameter(parameter, undefined) as string | undefined;
		if (raw === undefined) return options;
		let url: URL | undefined;
		try {
			url = new URL(String(raw).trim());
		} catch {
			url = undefined;
		}
		if (!url || url.protocol !== 'https:' || !url.hostname) {
			fail(
				this,
				`URL: "${String(raw)}" is not an https:// URL`,
				'Stora only sends webhooks to public HTTPS addresses, e.g. https://example.com/hooks/stora.',
			);
		}
		return options;
	};
}

/** Event types from the multi-select, or from an expression giving an array or a comma-separated string. */
const EVENT_TYPES_VALUE =
	'={{ (Array.isArray($value) ? $value : String($value ?? "").split(",")).map((type) => String(type).trim()).filter((type) => type !== "") }}';

function checkEventTypes(parameter: string) {
	return async function (this: IExecuteSingleFunctions, options: IHttpRequestOptions) {
		const raw = this.getNodeParameter(parameter, undefined) as string[] | string | undefined;
		if (raw === undefined) return options;
		const types = (Array.isArray(raw) ? raw : String(raw).split(','))
			.map((type) => String(type).trim())
			.filter(Boolean);
		if (!types.length) {
			fail(
				this,
				'Event Types: choose at least one event type',
				'An endpoint must subscribe to at least one event type.',
			);
		}
		return options;
	};
}

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

function eventTypesField(required: boolean, parameter: string): INodeProperties {
	return {
		displayName: 'Event Types',
		name: 'eventTypes',
		type: 'multiOptions',
		options: EVENT_TYPE_OPTIONS,
		default: [],
		required,
		description: 'The events Stora sends to the URL',
		routing: {
			send: {
				type: 'body',
				property: 'event_types',
				value: EVENT_TYPES_VALUE,
				preSend: [checkEventTypes(parameter)],
			},
		},
	};
}

const descriptionField: INodeProperties = {
	displayName: 'Description',
	name: 'description',
	type: 'string',
	default: '',
	description: 'What the endpoint is for. Left empty on update, it clears the description.',
	routing: {
		send: { type: 'body', property: 'description', value: EMPTY_AS_NULL },
	},
};

const properties: ResourceDefinition['properties'] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['webhookEndpoint'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				description:
					'Register an HTTPS URL that Stora sends the chosen webhook events to. Returns the new endpoint including its signing secret (64 hex characters): this is the only time the secret is returned, so store it to verify signatures.',
				action: 'Create a webhook endpoint',
				routing: {
					request: {
						method: 'POST',
						url: '/webhook_endpoints',
						body: { api_version: API_VERSION },
					},
				},
			},
			{
				name: 'Delete',
				value: 'delete',
				description: 'Delete a webhook endpoint: Stora stops sending events to it. Returns deleted: true and the ID.',
				action: 'Delete a webhook endpoint',
				routing: { request: { method: 'DELETE' } },
			},
			{
				name: 'Get',
				value: 'get',
				description:
					'Get a webhook endpoint by ID. Returns its name, URL, event types and status; the signing secret is not returned (null).',
				action: 'Get a webhook endpoint',
				routing: { request: { method: 'GET' } },
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description:
					'List webhook endpoints, optionally filtered by status or metadata. Returns one item per endpoint.',
				action: 'Get many webhook endpoints',
				routing: { request: { method: 'GET', url: '/webhook_endpoints' } },
			},
			{
				name: 'Update',
				value: 'update',
				description:
					'Change the name, description, URL, event types, status or metadata of a webhook endpoint. Returns the updated endpoint (secret null).',
				action: 'Update a webhook endpoint',
				routing: { request: { method: 'PATCH' } },
			},
		],
		default: 'getAll',
	},
	resourceLocator({
		name: 'webhookEndpointId',
		displayName: 'Webhook Endpoint',
		prefix: 'we_',
		searchListMethod: 'searchWebhookEndpoints',
		url: '/webhook_endpoints/{id}',
		displayOptions: showFor('webhookEndpoint', ['delete', 'get', 'update']),
	}),
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		required: true,
		default: '',
		description: 'A name for the endpoint, shown in Stora',
		displayOptions: create,
		routing: { send: { type: 'body', property: 'name' } },
	},
	{
		displayName: 'URL',
		name: 'url',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'https://example.com/hooks/stora',
		description: 'The HTTPS address Stora sends the events to',
		displayOptions: create,
		routing: {
			send: { type: 'body', property: 'url', preSend: [checkHttpsUrl('url')] },
		},
	},
	{ ...eventTypesField(true, 'eventTypes'), displayOptions: create },
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: create,
		options: [descriptionField, metadataBodyField('additionalFields')],
	},
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: update,
		routing: { send: { preSend: [checkUpdateFields] } },
		options: [
			descriptionField,
			eventTypesField(false, 'updateFields.eventTypes'),
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
					{
						name: 'Disabled',
						value: 'disabled',
						description: 'Stora stops sending events',
					},
					{
						name: 'Enabled',
						value: 'enabled',
						description: 'Stora sends events',
					},
				],
				default: 'enabled',
				routing: { send: { type: 'body', property: 'status' } },
			},
			{
				displayName: 'URL',
				name: 'url',
				type: 'string',
				default: '',
				placeholder: 'https://example.com/hooks/stora',
				description: 'The HTTPS address Stora sends the events to',
				routing: {
					send: {
						type: 'body',
						property: 'url',
						preSend: [checkHttpsUrl('updateFields.url')],
					},
				},
			},
		],
	},
	...returnAllAndLimit(getMany),
	filtersCollection(getMany, [metadataFilter(), multiValueFilter('Status', 'status', 'status', ['disabled', 'enabled'])]),
	optionsCollection(getMany, [expandOption(EXPAND), ...sortOptions(['created_at'])]),
	optionsCollection(showFor('webhookEndpoint', ['get']), [expandOption(EXPAND)]),
	...outputFormat(getMany),
];

export const webhookEndpointResource: ResourceDefinition = {
	option: { name: 'Webhook Endpoint', value: 'webhookEndpoint' },
	properties,
};
