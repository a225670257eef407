/**
 * A Get Many's Filters collection and its filters: date ranges, multi-value filters, ID lists (each ID checked
 * against its kind's prefix before any request) and metadata.
 */
import type {
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	INodeProperties,
	INodePropertyCollection,
} from 'n8n-workflow';

import { checkIdList } from '../../helpers/ids';
import { ID_PREFIXES, recordOf, type RecordKind } from '../../helpers/records';
import { fail, rawParameter, shown, type PreSend } from '../../helpers/validation';
import { alphabetical, optionsOf, titleCase } from './choices';
import { DATE_TIME_HINT, dateTimeSend } from './dateTime';
import { EXPRESSION_LINK } from './records';

/** A Get Many's "Filters" collection: the API's list filters, each sent only when the user adds it. */
export function filtersCollection(options: INodeProperties[]): INodeProperties {
	return {
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: alphabetical(options.map(givenOrNotSent)),
	};
}

/** Nothing to filter by: no value, blank text, only commas, or a list of such. */
const emptyFilterValue = (value: unknown): boolean =>
	value === undefined ||
	value === null ||
	(typeof value === 'string' && value.split(',').every((part) => part.trim() === '')) ||
	(Array.isArray(value) && value.every(emptyFilterValue));

const isExpression = (value: unknown) => typeof value === 'string' && value.startsWith('=');

/** The checks `givenOrNotSent` added, so that a filter taken into another collection (the poll trigger's) gets one. */
const GIVEN_CHECKS = new WeakSet<PreSend>();

/**
 * A filter never widens a list silently. One whose expression comes out empty for an item (a lead without an email,
 * looked up by `{{ $json.email }}`) would match every record, so the item fails before any request, naming the
 * filter. One left empty in the editor is not sent at all. A preSend, so that it holds whoever builds the request.
 */
function givenOrNotSent(filter: INodeProperties): INodeProperties {
	const send = filter.routing?.send ?? {};
	if (send.preSend?.some((preSend) => GIVEN_CHECKS.has(preSend))) return filter;
	const path = `filters.${filter.name}`;
	const property =
		typeof send.property === 'string' && !isExpression(send.property) ? send.property : undefined;
	const check: PreSend = async function (
		this: IExecuteSingleFunctions,
		options: IHttpRequestOptions,
	) {
		if (filter.type === 'fixedCollection') {
			checkRowsGiven(this, path, filter);
			return options;
		}
		const value = this.getNodeParameter(path, undefined) as unknown;
		if (!emptyFilterValue(value)) return options;
		const raw = rawParameter(this, path);
		if (isExpression(raw)) failEmptyFilter(this, path, filter.displayName, raw);
		if (property !== undefined && options.qs) delete (options.qs as IDataObject)[property];
		return options;
	};
	GIVEN_CHECKS.add(check);
	return {
		...filter,
		routing: { ...filter.routing, send: { ...send, preSend: [check, ...(send.preSend ?? [])] } },
	};
}

/** A fixed collection of filter rows (Metadata): a row member whose expression comes out empty fails the item. */
function checkRowsGiven(context: IExecuteSingleFunctions, path: string, filter: INodeProperties) {
	for (const group of (filter.options ?? []) as INodePropertyCollection[]) {
		const at = `${path}.${group.name}`;
		const rows = [context.getNodeParameter(at, []) ?? []].flat() as IDataObject[];
		const raw = [rawParameter(context, at) ?? []].flat() as IDataObject[];
		raw.forEach((row, index) => {
			for (const member of group.values) {
				if (isExpression(row?.[member.name]) && emptyFilterValue(rows[index]?.[member.name])) {
					failEmptyFilter(
						context,
						at,
						`${filter.displayName} ${member.displayName}`,
						row[member.name],
					);
				}
			}
		});
	}
}

function failEmptyFilter(
	context: IExecuteSingleFunctions,
	path: string,
	label: string,
	raw: unknown,
): never {
	fail(
		context,
		`Filter '${label}' came out empty from its expression`,
		`The expression ${shown(String(raw).slice(1))} gave no value for this item, and an empty filter would match ` +
			'every record, so nothing was looked up. Use an If node before this node to route items without a value ' +
			'elsewhere, or remove the filter.',
		{ path, label },
	);
}

/**
 * A date range as two filters: `created` gives "Created After" (inclusive) and "Created Before" (exclusive), sent as
 * `created_after` / `created_before` (see dateTimeSend).
 */
export function dateRangeFilters(prefixes: string[], collection = 'filters'): INodeProperties[] {
	return prefixes.flatMap((prefix) =>
		(['after', 'before'] as const).map((bound) => ({
			displayName: `${titleCase(prefix)} ${titleCase(bound)}`,
			name: `${prefix}${titleCase(bound)}`,
			type: 'dateTime' as const,
			default: '',
			builderHint: DATE_TIME_HINT,
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
			send: {
				type: 'query',
				property: queryName,
				value: '={{ $value.length ? $value.join(",") : undefined }}',
			},
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
	options: {
		description: string;
		displayName?: string;
		name?: string;
		queryName?: string;
		unspecified?: boolean;
	},
): INodeProperties {
	const list = typeof kinds === 'string' ? [kinds] : kinds;
	const [first] = list;
	const prefixes = list.map((kind) => ID_PREFIXES[kind]);
	const name = options.name ?? `${first}Ids`;
	const loadOptionsMethod = list.length === 1 ? recordOf(first).loadOptionsMethod : undefined;
	const displayName =
		options.displayName ??
		`${recordOf(first).displayName} ${loadOptionsMethod ? 'Names or IDs' : 'IDs'}`;
	const control: Pick<
		INodeProperties,
		'type' | 'default' | 'typeOptions' | 'placeholder' | 'description'
	> = loadOptionsMethod
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
				property:
					options.queryName ??
					`${first.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)}_id`,
				value:
					'={{ (Array.isArray($value) ? $value : String($value ?? "").split(",")).map((id) => String(id).trim()).filter((id) => id !== "").join(",") || undefined }}',
				preSend: [checkIdList(`filters.${name}`, displayName, prefixes, options.unspecified)],
			},
		},
	};
}

/**
 * The longest metadata filter key sent. A key goes into the URL (`metadata[<key>]`); Stora documents no limit, and a
 * server drops a request whose URL runs to many kilobytes without an answer that says why.
 */
const MAX_METADATA_FILTER_KEY_LENGTH = 255;

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
		routing: {
			send: {
				preSend: [
					async function (this: IExecuteSingleFunctions, options: IHttpRequestOptions) {
						const rows =
							((this.getNodeParameter('filters.metadata', {}) as IDataObject).entry as
								| IDataObject[]
								| undefined) ?? [];
						for (const key of rows.map((row) => String(row.key ?? ''))) {
							if (key.length <= MAX_METADATA_FILTER_KEY_LENGTH) continue;
							fail(
								this,
								`Metadata: the key ${shown(key)} is ${key.length.toLocaleString('en')} characters long`,
								`Use a key of at most ${MAX_METADATA_FILTER_KEY_LENGTH} characters: it is sent in the URL.`,
								{ path: 'filters.metadata', label: 'Metadata' },
							);
						}
						return options;
					},
				],
			},
		},
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
