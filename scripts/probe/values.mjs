/**
 * For one list parameter and the records a list returned without it (the sample), the value to send so that an API
 * that honours the parameter must answer differently (at least one sampled record excluded or reordered), and the test
 * each returned record must pass. Values come from the records themselves, so no guess about the account is needed.
 * Free text (e-mail addresses, names, metadata values) is never written to the report: `shown` describes it instead.
 */
import { EXPAND_SCOPES, NOT_ON_RECORD } from './lists.mjs';

export const refId = (value) =>
	typeof value === 'string'
		? value
		: value && typeof value === 'object' && 'id' in value
			? String(value.id)
			: undefined;
const timeOf = (value) => Date.parse(String(value));
const present = (value) => value !== undefined && value !== null && value !== '';

/** How the node reads a parameter (transport/listFilters.ts filterCheckOf, by the same naming rules). */
export function kindOf(resource, parameter) {
	if (NOT_ON_RECORD[resource]?.[parameter]) return 'absentReference';
	if (
		['page', 'limit', 'sort_by', 'sort_direction', 'expand', 'search', 'email'].includes(parameter)
	)
		return parameter;
	if (parameter === 'metadata[]') return 'metadata';
	if (/^\w+_(after|before)$/.test(parameter)) return 'window';
	if (parameter.endsWith('_id')) return 'reference';
	return 'equals';
}

/** The value(s) of a window's field on a record: `due` reads due_at or due_date, any other prefix `<prefix>_at`. */
const windowFields = (prefix) => (prefix === 'due' ? ['due_at', 'due_date'] : [`${prefix}_at`]);
const windowValue = (record, prefix) =>
	windowFields(prefix)
		.map((field) => record[field])
		.find(present);

/** A value of `values` (parallel to records) that some record lacks, preferring the rarest (excludes most). */
function splittingValue(values) {
	const counts = new Map();
	for (const value of values)
		if (value !== undefined) counts.set(value, (counts.get(value) ?? 0) + 1);
	const candidates = [...counts.entries()]
		.filter(([, count]) => count < values.length)
		.sort((a, b) => a[1] - b[1]);
	return candidates[0]?.[0];
}

const tooFew = (why) => ({ unknown: why });

/**
 * `{ query, test, shown }` for `parameter` on `list`, or `{ unknown: reason }`. `test(record)` is true, false, or
 * undefined when the record does not show. `expect` is 'subset' for filters, 'order' for sorts, 'page' / 'limit' /
 * 'expand' / 'empty' for the rest.
 */
export function chooseTest(list, parameter, sample, context = {}) {
	const kind = kindOf(list.resource, parameter);
	if (sample.length < 2 && kind !== 'absentReference' && kind !== 'expand')
		return tooFew(
			`the list returned ${sample.length} record(s) without it; two or more are needed to tell`,
		);
	switch (kind) {
		case 'limit':
			return { query: { limit: 1 }, expect: 'limit', shown: '1' };
		case 'page': {
			const k = Math.floor(sample.length / 2);
			return {
				query: { page: 2, limit: k },
				expect: 'page',
				k,
				shown: `2 (with limit=${k}: an honoured page 2 is the records after the first ${k})`,
			};
		}
		case 'sort_direction':
			if (new Set(sample.map((record) => record.id)).size < 2)
				return tooFew('fewer than two distinct records');
			return { query: { sort_direction: 'ASC' }, expect: 'direction', shown: 'ASC, then DESC' };
		case 'sort_by':
			return chooseSort(list, sample);
		case 'expand':
			return chooseExpand(list, sample, context.scopes);
		case 'absentReference': {
			const prefix = NOT_ON_RECORD[list.resource][parameter];
			if (sample.length < 1) return tooFew('the list returned no record without it');
			const madeUp = {
				query: { [parameter]: `${prefix}probe0000000000` },
				expect: 'empty',
				shown: `${prefix}probe0000000000 (an ID that matches nothing; its records do not carry the field)`,
			};
			// A real ID first: an API that checks IDs exist refuses a made-up one for its value, not for the parameter.
			const real = (context.knownIds ?? []).find((id) => id.startsWith(prefix));
			if (real === undefined)
				return { ...madeUp, noRealId: `no ${prefix} ID was seen in the lists read before` };
			return {
				query: { [parameter]: real },
				expect: 'refOnly',
				shown: `${real} (a real ID; its records do not carry the field)`,
				decides: `an ID that owns some of the sampled records but not all would decide`,
				then: madeUp,
			};
		}
		case 'window': {
			const [, prefix, bound] = /^(\w+)_(after|before)$/.exec(parameter);
			const values = sample
				.map((record) => windowValue(record, prefix))
				.filter((value) => present(value) && !Number.isNaN(timeOf(value)));
			const times = [...new Set(values.map(timeOf))].sort((a, b) => a - b);
			if (times.length < 2)
				return tooFew(
					`fewer than two distinct ${windowFields(prefix).join('/')} values among the records`,
				);
			// Whether a bound is inclusive is not documented: records exactly at it tell nothing (test undefined), so
			// the bound is a sampled time with records beyond it on the excluded side. `after`: the latest time
			// (every earlier record excluded); `before`: the one below it (every record at the latest time excluded).
			const at = bound === 'after' ? times[times.length - 1] : times[times.length - 2];
			const value = values.find((candidate) => timeOf(candidate) === at);
			const side = (record) => {
				const own = windowValue(record, prefix);
				return present(own) && !Number.isNaN(timeOf(own)) ? Math.sign(timeOf(own) - at) : undefined;
			};
			return {
				query: { [parameter]: value },
				expect: 'subset',
				shown: String(value),
				test: (record) => {
					const place = side(record);
					if (place === undefined || place === 0) return undefined;
					return bound === 'after' ? place > 0 : place < 0;
				},
				boundNote: (records, stable, context) => {
					const atBound = stable.filter((record) => side(record) === 0);
					if (atBound.some((record) => context.returned.has(String(record.id))))
						return `; a record exactly at the bound came back: the bound is inclusive`;
					if (atBound.some(context.surelyExcluded))
						return `; a record exactly at the bound was left out: the bound is exclusive`;
					return '';
				},
			};
		}
		case 'metadata':
			return chooseMetadata(sample);
		case 'search':
			return chooseSearch(sample);
		case 'email': {
			const value = splittingValue(
				sample.map((record) =>
					typeof record.email === 'string' ? record.email.toLowerCase() : undefined,
				),
			);
			if (value === undefined) return tooFew('no two records with different e-mail addresses');
			return {
				query: { email: value },
				expect: 'subset',
				shown: "a sampled record's e-mail address",
				test: (record) =>
					typeof record.email === 'string' ? record.email.toLowerCase() === value : undefined,
			};
		}
		case 'reference': {
			const field = parameter.slice(0, -'_id'.length);
			if (!sample.some((record) => field in record)) return tooFew(`its records carry no ${field}`);
			const value = splittingValue(sample.map((record) => refId(record[field])));
			if (value === undefined) return tooFew(`no two records with different ${field} references`);
			return {
				query: { [parameter]: value },
				expect: 'subset',
				shown: value,
				test: (record) => (field in record ? refId(record[field]) === value : undefined),
			};
		}
		default: {
			const field = parameter;
			const value = splittingValue(
				sample.map((record) =>
					present(record[field]) && typeof record[field] !== 'object'
						? String(record[field])
						: undefined,
				),
			);
			if (value === undefined) return tooFew(`no two records with different ${field} values`);
			return {
				query: { [parameter]: value },
				expect: 'subset',
				shown: value,
				test: (record) => (present(record[field]) ? String(record[field]) === value : undefined),
			};
		}
	}
}

/** Compares two values of a sort field: times by time, numbers by value, text case-insensitively; missing last. */
export function compareValues(a, b) {
	if (!present(a) || !present(b)) return present(a) === present(b) ? 0 : present(a) ? -1 : 1;
	if (typeof a === 'number' && typeof b === 'number') return a - b;
	const text = [String(a), String(b)];
	if (text.every((value) => /^\d{4}-\d{2}-\d{2}/.test(value)))
		return timeOf(text[0]) - timeOf(text[1]);
	return text[0].localeCompare(text[1], 'en', { sensitivity: 'base', numeric: true });
}

/** Whether `records` are in `field` order (ties and records without the field in any place). */
export function inOrder(records, field, descending) {
	const values = records.map((record) => record[field]).filter(present);
	const sign = descending ? -1 : 1;
	return values.every(
		(value, index) => index === 0 || sign * compareValues(values[index - 1], value) <= 0,
	);
}

/**
 * The first sort value the node sends in whose order (either direction) the sample is not: a list's default order
 * is checked, never assumed to be newest created first, and an API sorting ascending by default is seen too.
 */
function chooseSort(list, sample) {
	const values = [
		...new Set([
			...(list.cursor !== false ? ['updated_at'] : []),
			...list.sortBy.filter((value) => value !== 'created_at'),
			'created_at',
		]),
	];
	const absent = [];
	const ordered = [];
	for (const field of values) {
		const carried = sample.filter((record) => present(record[field]));
		if (carried.length < 3) absent.push(field);
		else if (inOrder(sample, field, true) || inOrder(sample, field, false)) ordered.push(field);
		else return { query: { sort_by: field }, expect: 'order', field, shown: field };
	}
	return tooFew(
		[
			absent.length ? `fewer than three records carry ${absent.join(', ')}` : '',
			ordered.length
				? `the records are in ${ordered.join(', ')} order already (one direction or the other)`
				: '',
		]
			.filter(Boolean)
			.join('; ') +
			', so a sort would not show; records whose values run against their order decide',
	);
}

/** A reference the node can expand that a sampled record holds as a bare `{id}` (or ID), readable with the token's scopes. */
function chooseExpand(list, sample, scopes) {
	if (list.expand === null)
		return tooFew('its records show no reference to expand (the node offers a free-text Expand)');
	const stub = (value) =>
		typeof value === 'string'
			? true
			: value &&
				typeof value === 'object' &&
				!Array.isArray(value) &&
				Object.keys(value).join() === 'id';
	const stubOf = (value) =>
		Array.isArray(value) ? value.length > 0 && stub(value[0]) : stub(value);
	const fields = list.expand.filter((field) => !field.includes('.'));
	// Polymorphic or staff references last: their read scope is the hardest to know.
	const ordered = [
		...fields.filter((field) => !['creator', 'assignee', 'resource'].includes(field)),
		...fields.filter((field) => ['creator', 'assignee'].includes(field)),
	];
	for (const field of ordered) {
		const scope = EXPAND_SCOPES[field];
		if (scopes && scope && !scopes.includes(scope)) continue;
		const record = sample.find((candidate) => stubOf(candidate[field]));
		if (record)
			return {
				query: { expand: field },
				expect: 'expand',
				field,
				recordId: record.id,
				shown: field,
			};
	}
	return tooFew(
		'no sampled record holds a reference the node expands (as a bare ID) that the token may read',
	);
}

/** A metadata key and value one sampled record has and another does not. */
function chooseMetadata(sample) {
	const pairs = new Map();
	for (const record of sample) {
		const metadata = record.metadata;
		if (!metadata || typeof metadata !== 'object') continue;
		for (const [key, value] of Object.entries(metadata)) {
			if (!/^[\w.-]{1,64}$/.test(key) || !['string', 'number', 'boolean'].includes(typeof value))
				continue;
			if (!pairs.has(key))
				pairs.set(
					key,
					sample.map((other) =>
						other.metadata && typeof other.metadata === 'object' && present(other.metadata[key])
							? String(other.metadata[key])
							: undefined,
					),
				);
		}
	}
	for (const [key, values] of pairs) {
		const value = splittingValue(values);
		if (value === undefined) continue;
		return {
			query: { [`metadata[${key}]`]: value },
			expect: 'subset',
			shown: "a sampled record's value",
			test: (record) =>
				record.metadata && typeof record.metadata === 'object'
					? String(record.metadata[key] ?? '') === value
					: undefined,
		};
	}
	return tooFew(
		'no metadata key that one sampled record has and another lacks or holds differently',
	);
}

/** A word of one record's name that appears nowhere in another sampled record. */
function chooseSearch(sample) {
	const text = (record) => JSON.stringify(record).toLowerCase();
	for (const record of sample) {
		const name = [record.name, record.full_name, record.title].find(
			(value) => typeof value === 'string',
		);
		if (!name) continue;
		const words = name
			.toLowerCase()
			.split(/[^\p{L}\p{N}]+/u)
			.filter((word) => word.length >= 3)
			.sort((a, b) => b.length - a.length);
		for (const word of words) {
			if (!sample.some((other) => !text(other).includes(word))) continue;
			return {
				query: { search: word },
				expect: 'subset',
				shown: "a word of a sampled record's name",
				test: (candidate) => text(candidate).includes(word),
			};
		}
	}
	return tooFew('no word of a record name that another sampled record lacks');
}

/**
 * Where no value can tell honoured from ignored, a plausible one is still sent: an error naming the parameter settles
 * "refused" all the same. Only values an honouring API takes (the sample's own, valid formats); undefined where none
 * is safe (an enum or reference without a sampled value could be refused for its value alone).
 */
export function fallbackOf(list, parameter, sample, scopes) {
	const kind = kindOf(list.resource, parameter);
	const first = (read) => sample.map(read).find(present);
	switch (kind) {
		case 'limit':
			return { limit: 1 };
		case 'page':
			return { page: 2 };
		case 'sort_direction':
			return { sort_direction: 'ASC' };
		case 'sort_by':
			return {
				sort_by: [
					...(list.cursor !== false ? ['updated_at'] : []),
					...list.sortBy.filter((value) => value !== 'created_at'),
					'created_at',
				][0],
			};
		case 'expand': {
			const readable = (name) =>
				!scopes || !EXPAND_SCOPES[name] || scopes.includes(EXPAND_SCOPES[name]);
			const field = Array.isArray(list.expand)
				? list.expand.find((name) => !name.includes('.') && readable(name))
				: undefined;
			return field === undefined ? undefined : { expand: field };
		}
		case 'window': {
			const [, prefix] = /^(\w+)_(after|before)$/.exec(parameter);
			return {
				[parameter]: first((record) => windowValue(record, prefix)) ?? '2020-01-01T00:00:00Z',
			};
		}
		case 'metadata':
			return { 'metadata[stora_probe]': 'x' };
		case 'search':
			return { search: 'stora' };
		case 'email':
			return { email: 'stora-probe@example.com' };
		case 'absentReference':
			return { [parameter]: `${NOT_ON_RECORD[list.resource][parameter]}probe0000000000` };
		case 'reference': {
			const value = first((record) => refId(record[parameter.slice(0, -'_id'.length)]));
			return value === undefined ? undefined : { [parameter]: value };
		}
		default: {
			const value = first((record) =>
				typeof record[parameter] === 'string' ? record[parameter] : undefined,
			);
			return value === undefined ? undefined : { [parameter]: value };
		}
	}
}
