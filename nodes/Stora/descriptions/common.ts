/**
 * Every field builder the operations share. An operation file composes these and applies its own visibility with
 * n8n's updateDisplayOptions, so nothing here sets which resource or operation a field belongs to.
 */
import type {
	IDataObject,
	IDisplayOptions,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

import {
	BILLING_PERIODS,
	CONTACT_SOURCES,
	CONTACT_TYPES,
	ID_PREFIXES,
	LINE_ITEM_ITEM_PREFIX,
	MARKETING_SOURCES,
	MAX_PAGE_SIZE,
	USE_CASES,
	type RecordKind,
} from '../helpers/constants';
import { sendInWorkflowTimeZone } from '../helpers/dateTime';
import { EVENT_TYPE_OPTIONS } from '../helpers/events';
import {
	article,
	checkCountryCode,
	checkDate,
	checkedId,
	checkId,
	checkIdList,
	checkNumber,
	dropWhenEmpty,
	fail,
	idPattern,
	idsOf,
	sendKeyValues,
	sendMetadata,
	shown,
} from '../helpers/validation';

const EXPRESSION_LINK = '<a href="https://docs.n8n.io/code/expressions/">expression</a>';

/** How the node names and lists each kind of record in locators, dropdowns and ID filters. */
const RECORDS: Partial<
	Record<RecordKind, { displayName: string; searchListMethod?: string; loadOptionsMethod?: string }>
> = {
	contact: { displayName: 'Contact', searchListMethod: 'searchContacts' },
	contract: { displayName: 'Contract', searchListMethod: 'searchContracts' },
	contractTemplate: { displayName: 'Contract Template', loadOptionsMethod: 'getContractTemplates' },
	coupon: { displayName: 'Coupon', searchListMethod: 'searchCoupons' },
	creditNote: { displayName: 'Credit Note', searchListMethod: 'searchCreditNotes' },
	deal: { displayName: 'Deal', searchListMethod: 'searchDeals' },
	dealStage: { displayName: 'Stage', loadOptionsMethod: 'getDealStages' },
	identityVerification: { displayName: 'Identity Verification', searchListMethod: 'searchIdentityVerifications' },
	invoice: { displayName: 'Invoice', searchListMethod: 'searchInvoices' },
	note: { displayName: 'Note', searchListMethod: 'searchNotes' },
	// The API has no endpoint listing opportunities, price adjustments or timeline events: they are picked by ID only.
	opportunity: { displayName: 'Opportunity' },
	order: { displayName: 'Order', searchListMethod: 'searchOrders' },
	priceAdjustment: { displayName: 'Price Adjustment' },
	product: { displayName: 'Product', searchListMethod: 'searchProducts' },
	productCategory: { displayName: 'Product Category', searchListMethod: 'searchProductCategories' },
	protectionLevel: { displayName: 'Protection Level', searchListMethod: 'searchProtectionLevels' },
	site: { displayName: 'Site', searchListMethod: 'searchSites', loadOptionsMethod: 'getSites' },
	staff: { displayName: 'Assignee' },
	subscription: { displayName: 'Subscription', searchListMethod: 'searchSubscriptions' },
	task: { displayName: 'Task', searchListMethod: 'searchTasks' },
	tenancy: { displayName: 'Tenancy', searchListMethod: 'searchTenancies' },
	timelineEvent: { displayName: 'Timeline Event' },
	timelineSource: { displayName: 'Source', loadOptionsMethod: 'getTimelineSources' },
	timelineTemplate: { displayName: 'Template', loadOptionsMethod: 'getTimelineTemplates' },
	unit: { displayName: 'Unit', searchListMethod: 'searchUnits' },
	unitAllocation: { displayName: 'Unit Allocation', searchListMethod: 'searchUnitAllocations' },
	unitType: { displayName: 'Unit Type', searchListMethod: 'searchUnitTypes', loadOptionsMethod: 'getUnitTypes' },
	webhookEndpoint: { displayName: 'Webhook Endpoint', searchListMethod: 'searchWebhookEndpoints' },
};

const recordOf = (kind: RecordKind) => RECORDS[kind] ?? { displayName: kind };

// ---------------------------------------------------------------------------------------------------------------------
// Picking records

/**
 * A record picked From List (searchable), or By ID (checked against the API's prefix). The parameter is `<kind>Id`
 * unless `name` says otherwise. `send` puts the ID into the body or query; without it, the operation's URL names the
 * parameter (`/contacts/{contactId}`) and `fillRecordIds` checks and inserts it.
 */
export function locator(
	kind: RecordKind,
	options: {
		name?: string;
		displayName?: string;
		description?: string;
		/** Where the ID goes in the request, e.g. `{ type: 'body', property: 'contact.id' }`; `value` transforms it. */
		send?: { type: 'body' | 'query'; property: string; value?: string };
		/** Full parameter path for the prefix check when the locator sits in a collection, e.g. `additionalFields.contact`. */
		path?: string;
		/** Shown as required in the editor (default true). */
		required?: boolean;
		/** Whether an empty value passes the prefix check (default: when not required). */
		optional?: boolean;
	} = {},
): INodeProperties {
	const record = recordOf(kind);
	const displayName = options.displayName ?? record.displayName;
	const name = options.name ?? `${kind}Id`;
	const prefix = ID_PREFIXES[kind];
	const required = options.required ?? true;
	return {
		displayName,
		name,
		type: 'resourceLocator',
		default: { mode: record.searchListMethod ? 'list' : 'id', value: '' },
		required,
		description: options.description,
		modes: [
			...(record.searchListMethod
				? [
						{
							displayName: 'From List',
							name: 'list',
							type: 'list' as const,
							typeOptions: { searchListMethod: record.searchListMethod, searchable: true },
						},
					]
				: []),
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: `${prefix}a1b2c3`,
				validation: [
					{
						type: 'regex',
						properties: {
							regex: idPattern(prefix),
							errorMessage: `${article(displayName) === 'an' ? 'An' : 'A'} ${displayName.toLowerCase()} ID starts with "${prefix}"`,
						},
					},
				],
			},
		],
		// Without `send` or `path`, the operation's URL names the locator and `fillRecordIds` reads it there.
		...(options.send || options.path
			? {
					routing: {
						send: {
							...(options.send ?? {}),
							preSend: [checkId(options.path ?? name, displayName, prefix, options.optional ?? !required)],
						},
					},
				}
			: {}),
	};
}

/**
 * A dropdown of records that live in the API (sites, deal stages, unit types, ...), checked against the prefix. With
 * `property` it is sent as `{ <property>: { id } }`; without, an operation's URL reads it.
 */
export function recordDropdown(
	kind: RecordKind,
	options: {
		description: string;
		name?: string;
		label?: string;
		/** Full parameter path for the prefix check, e.g. `additionalFields.siteId`. */
		path?: string;
		property?: string;
		required?: boolean;
	},
): INodeProperties {
	const label = options.label ?? recordOf(kind).displayName;
	const name = options.name ?? `${kind}Id`;
	return {
		displayName: `${label} Name or ID`,
		name,
		type: 'options',
		typeOptions: { loadOptionsMethod: recordOf(kind).loadOptionsMethod },
		default: '',
		...(options.required ? { required: true } : {}),
		description: `${options.description}. Choose from the list, or specify an ID using an ${EXPRESSION_LINK}.`,
		// Without `property` or `path`, the operation's URL names the dropdown and `fillRecordIds` reads it there.
		...(options.property || options.path
			? {
					routing: {
						send: {
							...(options.property ? { type: 'body' as const, property: `${options.property}.id` } : {}),
							// Left empty, an optional dropdown is not set (required ones fail naming the field).
							preSend: [
								checkId(options.path ?? name, label, ID_PREFIXES[kind], !options.required),
								...(options.property && !options.required ? [dropWhenEmpty(options.path ?? name, `${options.property}.id`)] : []),
							],
						},
					},
				}
			: {}),
	};
}

/** The record kind of each parameter an operation's URL can name: `<kind>Id`, and four other names. */
const URL_RECORDS: Record<string, RecordKind> = {
	...Object.fromEntries((Object.keys(ID_PREFIXES) as RecordKind[]).map((kind) => [`${kind}Id`, kind])),
	stageId: 'dealStage',
	eventId: 'timelineEvent',
	templateId: 'timelineTemplate',
	lineItemOrderId: 'order',
};

/** The parameters an operation's URL names, e.g. `['contactId']` for `/contacts/{contactId}`. */
export function urlParameters(url: string): string[] {
	return [...url.matchAll(/\{(\w+)\}/g)].map(([, name]) => name);
}

/**
 * Puts the record IDs an operation's URL names (`/contacts/{contactId}`) into it, each checked against its prefix and
 * encoded. A fixed URL with this one preSend, rather than a URL expression and a check on the field, because n8n
 * evaluates the field's expression again for each of those on every item: 3 times per item instead of 7.
 */
export async function fillRecordIds(
	this: IExecuteSingleFunctions,
	options: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	let url = options.url;
	// Some operations (an image download) set their URL in a preSend of their own, later.
	if (url === undefined) return options;
	for (const name of urlParameters(url)) {
		const kind = URL_RECORDS[name];
		if (kind === undefined) throw new Error(`No record kind for the URL parameter {${name}}`);
		const id = checkedId(this, name, recordOf(kind).displayName, ID_PREFIXES[kind]) as string;
		url = url.replace(`{${name}}`, encodeURIComponent(id));
	}
	return url === options.url ? options : { ...options, url };
}

/** A plain ID field (records the node cannot list, such as staff members), sent as `{ <property>: { id } }`. */
export function idField(
	kind: RecordKind,
	options: { displayName: string; name: string; path: string; property: string; description: string },
): INodeProperties {
	const prefix = ID_PREFIXES[kind];
	return {
		displayName: options.displayName,
		name: options.name,
		type: 'string',
		default: '',
		placeholder: `${prefix}a1b2c3`,
		description: options.description,
		routing: {
			send: {
				type: 'body',
				property: `${options.property}.id`,
				// Optional, and a plain text field (no list): left empty it is not set.
				preSend: [
					checkId(options.path, options.displayName.replace(/ ID$/, ''), prefix, true, false),
					dropWhenEmpty(options.path, `${options.property}.id`),
				],
			},
		},
	};
}

/** A text field for the ID of a record of one of several kinds (what a note or task is about), sent at `property`. */
export function linkedRecordField(options: {
	displayName: string;
	name: string;
	path: string;
	property: string;
	kinds: RecordKind[];
	description: string;
	required?: boolean;
}): INodeProperties {
	return {
		displayName: options.displayName,
		name: options.name,
		type: 'string',
		default: '',
		...(options.required ? { required: true } : {}),
		placeholder: `${ID_PREFIXES[options.kinds[0]]}a1b2c3`,
		description: options.description,
		routing: {
			send: {
				type: 'body',
				property: options.property,
				value: '={{ String($value).trim() }}',
				preSend: [
					checkId(
						options.path,
						options.displayName,
						options.kinds.map((kind) => ID_PREFIXES[kind]),
						!options.required,
						false,
					),
					...(options.required ? [] : [dropWhenEmpty(options.path, options.property)]),
				],
			},
		},
	};
}

// ---------------------------------------------------------------------------------------------------------------------
// Get Many: Return All, Limit, filters, options, output

/** "Return All" and "Limit" for a Get Many operation. Limit is also the page size, so it never exceeds 100. */
export function returnAllAndLimit(): INodeProperties[] {
	return [
		{
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			default: false,
			description: 'Whether to return all results or only up to a given limit',
		},
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			default: 50,
			typeOptions: { minValue: 1, maxValue: MAX_PAGE_SIZE },
			description: 'Max number of results to return',
			displayOptions: { show: { returnAll: [false] } },
			routing: {
				send: {
					type: 'query',
					property: 'limit',
					preSend: [checkNumber('limit', 'Limit', { min: 1, max: MAX_PAGE_SIZE, integer: true, required: true })],
				},
			},
		},
	];
}

/** A Get Many's "Filters" collection: the API's list filters, each sent only when the user adds it. */
export function filtersCollection(options: INodeProperties[]): INodeProperties {
	return {
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options,
	};
}

/** An operation's "Options" collection (sort, expand, ...). */
export function optionsCollection(options: INodeProperties[]): INodeProperties {
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options,
	};
}

/**
 * "Simplify" for resources with wide records: what it keeps per resource is helpers/output.ts's SIMPLIFIED_FIELDS.
 * Hidden for a CSV export, which it does not change.
 */
export function simplifyToggle(): INodeProperties {
	return {
		displayName: 'Simplify',
		name: 'simplify',
		type: 'boolean',
		default: false,
		description: 'Whether to return a simplified version of the response instead of the raw data',
		displayOptions: { hide: { outputFormat: ['csv'] } },
	};
}

const titleCase = (value: string) =>
	value
		.split('_')
		.map((word) => word.charAt(0).toUpperCase() + word.slice(1))
		.join(' ');

/** Options for a fixed list of API values, named in Title Case and sorted as the lint requires. */
export function optionsOf(values: string[], names: Record<string, string> = {}): INodePropertyOptions[] {
	return values
		.map((value) => ({ name: names[value] ?? titleCase(value), value }))
		.sort((a, b) => a.name.localeCompare(b.name));
}

/** "Sort By" (the API defaults to created_at everywhere) and "Sort Direction" for a Get Many's Options collection. */
export function sortOptions(sortBy: string[]): INodeProperties[] {
	return [
		{
			displayName: 'Sort By',
			name: 'sortBy',
			type: 'options',
			options: optionsOf(sortBy),
			default: 'created_at',
			routing: { send: { type: 'query', property: 'sort_by' } },
		},
		{
			displayName: 'Sort Direction',
			name: 'sortDirection',
			type: 'options',
			options: [
				{ name: 'Ascending', value: 'ASC' },
				{ name: 'Descending', value: 'DESC' },
			],
			default: 'DESC',
			routing: { send: { type: 'query', property: 'sort_direction' } },
		},
	];
}

/**
 * `routing.send` of a date-time field: checked before any request (`checkDate`, naming the field), then sent as the
 * instant it means in the workflow's time zone, in ISO 8601 UTC (helpers/dateTime.ts). Left empty it is not sent, or
 * sent as null with `emptyAsNull` (which clears the field on the record).
 */
export function dateTimeSend(
	type: 'query' | 'body',
	property: string,
	parameter: string,
	label: string,
	emptyAsNull = false,
): NonNullable<INodeProperties['routing']>['send'] {
	return { type, property, preSend: [checkDate(parameter, label), sendInWorkflowTimeZone(type, property, emptyAsNull)] };
}

/**
 * Date windows for filters: `created` gives "Created After" (inclusive) and "Created Before" (exclusive), sent as
 * `created_after` / `created_before` (see dateTimeSend).
 */
export function dateWindows(prefixes: string[], collection = 'filters'): INodeProperties[] {
	return prefixes.flatMap((prefix) =>
		(['after', 'before'] as const).map((bound) => ({
			displayName: `${titleCase(prefix)} ${titleCase(bound)}`,
			name: `${prefix}${titleCase(bound)}`,
			type: 'dateTime' as const,
			default: '',
			description:
				bound === 'after'
					? `Only records whose ${prefix} time is at or after this moment (inclusive)`
					: `Only records whose ${prefix} time is before this moment (exclusive)`,
			routing: {
				send: dateTimeSend(
					'query',
					`${prefix}_${bound}`,
					`${collection}.${prefix}${titleCase(bound)}`,
					`${titleCase(prefix)} ${titleCase(bound)}`,
				),
			},
		})),
	);
}

/** A multi-select filter sent as one comma-separated value, e.g. `status=draft,finalized`. */
export function multiValueFilter(
	displayName: string,
	name: string,
	queryName: string,
	values: string[],
	names: Record<string, string> = {},
): INodeProperties {
	return {
		displayName,
		name,
		type: 'multiOptions',
		options: optionsOf(values, names),
		default: [],
		routing: {
			send: { type: 'query', property: queryName, value: '={{ $value.length ? $value.join(",") : undefined }}' },
		},
	};
}

/**
 * A list filter on record IDs, sent comma-separated (`site_id=site_a,site_b`): a multi-select loaded from the API for
 * records that have a dropdown (sites, deal stages, unit types, contract templates), otherwise a text field of
 * comma-separated IDs. An expression may give an array or a comma-separated string. Every ID is checked against the
 * prefix of `kinds` before any request; `unspecified` also lets the API's "unspecified" (no such reference) through.
 * The parameter is `<kind>Ids` and the query `<kind>_id` unless `name` / `queryName` say otherwise.
 */
export function idListFilter(
	kinds: RecordKind | RecordKind[],
	options: { description: string; displayName?: string; name?: string; queryName?: string; unspecified?: boolean },
): INodeProperties {
	const list = typeof kinds === 'string' ? [kinds] : kinds;
	const [first] = list;
	const prefixes = list.map((kind) => ID_PREFIXES[kind]);
	const name = options.name ?? `${first}Ids`;
	const loadOptionsMethod = list.length === 1 ? recordOf(first).loadOptionsMethod : undefined;
	const displayName =
		options.displayName ?? `${recordOf(first).displayName} ${loadOptionsMethod ? 'Names or IDs' : 'IDs'}`;
	const control: Pick<INodeProperties, 'type' | 'default' | 'typeOptions' | 'placeholder' | 'description'> =
		loadOptionsMethod
			? {
					type: 'multiOptions',
					typeOptions: { loadOptionsMethod },
					default: [],
					description: `${options.description} Choose from the list, or specify IDs using an ${EXPRESSION_LINK}.`,
				}
			: {
					type: 'string',
					default: '',
					placeholder: `${prefixes[0]}a1b2c3, ${prefixes[prefixes.length - 1]}d4e5f6`,
					description: `${options.description} Comma-separated IDs (${prefixes.map((prefix) => `${prefix}...`).join(', ')}).`,
				};
	return {
		displayName,
		name,
		...control,
		routing: {
			send: {
				type: 'query',
				property: options.queryName ?? `${first.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)}_id`,
				value:
					'={{ (Array.isArray($value) ? $value : String($value ?? "").split(",")).map((id) => String(id).trim()).filter((id) => id !== "").join(",") || undefined }}',
				preSend: [checkIdList(`filters.${name}`, displayName, prefixes, options.unspecified)],
			},
		},
	};
}

/** What `line_items.item` of a deal or opportunity returns in full, named for what it is. */
export const LINE_ITEM_ITEMS = { 'line_items.item': 'Line Item Unit Types and Protection Levels' };

/**
 * `expand`: the references of a record to return in full, sent comma-separated. Given no values (the docs list
 * `expand` on an endpoint whose record shows no reference), a text field of paths instead, so the documented
 * parameter stays reachable without the node guessing what it can expand.
 */
export function expandOption(values: string[], names: Record<string, string> = {}): INodeProperties {
	if (!values.length) {
		return {
			displayName: 'Expand',
			name: 'expand',
			type: 'string',
			default: '',
			placeholder: 'e.g. site',
			description:
				"Comma-separated references to return in full instead of as an ID (dot notation for nested ones). Stora's docs list this parameter here but show no reference on this record, so there is no list to pick from; each path needs its own read scope on the token.",
			routing: {
				send: {
					type: 'query',
					property: 'expand',
					value:
						'={{ String($value ?? "").split(",").map((path) => path.trim()).filter((path) => path !== "").join(",") || undefined }}',
				},
			},
		};
	}
	return {
		displayName: 'Expand',
		name: 'expand',
		type: 'multiOptions',
		options: optionsOf(values, names),
		default: [],
		description: 'Related records to return in full instead of as an ID. Each needs its own read scope on the token.',
		routing: {
			send: { type: 'query', property: 'expand', value: '={{ $value.length ? $value.join(",") : undefined }}' },
		},
	};
}

/** `metadata[key]=value` filters, one row per key. */
export function metadataFilter(): INodeProperties {
	return {
		displayName: 'Metadata',
		name: 'metadata',
		type: 'fixedCollection',
		placeholder: 'Add Metadata Filter',
		typeOptions: { multipleValues: true },
		default: {},
		description: 'Only records whose metadata has these exact values',
		options: [
			{
				displayName: 'Entry',
				name: 'entry',
				values: [
					{ displayName: 'Key', name: 'key', type: 'string', default: '' },
					{
						displayName: 'Value',
						name: 'value',
						type: 'string',
						default: '',
						routing: { send: { type: 'query', property: '=metadata[{{$parent.key}}]', propertyInDotNotation: false } },
					},
				],
			},
		],
	};
}

/** "Output Format" for a Get Many: JSON items, or the API's CSV export as a file. */
export function outputFormat(): INodeProperties[] {
	return [
		{
			displayName: 'Output Format',
			name: 'outputFormat',
			type: 'options',
			default: 'json',
			options: [
				{ name: 'JSON Items', value: 'json', description: 'One item per record' },
				{
					name: 'CSV File',
					value: 'csv',
					description: "The records as one CSV file in binary data (the API's export format)",
					routing: { request: { headers: { Accept: 'text/csv' }, encoding: 'arraybuffer', json: false } },
				},
			],
		},
		binaryPropertyName({ show: { outputFormat: ['csv'] } }),
	];
}

/** Where a downloaded file (PDF, CSV, image) goes in the item's binary data. */
export function binaryPropertyName(displayOptions?: IDisplayOptions): INodeProperties {
	return {
		displayName: 'Put Output File in Field',
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		hint: 'The name of the output binary field to put the file in',
		...(displayOptions ? { displayOptions } : {}),
	};
}

/** The request of a "Download PDF" operation: the record's own URL, answered as a document. */
export const PDF_DOWNLOAD_REQUEST = {
	method: 'GET',
	encoding: 'arraybuffer',
	json: false,
	headers: { Accept: 'application/pdf' },
} satisfies NonNullable<NonNullable<INodeProperties['routing']>['request']>;

// ---------------------------------------------------------------------------------------------------------------------
// Create / Update bodies

/** `routing.send.value` for an optional text field: left empty it is sent as null, which clears it on the record. */
export const EMPTY_AS_NULL = '={{ $value === "" ? null : $value }}';

/** An "Additional Fields" (Create) or "Update Fields" (Update) collection. */
export function fieldsCollection(
	name: 'additionalFields' | 'updateFields',
	options: INodeProperties[],
): INodeProperties {
	return {
		displayName: name === 'additionalFields' ? 'Additional Fields' : 'Update Fields',
		name,
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options,
	};
}

/**
 * Metadata rows for a Create / Update body (in its Additional Fields or Update Fields collection, named by
 * `collection`); sent as one `metadata` object.
 */
export function metadataBodyField(collection: string): INodeProperties {
	return {
		displayName: 'Metadata',
		name: 'metadata',
		type: 'fixedCollection',
		placeholder: 'Add Metadata',
		typeOptions: { multipleValues: true },
		default: {},
		description: 'Your own key/value data stored on the record, for example an ID from your CRM',
		options: [
			{
				displayName: 'Entry',
				name: 'entry',
				values: [
					{ displayName: 'Key', name: 'key', type: 'string', default: '' },
					{ displayName: 'Value', name: 'value', type: 'string', default: '' },
				],
			},
		],
		routing: { send: { preSend: [sendMetadata(`${collection}.metadata`)] } },
	};
}

/**
 * "Base Prices" for a Set Base Price operation (unit types, products, protection levels): one row per billing period
 * with an amount in minor units, sent as `{ monthly: { amount }, weekly: { amount } }`. Checked before any request:
 * at least one row, each period once, amounts whole numbers of at least 0.
 */
export function basePriceRows(): INodeProperties {
	return {
		displayName: 'Base Prices',
		name: 'basePrices',
		type: 'fixedCollection',
		placeholder: 'Add Price',
		typeOptions: { multipleValues: true },
		default: {},
		required: true,
		description: 'The new base price per billing period. Prices of periods not listed are kept.',
		options: [
			{
				displayName: 'Price',
				name: 'price',
				values: [
					{
						displayName: 'Billing Period',
						name: 'billingPeriod',
						type: 'options',
						options: optionsOf(BILLING_PERIODS),
						default: 'monthly',
					},
					{
						displayName: 'Amount (Minor Units)',
						name: 'amount',
						type: 'number',
						typeOptions: { minValue: 0, numberPrecision: 0 },
						default: 0,
						description: 'The price in minor currency units (pence/cents), e.g. 4500 = 45.00',
					},
				],
			},
		],
		routing: { send: { preSend: [sendBasePrices] } },
	};
}

async function sendBasePrices(this: IExecuteSingleFunctions, options: IHttpRequestOptions) {
	const rows = ((this.getNodeParameter('basePrices', {}) as IDataObject).price ?? []) as IDataObject[];
	const reject = (message: string, description: string): never => fail(this, message, description);
	if (!rows.length) reject('Base Prices: add at least one price', 'Give the amount for at least one billing period.');
	const prices: IDataObject = {};
	for (const row of rows) {
		const period = String(row.billingPeriod ?? '');
		if (!BILLING_PERIODS.includes(period)) {
			reject(`Base Prices: "${period}" is not a billing period`, `Use one of: ${BILLING_PERIODS.join(', ')}.`);
		}
		if (period in prices) {
			reject(`Base Prices: ${period} is given twice`, 'Give each billing period at most once.');
		}
		const amount = Number(row.amount);
		if (row.amount === '' || row.amount === null || !Number.isInteger(amount) || amount < 0) {
			reject(
				`Base Prices: ${String(row.amount)} is not a valid ${period} amount`,
				'An amount is a whole number of minor currency units (pence/cents) of at least 0, e.g. 4500 = 45.00.',
			);
		}
		prices[period] = { amount };
	}
	options.body = { ...((options.body as IDataObject | undefined) ?? {}), ...prices };
	return options;
}

/** Per node run (keyed by its execute data): the items that share one Idempotency Key, if any; worked out once. */
const clashOfRun = new WeakMap<object, { key: string; items: number[] } | null>();

/** The first Idempotency Key that two input items share, with the items that have it. */
function keyClash(context: IExecuteSingleFunctions, count: number): { key: string; items: number[] } | null {
	const raw = (context.getNode().parameters.options as IDataObject | undefined)?.idempotencyKey;
	const firstItem = new Map<string, number>();
	for (let index = 0; index < count; index++) {
		// evaluateExpression adds the leading "=" itself.
		const key = String((typeof raw === 'string' && raw.startsWith('=') ? context.evaluateExpression(raw.slice(1), index) : raw) ?? '').trim();
		if (key === '') continue;
		const first = firstItem.get(key);
		if (first === undefined) {
			firstItem.set(key, index);
			continue;
		}
		const items = [first, index];
		for (let later = index + 1; later < count && items.length < 6; later++) {
			const other = typeof raw === 'string' && raw.startsWith('=') ? context.evaluateExpression(raw.slice(1), later) : raw;
			if (String(other ?? '').trim() === key) items.push(later);
		}
		return { key, items };
	}
	return null;
}

/**
 * One key on several items would make Stora answer every item after the first with the first item's answer (and act
 * once). Refused before any request, naming the items; a key that differs per item (an expression) is fine, and
 * items whose key is empty get the derived one. Any clash fails every item: n8n sends the items' requests together,
 * so failing only the clashing ones would still write the others.
 */
function checkKeyIsPerItem(context: IExecuteSingleFunctions): void {
	const run = context.getExecuteData();
	const count = run?.data?.main?.[0]?.length ?? 0;
	if (count < 2) return;
	let clash = clashOfRun.get(run);
	if (clash === undefined) {
		clash = keyClash(context, count);
		clashOfRun.set(run, clash);
	}
	if (!clash) return;
	const items = clash.items.slice(0, 5).map((index) => index + 1).join(', ');
	fail(
		context,
		`Idempotency Key "${clash.key}" is the same for items ${items}${clash.items.length > 5 ? ', ...' : ''}`,
		"Stora would act once and answer every item after the first with the first item's answer. Use an expression that differs per item, for example {{ $json.orderNumber }}, or leave Idempotency Key empty for a key derived from the execution and item.",
	);
}

/**
 * "Idempotency Key" for writes, under Options (a newcomer should not wonder whether to fill it): empty by default, in
 * which case the transport derives one from the execution, node, run and item. A key of your own (for example an
 * order number from your shop) makes repeats across executions replay the first answer too. `descriptions/index.ts`
 * adds it to the Options of every operation that POSTs.
 */
/** Unconfirmed: the longest Idempotency Key the node sends (Stora's docs suggest a UUID and name no limit). */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

export function idempotencyKeyOption(): INodeProperties {
	return {
		displayName: 'Idempotency Key',
		name: 'idempotencyKey',
		type: 'string',
		default: '',
		description:
			'Stora answers a repeated write with the same key with its first answer instead of acting twice (for 24 hours). Leave empty to use a key derived from this execution and item; set it per item (an expression) to make repeats across executions safe.',
		routing: {
			send: {
				preSend: [
					async function (this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions) {
						const key = String(this.getNodeParameter('options.idempotencyKey', '') ?? '').trim();
						if (!key) return requestOptions;
						// A header value: visible ASCII only; the length bound is ours (the docs suggest a UUID, set none).
						if (key.length > MAX_IDEMPOTENCY_KEY_LENGTH || !/^[\x20-\x7e]+$/.test(key)) {
							fail(
								this,
								`Idempotency Key: ${shown(key)} is not a valid key`,
								`Use up to ${MAX_IDEMPOTENCY_KEY_LENGTH} letters, digits and ASCII punctuation (no line breaks or other characters), for example a UUID or your order number.`,
							);
						}
						checkKeyIsPerItem(this);
						requestOptions.headers = { ...(requestOptions.headers ?? {}), 'Idempotency-Key': key };
						return requestOptions;
					},
				],
			},
		},
	};
}

// ---------------------------------------------------------------------------------------------------------------------
// Fields shared by two operations of one resource (Create and Update)

/** A nullable text member of a contact body: left empty it is sent as null (clears it on update). */
function contactText(displayName: string, name: string, property: string, description: string): INodeProperties {
	return {
		displayName,
		name,
		type: 'string',
		default: '',
		description,
		routing: { send: { type: 'body', property, value: EMPTY_AS_NULL } },
	};
}

/** An enum member of a body, from the API's documented values; `property` is its place in the body. */
export function enumField(displayName: string, name: string, property: string, values: string[]): INodeProperties {
	const [first] = values;
	return {
		displayName,
		name,
		type: 'options',
		options: optionsOf(values),
		default: first,
		routing: { send: { type: 'body', property } },
	};
}

/** Address members, sent as one `address` object (the API replaces the whole address). */
const ADDRESS_LINES: Array<[string, string, string, string]> = [
	['City', 'city', 'city', ''],
	['Country Code', 'countryAlpha2', 'country_alpha2', 'Two-letter ISO 3166-1 alpha-2 code, e.g. GB'],
	['Line 1', 'line1', 'line_1', ''],
	['Line 2', 'line2', 'line_2', ''],
	['Postal Code', 'postalCode', 'postal_code', ''],
	['State', 'state', 'state', 'State, county or region'],
];

/** The address of Contact Create / Update; `collection` names its collection for the country code check. */
const contactAddress = (collection: string): INodeProperties => ({
	displayName: 'Address',
	name: 'address',
	type: 'fixedCollection',
	placeholder: 'Add Address',
	default: {},
	description: 'The postal address. Sent as a whole: members left empty are stored as empty.',
	options: [
		{
			displayName: 'Address',
			name: 'address',
			values: ADDRESS_LINES.map(([displayName, name, property, description]) => ({
				displayName,
				name,
				type: 'string' as const,
				default: '',
				...(description ? { description } : {}),
				routing: {
					send: {
						type: 'body' as const,
						property: `address.${property}`,
						value:
							name === 'countryAlpha2'
								? '={{ $value === "" ? null : String($value).trim().toUpperCase() }}'
								: EMPTY_AS_NULL,
						...(name === 'countryAlpha2'
							? { preSend: [checkCountryCode(`${collection}.address.address.countryAlpha2`, 'Address: Country Code')] }
							: {}),
					},
				},
			})),
		},
	],
});

/**
 * The optional members of Contact Create (Additional Fields) and Update (Update Fields). `extra` fields are placed in
 * alphabetical order among them (Update can change the email).
 */
export function contactFields(collection: string, extra: INodeProperties[] = []): INodeProperties[] {
	return [
		contactAddress(collection),
		contactText(
			'Company Registration Number',
			'companyRegistrationNumber',
			'company_registration_number',
			'Registration number of a company contact',
		),
		...extra,
		contactText('Full Name', 'fullName', 'full_name', 'Name of the person or company'),
		enumField('Marketing Source', 'marketingSource', 'marketing_source', MARKETING_SOURCES),
		metadataBodyField(collection),
		contactText('Phone Number', 'phoneNumber', 'phone_number', 'Phone number, e.g. +44 7700 900123'),
		enumField('Source', 'source', 'source', CONTACT_SOURCES),
		contactText('Tax ID', 'taxId', 'tax_id', 'VAT or other tax identification number'),
		enumField('Type', 'type', 'type', CONTACT_TYPES),
		enumField('Use Case', 'useCase', 'use_case', USE_CASES),
	];
}

/** What `expand` can return in full on an order. */
export const ORDER_EXPAND = [
	'contact',
	'contract_template',
	'coupon',
	'line_items',
	'line_items.item',
	'site',
	'subscription',
	'tenancy',
];

/** What `expand` can return in full on a deal. */
export const DEAL_EXPAND = ['assignee', 'contact', 'creator', 'line_items.item', 'site', 'stage'];

/**
 * `line_items` from a deal's Unit Type and Protection Level fields: at most one of each, and sending them replaces the
 * deal's line items.
 */
function sendDealLineItems(collection: string) {
	return async function (this: IExecuteSingleFunctions, options: IHttpRequestOptions) {
		const fields = this.getNodeParameter(collection, {}) as IDataObject;
		const lineItems: IDataObject[] = [];
		if (fields.unitTypeId) lineItems.push({ type: 'unit_type', item: { id: String(fields.unitTypeId).trim() } });
		if (fields.protectionLevelId) {
			lineItems.push({ type: 'protection', item: { id: String(fields.protectionLevelId).trim() } });
		}
		if (lineItems.length)
			options.body = { ...((options.body as IDataObject | undefined) ?? {}), line_items: lineItems };
		return options;
	};
}

/**
 * A Deal Update switch that empties a member of the deal, as the docs allow: `assignee: null` and `site: null` remove
 * them, `line_items: []` clears the line items. An empty ID field cannot say this (it fails the ID check, so a typo
 * never unassigns), and the switch cannot be combined with the fields that set the same member.
 */
function dealRemovalSwitch(options: {
	collection: string;
	displayName: string;
	name: string;
	property: string;
	cleared: null | [];
	/** The Update Fields that set the same member: [parameter name, display name]. */
	setBy: Array<[string, string]>;
	description: string;
}): INodeProperties {
	return {
		displayName: options.displayName,
		name: options.name,
		type: 'boolean',
		default: true,
		description: options.description,
		routing: {
			send: {
				preSend: [
					async function (this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions) {
						const fields = this.getNodeParameter(options.collection, {}) as IDataObject;
						if (fields[options.name] !== true) return requestOptions;
						const clash = options.setBy.find(([name]) => fields[name] !== undefined);
						if (clash) {
							fail(
								this,
								`${options.displayName} and ${clash[1]} cannot be used together`,
								`${options.displayName} empties what ${clash[1]} would set: remove one of them.`,
							);
						}
						requestOptions.body = {
							...((requestOptions.body as IDataObject | undefined) ?? {}),
							[options.property]: options.cleared === null ? null : [],
						};
						return requestOptions;
					},
				],
			},
		},
	};
}

/** The optional members of Deal Create (Additional Fields) and Update (Update Fields). */
export function dealFields(collection: string, update: boolean): INodeProperties[] {
	const path = (name: string) => `${collection}.${name}`;
	const replaces = ' Sending a unit type or protection level replaces all line items of the deal';
	const lineItems = update ? `${replaces}; to remove them all, use Clear Line Items.` : '';
	const unitType = recordDropdown('unitType', {
		path: path('unitTypeId'),
		description: `Unit type the contact is interested in, as the deal's unit type line item${update ? `.${replaces}` : ''}`,
	});
	const lineItemFields: Array<[string, string]> = [
		['unitTypeId', 'Unit Type'],
		['protectionLevelId', 'Protection Level ID'],
	];
	return [
		idField('staff', {
			displayName: 'Assignee ID',
			name: 'assigneeId',
			path: path('assigneeId'),
			property: 'assignee',
			description: `ID of the staff member who owns the deal (staff_...)${update ? '. To remove the assignee, use Unassign instead.' : ''}`,
		}),
		...(update
			? [
					dealRemovalSwitch({
						collection,
						displayName: 'Clear Line Items',
						name: 'clearLineItems',
						property: 'line_items',
						cleared: [],
						setBy: lineItemFields,
						description:
							"Whether to remove all line items (unit type and protection level) of the deal. Sends line_items: [], which the API takes as 'clear'.",
					}),
				]
			: []),
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
			routing: { send: { type: 'body', property: 'note', value: EMPTY_AS_NULL } },
		},
		{
			displayName: 'Protection Level ID',
			name: 'protectionLevelId',
			type: 'string',
			default: '',
			placeholder: `${ID_PREFIXES.protectionLevel}a1b2c3`,
			description: `Protection level (plvl_...) the contact is interested in, as the deal's protection line item.${lineItems}`,
			routing: {
				send: {
					preSend: [
						checkId(path('protectionLevelId'), 'Protection Level ID', ID_PREFIXES.protectionLevel),
						sendDealLineItems(collection),
					],
				},
			},
		},
		...(update
			? [
					dealRemovalSwitch({
						collection,
						displayName: 'Remove Site',
						name: 'removeSite',
						property: 'site',
						cleared: null,
						setBy: [['siteId', 'Site']],
						description: "Whether to remove the deal's site. Sends site: null, which the API takes as 'remove'.",
					}),
				]
			: []),
		recordDropdown('site', {
			path: path('siteId'),
			property: 'site',
			description: `Site the contact wants to store at${update ? ' (to remove the site, use Remove Site instead)' : ''}`,
		}),
		recordDropdown('dealStage', {
			name: 'stageId',
			path: path('stageId'),
			property: 'stage',
			description: update ? 'Pipeline stage to move the deal to' : 'Pipeline stage to create the deal in',
		}),
		{
			displayName: 'Starts At',
			name: 'startsAt',
			type: 'dateTime',
			default: '',
			description: `Intended move-in date${update ? '. Leave empty to clear it.' : ''}`,
			routing: { send: dateTimeSend('body', 'starts_at', path('startsAt'), 'Starts At', true) },
		},
		...(update
			? [
					dealRemovalSwitch({
						collection,
						displayName: 'Unassign',
						name: 'unassign',
						property: 'assignee',
						cleared: null,
						setBy: [['assigneeId', 'Assignee ID']],
						description: "Whether to remove the deal's assignee. Sends assignee: null, which the API takes as 'remove'.",
					}),
				]
			: []),
		{
			...unitType,
			routing: { send: { preSend: [...(unitType.routing?.send?.preSend ?? []), sendDealLineItems(collection)] } },
		},
	];
}

/** What a task can be linked to. */
export const TASK_LINKABLE: RecordKind[] = [
	'contact',
	'unit',
	'subscription',
	'tenancy',
	'deal',
	'order',
	'invoice',
	'site',
];

/** The optional members of Task Create (Additional Fields) and Update (Update Fields). */
export function taskFields(collection: string, update: boolean): INodeProperties[] {
	const path = (name: string) => `${collection}.${name}`;
	const clears = update ? ' Leave empty to clear it.' : '';
	return [
		idField('staff', {
			displayName: 'Assignee ID',
			name: 'assigneeId',
			path: path('assigneeId'),
			property: 'assignee',
			description: 'ID of the staff member the task is assigned to (staff_...)',
		}),
		{
			displayName: 'Description',
			name: 'description',
			type: 'string',
			typeOptions: { rows: 4 },
			default: '',
			description: `Details of the task (HTML allowed).${clears}`,
			routing: { send: { type: 'body', property: 'description', value: EMPTY_AS_NULL } },
		},
		{
			displayName: 'Due At',
			name: 'dueAt',
			type: 'dateTime',
			default: '',
			description: `When the task is due.${clears}`,
			routing: { send: dateTimeSend('body', 'due_at', path('dueAt'), 'Due At', true) },
		},
		linkedRecordField({
			displayName: 'Linked Record ID',
			name: 'resourceId',
			path: path('resourceId'),
			property: 'resource.id',
			kinds: TASK_LINKABLE,
			description:
				'ID of the record the task is about: a contact (con_), unit (unit_), subscription (sub_), tenancy (ten_), deal (deal_), order (order_), invoice (inv_) or site (site_)',
		}),
		metadataBodyField(collection),
		recordDropdown('site', { path: path('siteId'), property: 'site', description: 'Site the task belongs to' }),
	];
}

/** What a note can annotate: a contact, unit, subscription or task. */
export const NOTE_ANNOTATED: RecordKind[] = ['contact', 'unit', 'subscription', 'task'];

/** A note's record (`resource.id`): what the note is about. */
export function noteRecordField(path: string, required: boolean, description: string): INodeProperties {
	return linkedRecordField({
		displayName: 'Record ID',
		name: 'resourceId',
		path,
		property: 'resource.id',
		kinds: NOTE_ANNOTATED,
		required,
		description,
	});
}

/** A note's text. */
export function noteContentField(required: boolean, description: string): INodeProperties {
	return {
		displayName: 'Content',
		name: 'content',
		type: 'string',
		typeOptions: { rows: 4 },
		default: '',
		...(required ? { required: true } : {}),
		description,
		routing: { send: { type: 'body', property: 'content' } },
	};
}

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
			fail(this, `External URL: "${url}" is not a URL`, 'Use a full address starting with https:// or http://.');
		}
		return options;
	};
}

/** The links (predefined template variables) and texts of Timeline Event Create and Update. */
export function timelineEventFields(collection: string, update: boolean): INodeProperties[] {
	const path = (name: string) => `${collection}.${name}`;
	const link = (displayName: string, name: string, property: string, kind: RecordKind, what: string) =>
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
			description: "Text shown on the timeline. Without it, the text is rendered from the template's message.",
			routing: { send: { type: 'body', property: 'description' } },
		},
		{
			displayName: 'External ID',
			name: 'externalId',
			type: 'string',
			default: '',
			description: 'ID of the matching record in your system (goes with External URL)',
			routing: { send: { type: 'body', property: 'external.id', preSend: [checkExternal(collection)] } },
		},
		{
			displayName: 'External URL',
			name: 'externalUrl',
			type: 'string',
			default: '',
			placeholder: 'https://example.com/calls/1001',
			description: 'Link to the matching record in your system (goes with External ID)',
			routing: { send: { type: 'body', property: 'external.url', preSend: [checkExternal(collection)] } },
		},
		link('Invoice ID', 'invoiceId', 'invoice', 'invoice', 'invoice'),
		recordDropdown('site', { path: path('siteId'), property: 'site', description: 'The site the event is about' }),
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

/** Stora only delivers webhooks to HTTPS addresses: say so before the API rejects the URL. */
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

/** A webhook endpoint's URL; `path` is the full parameter path for the HTTPS check. */
export function webhookUrlField(path: string, required: boolean): INodeProperties {
	return {
		displayName: 'URL',
		name: 'url',
		type: 'string',
		...(required ? { required: true } : {}),
		default: '',
		placeholder: 'https://example.com/hooks/stora',
		description: 'The HTTPS address Stora sends the events to',
		routing: { send: { type: 'body', property: 'url', preSend: [checkHttpsUrl(path)] } },
	};
}

function checkEventTypes(parameter: string) {
	return async function (this: IExecuteSingleFunctions, options: IHttpRequestOptions) {
		const raw = this.getNodeParameter(parameter, undefined) as string[] | string | undefined;
		if (raw === undefined) return options;
		if (!idsOf(raw).length) {
			fail(
				this,
				'Event Types: choose at least one event type',
				'An endpoint must subscribe to at least one event type.',
			);
		}
		return options;
	};
}

/** A webhook endpoint's event types: the multi-select, or an expression giving an array or a comma-separated string. */
export function webhookEventTypesField(path: string, required: boolean): INodeProperties {
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
				value:
					'={{ (Array.isArray($value) ? $value : String($value ?? "").split(",")).map((type) => String(type).trim()).filter((type) => type !== "") }}',
				preSend: [checkEventTypes(path)],
			},
		},
	};
}

/** A webhook endpoint's description; left empty on update, it clears it. */
export const webhookDescriptionField: INodeProperties = {
	displayName: 'Description',
	name: 'description',
	type: 'string',
	default: '',
	description: 'What the endpoint is for. Left empty on update, it clears the description.',
	routing: { send: { type: 'body', property: 'description', value: EMPTY_AS_NULL } },
};

/** The type of an order line item: what it charges for (Order Create's rows and Order Line Item Create). */
export function lineItemTypeField(name: string): INodeProperties {
	return {
		displayName: 'Type',
		name,
		type: 'options',
		options: optionsOf(Object.keys(LINE_ITEM_ITEM_PREFIX)),
		default: 'unit_type',
		description:
			'What the line charges for: a unit type (rent), a protection level, a product, or the security deposit of a unit type',
	};
}
