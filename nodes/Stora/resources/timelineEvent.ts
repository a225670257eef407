import type { IDataObject, IExecuteSingleFunctions, IHttpRequestOptions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import {
	optionsCollection,
	resourceLocator,
	showFor,
	type ResourceDefinition,
} from '../shared/descriptions';
import { checkIdPrefix, sendKeyValues } from '../shared/validation';
import { crmExpand, dropdownField, idField } from './deal';

const EXPAND = [
	'contact',
	'creator',
	'invoice',
	'site',
	'source',
	'subscription',
	'template',
	'tenancy',
	'unit',
	'unit_type',
];

/** The custom variables of the template, as name/value rows sent as one `variables` object. */
function variablesField(path: string): INodeProperties {
	return {
		displayName: 'Template Variables',
		name: 'variables',
		type: 'fixedCollection',
		placeholder: 'Add Variable',
		typeOptions: { multipleValues: true },
		default: {},
		description:
			"Values of the template's custom variables (see the template's variables.custom, e.g. topic or duration). Its predefined variables are the links (contact, site, invoice, ...).",
		options: [
			{
				displayName: 'Variable',
				name: 'entry',
				values: [
					{ displayName: 'Name', name: 'key', type: 'string', default: '' },
					{ displayName: 'Value', name: 'value', type: 'string', default: '' },
				],
			},
		],
		routing: { send: { preSend: [sendKeyValues(path, 'variables')] } },
	};
}

/** `external` needs both its ID and its URL: one without the other fails here, before any request. */
function checkExternal(collection: string) {
	return async function (this: IExecuteSingleFunctions, options: IHttpRequestOptions) {
		const fields = this.getNodeParameter(collection, {}) as IDataObject;
		const id = String(fields.externalId ?? '').trim();
		const url = String(fields.externalUrl ?? '').trim();
		if (!id || !url) {
			throw new NodeOperationError(this.getNode(), 'External ID and External URL go together', {
				description: 'The link to the record in your system needs both its ID and its URL. Set both, or neither.',
				itemIndex: this.getItemIndex(),
			});
		}
		if (!/^https?:\/\/\S+$/.test(url)) {
			throw new NodeOperationError(this.getNode(), `External URL: "${url}" is not a URL`, {
				description: 'Use a full address starting with https:// or http://.',
				itemIndex: this.getItemIndex(),
			});
		}
		return options;
	};
}

/** The links (predefined template variables) and texts of Create (Additional Fields) and Update (Update Fields). */
function eventFields(collection: string, update: boolean): INodeProperties[] {
	const path = (name: string) => `${collection}.${name}`;
	const link = (displayName: string, name: string, property: string, prefix: string, what: string) =>
		idField({
			displayName,
			name,
			path: path(name),
			property,
			prefix,
			description: `The ${what} the event is about (${prefix}...)`,
		});
	return [
		...(update ? [link('Contact ID', 'contactId', 'contact', 'con_', 'contact')] : []),
		{
			displayName: 'Description',
			name: 'description',
			type: 'string',
			typeOptions: { rows: 3 },
			default: '',
			description: "Text shown on the timeline. Without it, the text is rendered from the template's message.",
			routing: { send: { type: 'body', property: 'description' } },
		},
		{
			displayName: 'External ID',
			name: 'externalId',
			type: 'string',
			default: '',
			description: 'ID of the matching record in your system (goes with External URL)',
			routing: {
				send: {
					type: 'body',
					property: 'external.id',
					preSend: [checkExternal(collection)],
				},
			},
		},
		{
			displayName: 'External URL',
			name: 'externalUrl',
			type: 'string',
			default: '',
			placeholder: 'https://example.com/calls/1001',
			description: 'Link to the matching record in your system (goes with External ID)',
			routing: {
				send: {
					type: 'body',
					property: 'external.url',
					preSend: [checkExternal(collection)],
				},
			},
		},
		link('Invoice ID', 'invoiceId', 'invoice', 'inv_', 'invoice'),
		dropdownField({
			displayName: 'Site Name or ID',
			label: 'Site',
			name: 'siteId',
			path: path('siteId'),
			property: 'site',
			prefix: 'site_',
			loadOptionsMethod: 'getSites',
			description: 'The site the event is about',
		}),
		...(update
			? [
					dropdownField({
						displayName: 'Source Name or ID',
						label: 'Source',
						name: 'sourceId',
						path: path('sourceId'),
						property: 'source',
						prefix: 'tsrc_',
						loadOptionsMethod: 'getTimelineSources',
						description: 'The system the event comes from',
					}),
				]
			: []),
		link('Subscription ID', 'subscriptionId', 'subscription', 'sub_', 'subscription'),
		...(update
			? [
					dropdownField({
						displayName: 'Template Name or ID',
						label: 'Template',
						name: 'templateId',
						path: path('templateId'),
						property: 'template',
						prefix: 'aetpl_',
						loadOptionsMethod: 'getTimelineTemplates',
						description: 'The message template of the event',
					}),
					variablesField(path('variables')),
				]
			: []),
		link('Tenancy ID', 'tenancyId', 'tenancy', 'ten_', 'tenancy'),
		link('Unit ID', 'unitId', 'unit', 'unit_', 'unit'),
		{
			displayName: 'Unit Type Name or ID',
			name: 'unitTypeId',
			type: 'options',
			typeOptions: { loadOptionsMethod: 'getUnitTypes' },
			default: '',
			description:
				'The unit type the event is about. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
			routing: {
				send: {
					type: 'body',
					property: 'unit_type.id',
					preSend: [checkIdPrefix(path('unitTypeId'), 'Unit Type', 'utype_')],
				},
			},
		},
	];
}

const create = showFor('timelineEvent', ['create']);

const properties: ResourceDefinition['properties'] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['timelineEvent'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				description:
					"Post a custom entry on a contact's timeline from an external system (a call, a gate access, ...), from a source and a message template. The template's predefined variables (e.g. contact, site, invoice) must be given as links, its custom variables as Template Variables. Returns the event with its ID (aevt_...).",
				action: 'Create a timeline event',
				routing: { request: { method: 'POST', url: '/timeline/events' } },
			},
			{
				name: 'Update',
				value: 'update',
				description:
					'Change a timeline event (its links, description, external link, source, template or variables). Returns the updated event.',
				action: 'Update a timeline event',
				routing: { request: { method: 'PATCH' } },
			},
		],
		default: 'create',
	},

	// Create
	dropdownField({
		displayName: 'Source Name or ID',
		label: 'Source',
		name: 'sourceId',
		path: 'sourceId',
		property: 'source',
		prefix: 'tsrc_',
		loadOptionsMethod: 'getTimelineSources',
		description: 'The system the event comes from',
		required: true,
		displayOptions: create,
	}),
	dropdownField({
		displayName: 'Template Name or ID',
		label: 'Template',
		name: 'templateId',
		path: 'templateId',
		property: 'template',
		prefix: 'aetpl_',
		loadOptionsMethod: 'getTimelineTemplates',
		description: 'The message template; it says which links and variables the event needs',
		required: true,
		displayOptions: create,
	}),
	resourceLocator({
		name: 'contactId',
		displayName: 'Contact',
		prefix: 'con_',
		searchListMethod: 'searchContacts',
		required: false,
		send: {
			type: 'body',
			property: 'contact',
			value: '={{ $value ? { id: $value } : undefined }}',
		},
		description: 'The contact whose timeline shows the event (needed by most templates)',
		displayOptions: create,
	}),
	{ ...variablesField('variables'), displayOptions: create },
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: create,
		options: eventFields('additionalFields', false),
	},

	// Update
	resourceLocator({
		name: 'eventId',
		displayName: 'Timeline Event',
		prefix: 'aevt_',
		url: '/timeline/events/{id}',
		description: 'ID of the timeline event (aevt_...), as returned when it was created',
		displayOptions: showFor('timelineEvent', ['update']),
	}),
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: showFor('timelineEvent', ['update']),
		options: eventFields('updateFields', true),
	},

	optionsCollection(create, [crmExpand(EXPAND)]),
];

export const timelineEventResource: ResourceDefinition = {
	option: { name: 'Timeline Event', value: 'timelineEvent' },
	properties,
};
