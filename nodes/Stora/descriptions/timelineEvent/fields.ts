/** The fields of Timeline Event Create and Update, and what an event can expand. */
import type {
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

import { sendKeyValues } from '../../helpers/body';
import { ID_PREFIXES, type RecordKind } from '../../helpers/records';
import { fail } from '../../helpers/validation';
import { idField, recordDropdown } from '../common/records';

/** What `expand` can return in full on a timeline event. */
export const TIMELINE_EVENT_EXPAND = [
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

/** The custom variables of a timeline template, as name/value rows sent as one `variables` object. */
export function timelineVariablesField(path: string): INodeProperties {
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

/** A timeline event's `external` needs both its ID and its URL: one without the other fails before any request. */
function checkExternal(collection: string) {
	return async function (this: IExecuteSingleFunctions, options: IHttpRequestOptions) {
		const fields = this.getNodeParameter(collection, {}) as IDataObject;
		const id = String(fields.externalId ?? '').trim();
		const url = String(fields.externalUrl ?? '').trim();
		if (!id || !url) {
			fail(
				this,
				'External ID and External URL go together',
				'The link to the record in your system needs both its ID and its URL. Set both, or neither.',
			);
		}
		if (!/^https?:\/\/\S+$/.test(url)) {
			fail(
				this,
				`External URL: "${url}" is not a URL`,
				'Use a full address starting with https:// or http://.',
			);
		}
		return options;
	};
}

/** The links (predefined template variables) and texts of Timeline Event Create and Update. */
export function timelineEventFields(collection: string, update: boolean): INodeProperties[] {
	const path = (name: string) => `${collection}.${name}`;
	const link = (
		displayName: string,
		name: string,
		property: string,
		kind: RecordKind,
		what: string,
	) =>
		idField(kind, {
			displayName,
			name,
			path: path(name),
			property,
			description: `The ${what} the event is about (${ID_PREFIXES[kind]}...)`,
		});
	return [
		...(update ? [link('Contact ID', 'contactId', 'contact', 'contact', 'contact')] : []),
		{
			displayName: 'Description',
			name: 'description',
			type: 'string',
			typeOptions: { rows: 3 },
			default: '',
			description:
				"Text shown on the timeline. Without it, the text is rendered from the template's message.",
			routing: { send: { type: 'body', property: 'description' } },
		},
		{
			displayName: 'External ID',
			name: 'externalId',
			type: 'string',
			default: '',
			description: 'ID of the matching record in your system (goes with External URL)',
			routing: {
				send: { type: 'body', property: 'external.id', preSend: [checkExternal(collection)] },
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
				send: { type: 'body', property: 'external.url', preSend: [checkExternal(collection)] },
			},
		},
		link('Invoice ID', 'invoiceId', 'invoice', 'invoice', 'invoice'),
		recordDropdown('site', {
			path: path('siteId'),
			property: 'site',
			description: 'The site the event is about',
		}),
		...(update
			? [
					recordDropdown('timelineSource', {
						name: 'sourceId',
						path: path('sourceId'),
						property: 'source',
						description: 'The system the event comes from',
					}),
				]
			: []),
		link('Subscription ID', 'subscriptionId', 'subscription', 'subscription', 'subscription'),
		...(update
			? [
					recordDropdown('timelineTemplate', {
						name: 'templateId',
						path: path('templateId'),
						property: 'template',
						description: 'The message template of the event',
					}),
					timelineVariablesField(path('variables')),
				]
			: []),
		link('Tenancy ID', 'tenancyId', 'tenancy', 'tenancy', 'tenancy'),
		link('Unit ID', 'unitId', 'unit', 'unit', 'unit'),
		recordDropdown('unitType', {
			path: path('unitTypeId'),
			property: 'unit_type',
			description: 'The unit type the event is about',
		}),
	];
}
