import type {
	IDataObject,
	IDisplayOptions,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

import { MAX_PAGE_SIZE } from './constants';
import { article, checkIdPrefix, checkNumber, fail, sendMetadata } from './validation';

/** One resource of the node: its entry in the Resource dropdown, its operations and fields, and what Simplify keeps. */
export interface ResourceDefinition {
	option: INodePropertyOptions;
	properties: INodeProperties[];
	/** The fields "Simplify" keeps: enough to identify and route a record in a workflow. */
	simplifiedFields?: string[];
}

/** displayOptions for one resource and some of its operations. */
export function showFor(resource: string, operations: string[]): IDisplayOptions {
	return { show: { resource: [resource], operation: operations } };
}

interface LocatorOptions {
	/** Parameter name, e.g. `siteId`. */
	name: string;
	/** e.g. `Site`. */
	displayName: string;
	/** Identifier prefix, e.g. `site_`. */
	prefix: string;
	/**
	 * `methods.listSearch` function that lists the records. Omit it for records the API cannot list (e.g. price
	 * adjustments): the locator then offers By ID only.
	 */
	searchListMethod?: string;
	/** Path template for the request URL, `{id}` replaced by the extracted ID. */
	url?: string;
	/** Path suffix per operation for the API's actions on the record, e.g. `{ win: '/win', lose: '/lose' }`. */
	actions?: Record<string, string>;
	/**
	 * Or where the ID goes in the request, e.g. `{ type: 'body', property: 'contact.id' }` or a query filter. `value`
	 * transforms it, e.g. `'={{ $value ? { id: $value } : undefined }}'` with `property: 'contact'` for an optional
	 * locator that sends nothing when left empty.
	 */
	send?: { type: 'body' | 'query'; property: string; value?: string };
	/** Omitted for a locator inside a collection (Additional Fields / Update Fields). */
	displayOptions?: IDisplayOptions;
	/** Full parameter path checked before the request when the locator sits in a collection, e.g. `updateFields.siteId`. */
	path?: string;
	required?: boolean;
	description?: string;
}

/**
 * A record picked From List (searchable), or By ID (checked against the API's prefix). The request URL is set on the
 * locator itself so `$value` is the extracted ID, whichever mode the user picked.
 */
export function resourceLocator(options: LocatorOptions): INodeProperties {
	const idPattern = `^${options.prefix}[A-Za-z0-9]+$`;
	return {
		displayName: options.displayName,
		name: options.name,
		type: 'resourceLocator',
		default: { mode: options.searchListMethod ? 'list' : 'id', value: '' },
		required: options.required ?? true,
		description: options.description,
		displayOptions: options.displayOptions,
		modes: [
			...(options.searchListMethod
				? [
						{
							displayName: 'From List',
							name: 'list',
							type: 'list' as const,
							typeOptions: { searchListMethod: options.searchListMethod, searchable: true },
						},
					]
				: []),
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: `${options.prefix}a1b2c3`,
				validation: [
					{
						type: 'regex',
						properties: {
							regex: idPattern,
							errorMessage: `${article(options.displayName) === 'an' ? 'An' : 'A'} ${options.displayName.toLowerCase()} ID starts with "${options.prefix}"`,
						},
					},
				],
			},
		],
		routing: {
			...(options.url
				? {
						request: {
							url: `=${options.url.replace('{id}', '{{ encodeURIComponent($value) }}')}${
								options.actions ? `{{ (${JSON.stringify(options.actions)})[$parameter.operation] || "" }}` : ''
							}`,
						},
					}
				: {}),
			send: {
				...(options.send ?? {}),
				preSend: [
					checkIdPrefix(options.path ?? options.name, options.displayName, options.prefix, options.required === false),
				],
			},
		},
	};
}

/** "Return All" and "Limit" for a Get Many operation. Limit is also the page size, so it never exceeds 100. */
export function returnAllAndLimit(displayOptions: IDisplayOptions): INodeProperties[] {
	return [
		{
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			default: false,
			description: 'Whether to return all results or only up to a given limit',
			displayOptions,
		},
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			default: 50,
			typeOptions: { minValue: 1, maxValue: MAX_PAGE_SIZE },
			description: 'Max number of results to return',
			displayOptions: {
				...displayOptions,
				show: { ...displayOptions.show, returnAll: [false] },
			},
			routing: {
				send: {
					type: 'query',
					property: 'limit',
					preSend: [checkNumber('limit', 'Limit', { min: 1, max: MAX_PAGE_SIZE, integer: true })],
				},
				output: { maxResults: '={{$value}}' },
			},
		},
	];
}

/** "Simplify" for resources with wide records. */
export function simplifyToggle(displayOptions: IDisplayOptions): INodeProperties {
	return {
		displayName: 'Simplify',
		name: 'simplify',
		type: 'boolean',
		default: false,
		description: 'Whether to return a simplified version of the response instead of the raw data',
		displayOptions,
	};
}

const titleCase = (value: string) =>
	value
		.split('_')
		.map((word) => word.charAt(0).toUpperCase() + word.slice(1))
		.join(' ');

/** Options for a fixed list of API values, named in Title Case and sorted as the lint requires. */
export function optionsOf(values: string[]): INodePropertyOptions[] {
	return values
		.map((value) => ({ name: titleCase(value), value }))
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
 * Date windows for filters: `created` gives "Created After" (inclusive) and "Created Before" (exclusive), sent as
 * `created_after` / `created_before` in ISO 8601.
 */
export function dateWindows(prefixes: string[]): INodeProperties[] {
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
				send: {
					type: 'query' as const,
					property: `${prefix}_${bound}`,
					value: '={{ $value ? new Date($value).toISOString() : undefined }}',
				},
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
): INodeProperties {
	return {
		displayName,
		name,
		type: 'multiOptions',
		options: optionsOf(values),
		default: [],
		routing: {
			send: {
				type: 'query',
				property: queryName,
				value: '={{ $value.length ? $value.join(",") : undefined }}',
			},
		},
	};
}

/** `expand`: the references of a record to return in full, sent comma-separated. */
export function expandOption(values: string[]): INodeProperties {
	return {
		displayName: 'Expand',
		name: 'expand',
		type: 'multiOptions',
		options: optionsOf(values),
		default: [],
		description:
			'Related records to return in full instead of as an ID. Each needs its own read scope on the token.',
		routing: {
			send: {
				type: 'query',
				property: 'expand',
				value: '={{ $value.length ? $value.join(",") : undefined }}',
			},
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
						routing: {
							send: {
								type: 'query',
								property: '=metadata[{{$parent.key}}]',
								propertyInDotNotation: false,
							},
						},
					},
				],
			},
		],
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

/** "Output Format" for a Get Many: JSON items, or the API's CSV export as a file. */
export function outputFormat(displayOptions: IDisplayOptions): INodeProperties[] {
	return [
		{
			displayName: 'Output Format',
			name: 'outputFormat',
			type: 'options',
			default: 'json',
			displayOptions,
			options: [
				{ name: 'JSON Items', value: 'json', description: 'One item per record' },
				{
					name: 'CSV File',
					value: 'csv',
					description: 'The records as one CSV file in binary data (the API\'s export format)',
					routing: { request: { headers: { Accept: 'text/csv' }, encoding: 'arraybuffer', json: false } },
				},
			],
		},
		binaryPropertyName({ ...displayOptions, show: { ...displayOptions.show, outputFormat: ['csv'] } }),
	];
}

/** Where a downloaded file (PDF, CSV, image) goes in the item's binary data. */
export function binaryPropertyName(displayOptions: IDisplayOptions): INodeProperties {
	return {
		displayName: 'Put Output File in Field',
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		hint: 'The name of the output binary field to put the file in',
		displayOptions,
	};
}

/** The API's billing periods (the order `billing_period` enum), also the keys of a Set Base Price body. */
export const BILLING_PERIODS = [
	'monthly',
	'weekly',
	'every_four_weeks',
	'every_three_months',
	'every_six_months',
	'yearly',
	'one_time',
];

/**
 * "Base Prices" for a Set Base Price operation (unit types, products, protection levels): one row per billing period
 * with an amount in minor units, sent as `{ monthly: { amount }, weekly: { amount } }`. Checked before any request:
 * at least one row, each period once, amounts whole numbers of at least 0.
 */
export function basePriceRows(displayOptions: IDisplayOptions): INodeProperties {
	return {
		displayName: 'Base Prices',
		name: 'basePrices',
		type: 'fixedCollection',
		placeholder: 'Add Price',
		typeOptions: { multipleValues: true },
		default: {},
		required: true,
		description: 'The new base price per billing period. Prices of periods not listed are kept.',
		displayOptions,
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

/** `routing.send.value` for an optional text field: left empty it is sent as null, which clears it on the record. */
export const EMPTY_AS_NULL = '={{ $value === "" ? null : $value }}';

/**
 * `routing.send.value` for a nullable date-time field: sent as ISO 8601 in UTC, or null (which clears it) when left
 * empty. A value that is not a date is sent as typed, so a checkDate preSend on the parameter reports it first.
 */
export const ISO_DATE_TIME_OR_NULL =
	'={{ $value === "" ? null : isNaN(Date.parse($value)) ? $value : new Date($value).toISOString() }}';

/**
 * A list filter on record IDs, sent comma-separated (`site_id=site_a,site_b`): a multi-select loaded from the API when
 * `loadOptionsMethod` is given (e.g. `getSites`), otherwise a text field of comma-separated IDs. An expression may give
 * an array or a comma-separated string. Every ID is checked against `prefix` before any request. `collection` is the
 * parameter holding the filter (default `filters`).
 */
export function idListFilter(options: {
	displayName: string;
	name: string;
	queryName: string;
	prefix: string;
	loadOptionsMethod?: string;
	description?: string;
	collection?: string;
}): INodeProperties {
	const parameter = `${options.collection ?? 'filters'}.${options.name}`;
	const control: Partial<INodeProperties> = options.loadOptionsMethod
		? {
				type: 'multiOptions',
				typeOptions: { loadOptionsMethod: options.loadOptionsMethod },
				default: [],
				description: `${options.description ?? ''} Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.`.trim(),
			}
		: {
				type: 'string',
				default: '',
				placeholder: `${options.prefix}a1b2c3, ${options.prefix}d4e5f6`,
				description: `${options.description ?? ''} Comma-separated IDs (${options.prefix}...).`.trim(),
			};
	return {
		displayName: options.displayName,
		name: options.name,
		...(control as Pick<INodeProperties, 'type' | 'default'>),
		routing: {
			send: {
				type: 'query',
				property: options.queryName,
				value:
					'={{ (Array.isArray($value) ? $value : String($value ?? "").split(",")).map((id) => String(id).trim()).filter((id) => id !== "").join(",") || undefined }}',
				preSend: [checkIdList(parameter, options.displayName, options.prefix)],
			},
		},
	};
}

function checkIdList(parameter: string, label: string, prefix: string) {
	return async function (this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions) {
		const raw = this.getNodeParameter(parameter, []) as string | string[] | undefined;
		const ids = (Array.isArray(raw) ? raw : String(raw ?? '').split(','))
			.map((id) => String(id).trim())
			.filter((id) => id !== '');
		const bad = ids.find((id) => !new RegExp(`^${prefix}[A-Za-z0-9]+$`).test(id));
		if (bad !== undefined) {
			fail(
				this,
				`${label}: "${bad}" is not a valid ID`,
				`Each ID must start with "${prefix}" (for example ${prefix}a1b2c3); separate several with commas.`,
			);
		}
		return requestOptions;
	};
}

/** A Get Many's "Filters" collection: the API's list filters, each sent only when the user adds it. */
export function filtersCollection(displayOptions: IDisplayOptions, options: INodeProperties[]): INodeProperties {
	return { displayName: 'Filters', name: 'filters', type: 'collection', placeholder: 'Add Filter', default: {}, displayOptions, options };
}

/** An operation's "Options" collection (sort, expand, ...). */
export function optionsCollection(displayOptions: IDisplayOptions, options: INodeProperties[]): INodeProperties {
	return { displayName: 'Options', name: 'options', type: 'collection', placeholder: 'Add Option', default: {}, displayOptions, options };
}

/**
 * "Idempotency Key" for writes: empty by default, in which case the transport derives one from the execution, node,
 * run and item. A key of your own (for example an order number from your shop) makes repeats across executions
 * replay the first answer too.
 */
export function idempotencyKeyProperty(operations: string[]): INodeProperties {
	return {
		displayName: 'Idempotency Key',
		name: 'idempotencyKey',
		type: 'string',
		default: '',
		description:
			'Stora answers a repeated write with the same key with its first answer instead of acting twice (for 24 hours). Leave empty to use a key derived from this execution and item.',
		displayOptions: { show: { operation: operations } },
		routing: {
			send: {
				preSend: [
					async function (this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions) {
						const key = String(this.getNodeParameter('idempotencyKey', '') ?? '').trim();
						if (key) requestOptions.headers = { ...(requestOptions.headers ?? {}), 'Idempotency-Key': key };
						return requestOptions;
					},
				],
			},
		},
	};
}

/** The request of a "Download PDF" operation: the record's own URL (set by its locator), answered as a document. */
export const PDF_DOWNLOAD_REQUEST: NonNullable<NonNullable<INodeProperties['routing']>['request']> = {
	method: 'GET',
	encoding: 'arraybuffer',
	json: false,
	headers: { Accept: 'application/pdf' },
};
