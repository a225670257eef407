import type { IDataObject, IExecuteSingleFunctions, IHttpRequestOptions, INodeProperties } from 'n8n-workflow';

import {
	dateWindows,
	EMPTY_AS_NULL,
	expandOption,
	filtersCollection,
	ISO_DATE_TIME_OR_NULL,
	metadataBodyField,
	metadataFilter,
	multiValueFilter,
	optionsCollection,
	optionsOf,
	outputFormat,
	resourceLocator,
	returnAllAndLimit,
	showFor,
	simplifyToggle,
	sortOptions,
	type ResourceDefinition,
} from '../shared/descriptions';
import { checkDate, checkIdPrefix } from '../shared/validation';

const LOST_REASONS = ['accessibility_concern', 'better_deal_elsewhere', 'chose_competitor', 'price_concerns'];
const STATUSES = ['open', 'won', 'lost'];

/** What `expand` can return in full on a deal. */
export const DEAL_EXPAND = ['assignee', 'contact', 'creator', 'line_items.item', 'site', 'stage'];

/**
 * `expand` with readable names for dotted paths (`line_items.item` reads "Line Item Unit Types and Protection
 * Levels"), for the records of the CRM group.
 */
export function crmExpand(values: string[]): INodeProperties {
	const property = expandOption(values);
	const names: Record<string, string> = {
		'line_items.item': 'Line Item Unit Types and Protection Levels',
	};
	return {
		...property,
		options: (property.options as Array<{ name: string; value: string }>)
			.map((option) => ({
				...option,
				name: names[option.value] ?? option.name,
			}))
			.sort((a, b) => a.name.localeCompare(b.name)),
	};
}

/** A dropdown of records that live in the API (sites, deal stages, unit types), sent as `{ <property>: { id } }`. */
export function dropdownField(options: {
	/** e.g. `Site Name or ID` (n8n's naming for dropdowns loaded from the API). */
	displayName: string;
	/** e.g. `Site`, used in validation messages. */
	label: string;
	name: string;
	/** Full parameter path for the prefix check, e.g. `additionalFields.siteId`. */
	path: string;
	property: string;
	prefix: string;
	loadOptionsMethod: string;
	description: string;
	required?: boolean;
	displayOptions?: INodeProperties['displayOptions'];
}): INodeProperties {
	return {
		displayName: options.displayName,
		name: options.name,
		type: 'options',
		typeOptions: { loadOptionsMethod: options.loadOptionsMethod },
		default: '',
		required: options.required,
		description: `${options.description}. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.`,
		displayOptions: options.displayOptions,
		routing: {
			send: {
				type: 'body',
				property: `${options.property}.id`,
				preSend: [checkIdPrefix(options.path, options.label, options.prefix)],
			},
		},
	};
}

/** A Get Many filter on records that live in the API (sites, deal stages), several allowed, sent comma-separated. */
export function dropdownFilter(
	displayName: string,
	name: string,
	query: string,
	loadOptionsMethod: string,
	description: string,
): INodeProperties {
	return {
		displayName,
		name,
		type: 'multiOptions',
		typeOptions: { loadOptionsMethod },
		default: [],
		description: `${description}. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.`,
		routing: {
			send: {
				type: 'query',
				property: query,
				value: '={{ ($value ?? []).length ? [].concat($value).join(",") : undefined }}',
			},
		},
	};
}

/** A plain ID field (records the node cannot list, such as staff members), checked against the API's prefix. */
export function idField(options: {
	displayName: string;
	name: string;
	path: string;
	property: string;
	prefix: string;
	description: string;
}): INodeProperties {
	return {
		displayName: options.displayName,
		name: options.name,
		type: 'string',
		default: '',
		placeholder: `${options.prefix}a1b2c3`,
		description: options.description,
		routing: {
			send: {
				type: 'body',
				property: `${options.property}.id`,
				preSend: [checkIdPrefix(options.path, options.displayName.replace(/ ID$/, ''), options.prefix)],
			},
		},
	};
}

/**
 * `line_items` from the Unit Type and Protection Level fields: at most one of each, and sending them replaces the
 * deal's line items.
 */
function sendLineItems(collection: string) {
	return async function (this: IExecuteSingleFunctions, options: IHttpRequestOptions) {
		const fields = this.getNodeParameter(collection, {}) as IDataObject;
		const lineItems: IDataObject[] = [];
		if (fields.unitTypeId)
			lineItems.push({
				type: 'unit_type',
				item: { id: String(fields.unitTypeId).trim() },
			});
		if (fields.protectionLevelId) {
			lineItems.push({
				type: 'protection',
				item: { id: String(fields.protectionLevelId).trim() },
			});
		}
		if (lineItems.length)
			options.body = {
				...((options.body as IDataObject | undefined) ?? {}),
				line_items: lineItems,
			};
		return options;
	};
}

/** The optional members of Create (Additional Fields) and Update (Update Fields). */
function dealFields(collection: string, update: boolean): INodeProperties[] {
	const path = (name: string) => `${collection}.${name}`;
	const lineItems = update ? ' Sending a unit type or protection level replaces all line items of the deal.' : '';
	return [
		idField({
			displayName: 'Assignee ID',
			name: 'assigneeId',
			path: path('assigneeId'),
			property: 'assignee',
			prefix: 'staff_',
			description: 'ID of the staff member who owns the deal (staff_...)',
		}),
		metadataBodyField(collection),
		{
			displayName: 'Name',
			name: 'name',
			type: 'string',
			default: '',
			description: update ? 'New name of the deal' : "Name of the deal. Defaults to the contact's name.",
			routing: { send: { type: 'body', property: 'name' } },
		},
		{
			displayName: 'Note',
			name: 'note',
			type: 'string',
			default: '',
			description: `Free text shown as the value estimate in Backoffice, e.g. "£50 per month"${update ? '. Leave empty to clear it.' : ''}`,
			routing: {
				send: { type: 'body', property: 'note', value: EMPTY_AS_NULL },
			},
		},
		{
			displayName: 'Protection Level ID',
			name: 'protectionLevelId',
			type: 'string',
			default: '',
			placeholder: 'plvl_a1b2c3',
			description: `Protection level (plvl_...) the contact is interested in, as the deal's protection line item.${lineItems}`,
			routing: {
				send: {
					preSend: [
						checkIdPrefix(path('protectionLevelId'), 'Protection Level ID', 'plvl_'),
						sendLineItems(collection),
					],
				},
			},
		},
		dropdownField({
			displayName: 'Site Name or ID',
			label: 'Site',
			name: 'siteId',
			path: path('siteId'),
			property: 'site',
			prefix: 'site_',
			loadOptionsMethod: 'getSites',
			description: 'Site the contact wants to store at',
		}),
		dropdownField({
			displayName: 'Stage Name or ID',
			label: 'Stage',
			name: 'stageId',
			path: path('stageId'),
			property: 'stage',
			prefix: 'dstg_',
			loadOptionsMethod: 'getDealStages',
			description: update ? 'Pipeline stage to move the deal to' : 'Pipeline stage to create the deal in',
		}),
		{
			displayName: 'Starts At',
			name: 'startsAt',
			type: 'dateTime',
			default: '',
			description: `Intended move-in date${update ? '. Leave empty to clear it.' : ''}`,
			routing: {
				send: {
					type: 'body',
					property: 'starts_at',
					value: ISO_DATE_TIME_OR_NULL,
					preSend: [checkDate(path('startsAt'), 'Starts At')],
				},
			},
		},
		{
			displayName: 'Unit Type Name or ID',
			name: 'unitTypeId',
			type: 'options',
			typeOptions: { loadOptionsMethod: 'getUnitTypes' },
			default: '',
			description: `Unit type the contact is interested in, as the deal's unit type line item.${lineItems} Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>`,
			routing: {
				send: {
					preSend: [checkIdPrefix(path('unitTypeId'), 'Unit Type', 'utype_'), sendLineItems(collection)],
				},
			},
		},
	];
}

const getMany = showFor('deal', ['getAll']);
const withExpand = showFor('deal', ['get', 'lose', 'reopen', 'win']);

const properties: ResourceDefinition['properties'] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['deal'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				description:
					'Create a deal (a potential order) for a contact, optionally in a pipeline stage, at a site, with a unit type. Returns the new deal with its ID (deal_...).',
				action: 'Create a deal',
				routing: { request: { method: 'POST', url: '/deals' } },
			},
			{
				name: 'Get',
				value: 'get',
				description: 'Get a deal by ID: its contact, stage, status (open, won or lost), site and line items',
				action: 'Get a deal',
				routing: { request: { method: 'GET' } },
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description:
					'List deals, optionally filtered by status, contact, site, stage, assignee, name search, dates or metadata',
				action: 'Get many deals',
				routing: { request: { method: 'GET', url: '/deals' } },
			},
			{
				name: 'Lose',
				value: 'lose',
				description: 'Mark an open deal as lost, with the reason. Returns the deal with status "lost".',
				action: 'Lose a deal',
				routing: { request: { method: 'POST' } },
			},
			{
				name: 'Reopen',
				value: 'reopen',
				description:
					'Reopen a won or lost deal, optionally into another stage or for another assignee. Returns the deal with status "open".',
				action: 'Reopen a deal',
				routing: { request: { method: 'POST' } },
			},
			{
				name: 'Update',
				value: 'update',
				description: 'Change fields of a deal; fields not given stay unchanged. Returns the updated deal.',
				action: 'Update a deal',
				routing: { request: { method: 'PATCH' } },
			},
			{
				name: 'Win',
				value: 'win',
				description: 'Mark an open deal as won. Returns the deal with status "won".',
				action: 'Win a deal',
				routing: { request: { method: 'POST' } },
			},
		],
		default: 'getAll',
	},
	resourceLocator({
		name: 'dealId',
		displayName: 'Deal',
		prefix: 'deal_',
		searchListMethod: 'searchDeals',
		url: '/deals/{id}',
		actions: { win: '/win', lose: '/lose', reopen: '/reopen' },
		displayOptions: showFor('deal', ['get', 'lose', 'reopen', 'update', 'win']),
	}),

	// Create
	resourceLocator({
		name: 'contactId',
		displayName: 'Contact',
		prefix: 'con_',
		searchListMethod: 'searchContacts',
		send: { type: 'body', property: 'contact.id' },
		description: 'The contact the deal is for',
		displayOptions: showFor('deal', ['create']),
	}),
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: showFor('deal', ['create']),
		options: dealFields('additionalFields', false),
	},

	// Update
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: showFor('deal', ['update']),
		options: dealFields('updateFields', true),
	},

	// Lose
	{
		displayName: 'Lost Reason',
		name: 'lostReason',
		type: 'options',
		options: optionsOf(LOST_REASONS),
		default: 'price_concerns',
		required: true,
		description: 'Why the deal was lost',
		displayOptions: showFor('deal', ['lose']),
		routing: { send: { type: 'body', property: 'lost_reason' } },
	},

	// Reopen
	{
		displayName: 'Additional Fields',
		name: 'reopenFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: showFor('deal', ['reopen']),
		options: [
			idField({
				displayName: 'Assignee ID',
				name: 'assigneeId',
				path: 'reopenFields.assigneeId',
				property: 'assignee',
				prefix: 'staff_',
				description: 'ID of the staff member who owns the reopened deal (staff_...)',
			}),
			dropdownField({
				displayName: 'Stage Name or ID',
				label: 'Stage',
				name: 'stageId',
				path: 'reopenFields.stageId',
				property: 'stage',
				prefix: 'dstg_',
				loadOptionsMethod: 'getDealStages',
				description: 'Pipeline stage to reopen the deal into',
			}),
		],
	},

	// Get, Win, Lose, Reopen
	optionsCollection(withExpand, [crmExpand(DEAL_EXPAND)]),

	// Get Many
	...returnAllAndLimit(getMany),
	filtersCollection(getMany, [
		{
			displayName: 'Assignee IDs',
			name: 'assigneeId',
			type: 'string',
			default: '',
			placeholder: 'staff_a1b2c3,staff_d4e5f6',
			description:
				'Only deals owned by these staff members (comma-separated IDs; "unspecified" for unassigned deals)',
			routing: { send: { type: 'query', property: 'assignee_id' } },
		},
		{
			displayName: 'Contact IDs',
			name: 'contactId',
			type: 'string',
			default: '',
			placeholder: 'con_a1b2c3,con_d4e5f6',
			description: 'Only deals of these contacts (comma-separated IDs)',
			routing: { send: { type: 'query', property: 'contact_id' } },
		},
		...dateWindows(['created', 'starts', 'updated']),
		metadataFilter(),
		{
			displayName: 'Name Search',
			name: 'search',
			type: 'string',
			default: '',
			description: 'Search on the deal name',
			routing: { send: { type: 'query', property: 'search' } },
		},
		dropdownFilter('Site Names or IDs', 'siteId', 'site_id', 'getSites', 'Only deals at these sites'),
		dropdownFilter('Stage Names or IDs', 'stageId', 'stage_id', 'getDealStages', 'Only deals in these stages'),
		multiValueFilter('Status', 'status', 'status', STATUSES),
	]),
	optionsCollection(getMany, [crmExpand(DEAL_EXPAND), ...sortOptions(['created_at', 'starts_at', 'updated_at'])]),
	...outputFormat(getMany),
	simplifyToggle(showFor('deal', ['get', 'getAll', 'lose', 'reopen', 'win'])),
];

export const dealResource: ResourceDefinition = {
	option: { name: 'Deal', value: 'deal' },
	properties,
	simplifiedFields: [
		'id',
		'name',
		'status',
		'stage',
		'contact',
		'site',
		'assignee',
		'value_estimate',
		'lost_reason',
		'starts_at',
		'created_at',
		'updated_at',
	],
};
