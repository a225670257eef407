import type { IDataObject, INode } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

/**
 * Did a list do what the request asked? Stora's docs list the parameters of many list endpoints only in part, so the
 * API may ignore a filter or the sort the node sends. A filter that was not applied must never widen a result silently
 * (think of a workflow deleting the tasks a status filter returned): every returned record is compared with the
 * filters of the request, on the fields the record carries, and the first filter a record contradicts is named.
 *
 * First the contract between a Get Many's Filters (descriptions/) and these checks: for every query parameter a
 * Filters collection sends, which record field it constrains and how, or why it is not checked (the fuzzy `search`).
 * `test/nodes/transport/listFilters.test.ts` reads every filter of the built description and fails for one that is
 * missing here, for a checked field that the resource's records do not carry (its output schema), and for a label
 * that is not the one the user sees. A 422 is told apart when it refuses only parameters the node added itself.
 */

/** How a filter is checked on a returned record. */
type FilterCheck =
	/** The record's field equals one of the comma-separated values. */
	| { kind: 'equals'; field: string }
	/** The record's reference (an ID, a `{ id }` stub or an expanded record) is one of the IDs. */
	| { kind: 'reference'; field: string }
	/** The record's time is inside the date range: `after` inclusive, `before` exclusive (the docs). */
	| { kind: 'after' | 'before'; fields: string[] }
	/** The record's e-mail address is one of the given ones, in any case. */
	| { kind: 'email' }
	/** `metadata[key]`: the record's metadata holds exactly that value. */
	| { kind: 'metadata' }
	/** Not compared with the records, for the reason given. */
	| { kind: 'unchecked'; reason: string };

const equals = (field: string): FilterCheck => ({ kind: 'equals', field });
const reference = (field: string): FilterCheck => ({ kind: 'reference', field });

/** Filters named by their query parameter, other than the patterns below. */
const FILTERS: Record<string, FilterCheck> = {
	status: equals('status'),
	type: equals('type'),
	collection_status: equals('collection_status'),
	source: equals('source'),
	marketing_source: equals('marketing_source'),
	billing_period: equals('billing_period'),
	use_case: equals('use_case'),
	email: { kind: 'email' },
	search: { kind: 'unchecked', reason: 'free-text search: Stora decides what matches' },
};

/**
 * Record fields of a date range filter other than `<prefix>_at`: an invoice is due on a date (`due_date`), a task at a time
 * (`due_at`).
 */
const DATE_RANGE_FIELDS: Record<string, string[]> = { due: ['due_at', 'due_date'] };

/**
 * Filters a resource's records do not carry the field of, so no returned record can contradict them: a unit
 * allocation names its tenancy and unit, not the contact or site, which Stora filters by through them.
 */
const NOT_ON_RECORD: Record<string, Record<string, string>> = {
	unitAllocation: {
		contact_id: 'a unit allocation carries its tenancy, not its contact',
		site_id: 'a unit allocation carries its unit, not its site',
	},
};

/** How `parameter`, sent to the list of `resource`, is checked. Undefined: not a filter this node sends. */
export function filterCheckOf(resource: string, parameter: string): FilterCheck | undefined {
	const exempt = NOT_ON_RECORD[resource]?.[parameter];
	if (exempt) return { kind: 'unchecked', reason: exempt };
	if (parameter in FILTERS) return FILTERS[parameter];
	if (/^metadata\[.+\]$/.test(parameter)) return { kind: 'metadata' };
	const range = /^(\w+)_(after|before)$/.exec(parameter);
	if (range)
		return {
			kind: range[2] as 'after' | 'before',
			fields: DATE_RANGE_FIELDS[range[1]] ?? [`${range[1]}_at`],
		};
	if (parameter.endsWith('_id')) return reference(parameter.slice(0, -'_id'.length));
	return undefined;
}

/** Parameters that shape the result instead of filtering it. */
const NOT_FILTERS: ReadonlySet<string> = new Set([
	'page',
	'limit',
	'sort_by',
	'sort_direction',
	'expand',
]);

/**
 * Where the user's label for a filter is not its query parameter in words ("Contact IDs" for `contact_id`): by query
 * parameter, then by resource where two resources name one parameter differently.
 */
const LABELS: Record<string, string | Record<string, string>> = {
	creator_id: 'Author IDs',
	site_id: 'Site Names or IDs',
	stage_id: 'Stage Names or IDs',
	unit_type_id: 'Unit Type Names or IDs',
	contract_template_id: 'Contract Template Names or IDs',
	resource_id: { task: 'Linked Record IDs', note: 'Record IDs' },
	search: { deal: 'Name Search', site: 'Name Search' },
};

/** The label the user sees for a filter of `resource`'s Get Many ("Author IDs" for `creator_id`). */
export function filterLabel(resource: string, parameter: string): string {
	if (/^metadata\[.+\]$/.test(parameter)) return 'Metadata';
	const label = LABELS[parameter];
	if (typeof label === 'string') return label;
	if (label?.[resource]) return label[resource];
	const words = parameter.replace(/_id$/, '_ids').split('_');
	return words
		.map((word) => (word === 'ids' ? 'IDs' : word.charAt(0).toUpperCase() + word.slice(1)))
		.join(' ');
}

/** A filter's verdict on one record: false = the record contradicts it, undefined = the record does not show. */
type Check = (record: IDataObject) => boolean | undefined;

/** The ID a reference holds, whether it is returned as an ID, a `{ id }` stub or an expanded record. */
function referenceId(value: unknown): string | undefined {
	if (typeof value === 'string') return value;
	if (value && typeof value === 'object' && 'id' in value) return String((value as IDataObject).id);
	return undefined;
}

function listOf(raw: unknown): string[] {
	return String(raw)
		.split(',')
		.map((entry) => entry.trim())
		.filter(Boolean);
}

/**
 * Filter values that the record spells differently (docs: the unit list filter says `overlock`, the unit says
 * `overlocked`). Unconfirmed: one place to extend when Stora shows another.
 */
const VALUE_ALIASES: Record<string, Record<string, string[]>> = {
	status: { overlock: ['overlocked'] },
};

/** A date-only value (`due_date`) is inside a date range when any moment of its day (UTC) is. */
const DAY_MS = 24 * 60 * 60 * 1000;

/** The first of `fields` the record carries a value in. */
function firstPresent(record: IDataObject, fields: string[]): unknown {
	const field = fields.find((name) => record[name] !== undefined && record[name] !== null);
	return field === undefined ? undefined : record[field];
}

/** The check of one filter on one record, as declared above for the resource. */
function checkFor(resource: string, parameter: string, raw: unknown): Check | undefined {
	if (NOT_FILTERS.has(parameter) || raw === undefined || raw === null || raw === '')
		return undefined;
	const declared = filterCheckOf(resource, parameter);
	switch (declared?.kind) {
		case 'metadata': {
			const key = /^metadata\[(.+)\]$/.exec(parameter)![1];
			return (record) => {
				const values = record.metadata as IDataObject | undefined | null;
				if (!values || typeof values !== 'object') return undefined;
				return String(values[key] ?? '') === String(raw);
			};
		}
		case 'after':
		case 'before': {
			const bound = Date.parse(String(raw));
			if (Number.isNaN(bound)) return undefined;
			const after = declared.kind === 'after';
			return (record) => {
				const value = firstPresent(record, declared.fields);
				if (value === undefined) return undefined;
				const at = Date.parse(String(value));
				if (Number.isNaN(at)) return undefined;
				const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(String(value));
				// The docs: `_after` is inclusive, `_before` exclusive.
				if (after) return (dateOnly ? at + DAY_MS - 1 : at) >= bound;
				return at < bound;
			};
		}
		case 'reference': {
			const wanted = new Set(listOf(raw));
			return (record) => {
				if (!(declared.field in record)) return undefined;
				const id = referenceId(record[declared.field]);
				return id === undefined ? wanted.has('unspecified') : wanted.has(id);
			};
		}
		case 'email': {
			const wanted = new Set(listOf(raw).map((email) => email.toLowerCase()));
			return (record) =>
				typeof record.email === 'string' ? wanted.has(record.email.toLowerCase()) : undefined;
		}
		case 'equals': {
			const aliases = VALUE_ALIASES[parameter] ?? {};
			const wanted = new Set(listOf(raw).flatMap((value) => [value, ...(aliases[value] ?? [])]));
			return (record) => {
				const value = record[declared.field];
				if (value === undefined || value === null || typeof value === 'object') return undefined;
				return wanted.has(String(value));
			};
		}
		default:
			return undefined;
	}
}

interface UnappliedFilter {
	/** The query parameter, e.g. `status`. */
	parameter: string;
	/** What the request asked for. */
	asked: string;
	record: IDataObject;
}

/** The first filter of `qs` that a returned record contradicts, if any. */
function unappliedFilter(
	resource: string,
	qs: IDataObject,
	records: IDataObject[],
): UnappliedFilter | undefined {
	for (const [parameter, raw] of Object.entries(qs)) {
		const check = checkFor(resource, parameter, raw);
		if (!check) continue;
		const record = records.find((candidate) => check(candidate) === false);
		if (record) return { parameter, asked: String(raw), record };
	}
	return undefined;
}

/** "Contact IDs (contact_id)", "Author IDs (creator_id)", "Metadata (metadata[tier])": the user's label and the wire's. */
export function parameterLabel(parameter: string, resource = ''): string {
	return `${filterLabel(resource, parameter)} (${parameter})`;
}

/**
 * Throws when a record of `records` (of `resource`'s list) contradicts a filter of `qs` (the API did not apply it): the
 * run stops before any later node acts on records the filter excludes.
 */
export function checkFiltersApplied(
	node: INode,
	resource: string,
	qs: IDataObject,
	records: IDataObject[],
	itemIndex?: number,
): void {
	const unapplied = unappliedFilter(resource, qs, records);
	if (unapplied) throw filterNotApplied(node, resource, unapplied, itemIndex);
}

function filterNotApplied(
	node: INode,
	resource: string,
	{ parameter, asked, record }: UnappliedFilter,
	itemIndex?: number,
) {
	return new NodeOperationError(
		node,
		`Stora did not apply the filter ${parameterLabel(parameter, resource)}`,
		{
			description:
				`Record ${String(record.id)} came back although the filter asks for ${asked}. This Stora list may not support ` +
				'the filter, so the node stops rather than pass on records the filter excludes. Remove the filter and use ' +
				"n8n's Filter node on the results instead.",
			itemIndex,
		},
	);
}

/**
 * Whether `error` is a 422 that refuses only `parameters` the node added on its own (and the user did not set in
 * `userQs`), so the request can go on without them.
 */
export function refusesOnly(
	error: unknown,
	parameters: readonly string[],
	userQs: IDataObject,
): boolean {
	if (!(error instanceof NodeApiError) || error.httpCode !== '422') return false;
	const details = ((error.context?.details ?? []) as Array<{ pointer?: string | null }>).map(
		(detail) => String(detail.pointer ?? '').replace(/^\//, ''),
	);
	return (
		details.length > 0 && details.every((name) => parameters.includes(name) && !(name in userQs))
	);
}
