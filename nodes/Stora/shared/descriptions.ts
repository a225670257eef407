import type { IDisplayOptions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { MAX_PAGE_SIZE } from './constants';

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
	/** `methods.listSearch` function that lists the records. */
	searchListMethod: string;
	/** Path template for the request URL, `{id}` replaced by the extracted ID; omit when the locator only feeds a body. */
	url?: string;
	displayOptions: IDisplayOptions;
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
		default: { mode: 'list', value: '' },
		required: options.required ?? true,
		description: options.description,
		displayOptions: options.displayOptions,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				typeOptions: { searchListMethod: options.searchListMethod, searchable: true },
			},
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
							errorMessage: `A ${options.displayName.toLowerCase()} ID starts with "${options.prefix}"`,
						},
					},
				],
			},
		],
		routing: options.url
			? { request: { url: `=${options.url.replace('{id}', '{{ encodeURIComponent($value) }}')}` } }
			: undefined,
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
				send: { type: 'query', property: 'limit' },
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
