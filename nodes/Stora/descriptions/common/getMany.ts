/**
 * What a Get Many (and a Get) offers besides its filters: Return All and Limit, the Options collection with sort and
 * expand, Simplify, and the output format.
 */
import type { IExecuteSingleFunctions, INodeProperties } from 'n8n-workflow';

import { MAX_PAGE_SIZE } from '../../helpers/constants';
import type { PreSend } from '../../helpers/validation';
import { checkNumber, fail, shown } from '../../helpers/validation';
import { alphabetical, optionsOf } from './choices';
import { binaryPropertyName } from './downloads';
import { PARAMETER } from '../../helpers/parameters';

/** "Return All" and "Limit" for a Get Many operation. Limit is also the page size, so it never exceeds 100. */
export function returnAllAndLimit(): INodeProperties[] {
	return [
		{
			displayName: 'Return All',
			name: PARAMETER.returnAll,
			type: 'boolean',
			default: false,
			description: 'Whether to return all results or only up to a given limit',
			builderHint: {
				propertyHint:
					'True reads every page, at most 100,000 records in one run (more fails naming the bound: narrow the Filters, e.g. a Created After window, instead of filtering in a later node). False returns at most Limit (1 to 100) records.',
			},
		},
		{
			displayName: 'Limit',
			name: PARAMETER.limit,
			type: 'number',
			default: 50,
			typeOptions: { minValue: 1, maxValue: MAX_PAGE_SIZE },
			description: 'Max number of results to return',
			displayOptions: { show: { returnAll: [false] } },
			routing: {
				send: {
					type: 'query',
					property: 'limit',
					preSend: [
						checkNumber('limit', 'Limit', {
							min: 1,
							max: MAX_PAGE_SIZE,
							integer: true,
							required: true,
						}),
					],
				},
			},
		},
	];
}

/** An operation's "Options" collection (sort, expand, ...). */
export function optionsCollection(options: INodeProperties[]): INodeProperties {
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: alphabetical(options),
	};
}

/**
 * "Simplify" for resources with wide records: what it keeps per resource is helpers/output.ts's SIMPLIFIED_FIELDS.
 * Hidden for a CSV export, which it does not change, and in the tool variant, where the tool's Output (simplified by
 * default, descriptions/tool.ts) decides instead.
 */
export function simplifyToggle(): INodeProperties {
	return {
		displayName: 'Simplify',
		name: PARAMETER.simplify,
		type: 'boolean',
		default: false,
		description: 'Whether to return a simplified version of the response instead of the raw data',
		displayOptions: { show: { '@tool': [false] }, hide: { outputFormat: ['csv'] } },
	};
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

/** What `line_items.item` of a deal or opportunity returns in full, named for what it is. */
export const LINE_ITEM_ITEMS = { 'line_items.item': 'Line Item Unit Types and Protection Levels' };

/** A free-text Expand's paths: comma-separated API member names (lowercase, digits, `_`), dot notation for nested ones. */
function checkExpandPaths(parameter: string, label: string): PreSend {
	return async function (this: IExecuteSingleFunctions, options) {
		const raw = this.getNodeParameter(parameter, '') as unknown;
		if (raw === '' || raw === undefined || raw === null) return options;
		const paths =
			typeof raw === 'string'
				? raw
						.split(',')
						.map((path) => path.trim())
						.filter((path) => path !== '')
				: undefined;
		const bad = paths?.find((path) => !/^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*$/.test(path));
		if (!paths || bad !== undefined) {
			fail(
				this,
				`${label}: ${shown(bad ?? raw)} is not a reference path`,
				"Give the references' API names, comma-separated, in dot notation for nested ones, e.g. site or contact.site.",
				{ path: parameter, label },
			);
		}
		return options;
	};
}

/**
 * `expand`: the references of a record to return in full, sent comma-separated. Given no values (the docs list
 * `expand` on an endpoint whose record shows no reference), a text field of paths instead, so the documented
 * parameter stays reachable without the node guessing what it can expand.
 */
export function expandOption(
	values: string[],
	names: Record<string, string> = {},
): INodeProperties {
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
					preSend: [checkExpandPaths('options.expand', 'Expand')],
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
					routing: {
						request: { headers: { Accept: 'text/csv' }, encoding: 'arraybuffer', json: false },
					},
				},
			],
		},
		binaryPropertyName({ show: { outputFormat: ['csv'] } }),
	];
}
