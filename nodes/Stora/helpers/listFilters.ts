/**
 * The contract between a Get Many's Filters (descriptions/) and the check of the records a list returns
 * (transport/listChecks.ts): for every query parameter a Filters collection sends, which record field it constrains and
 * how, or why it is not checked. `test/nodes/listFilters.test.ts` reads every filter of the built description and fails
 * for one that is missing here, for a checked field that the resource's records do not carry (its output schema), and
 * for a label that is not the one the user sees.
 */

/** How a filter is checked on a returned record. */
export type FilterCheck =
	/** The record's field equals one of the comma-separated values. */
	| { kind: 'equals'; field: string }
	/** The record's reference (an ID, a `{ id }` stub or an expanded record) is one of the IDs. */
	| { kind: 'reference'; field: string }
	/** The record's time is inside the window: `after` inclusive, `before` exclusive (the docs). */
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
 * Record fields of a date window other than `<prefix>_at`: an invoice is due on a date (`due_date`), a task at a time
 * (`due_at`).
 */
const WINDOW_FIELDS: Record<string, string[]> = { due: ['due_at', 'due_date'] };

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
	const window = /^(\w+)_(after|before)$/.exec(parameter);
	if (window) return { kind: window[2] as 'after' | 'before', fields: WINDOW_FIELDS[window[1]] ?? [`${window[1]}_at`] };
	if (parameter.endsWith('_id')) return reference(parameter.slice(0, -'_id'.length));
	return undefined;
}

/** Parameters that shape the result instead of filtering it. */
export const NOT_FILTERS: ReadonlySet<string> = new Set(['page', 'limit', 'sort_by', 'sort_direction', 'expand']);

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
	return words.map((word) => (word === 'ids' ? 'IDs' : word.charAt(0).toUpperCase() + word.slice(1))).join(' ');
}
