/**
 * Per-list readings of query parameters, so the sandbox can play what a real list may do with any one parameter,
 * documented or not (`npm run probe` is tested against each): `POST /__sandbox/config {"param_readings":
 * {"/2025-09/deals": {"*": "ignore", "status": "honour"}}}`.
 *
 *   honour  the list applies it, even where the sandbox's own list would not (an undocumented filter under the
 *           `ignore`/`reject` unknown-params modes, a filter or sort value the list does not implement: see below)
 *   ignore  dropped before the handler sees it, as if never sent
 *   reject  422 `invalid_url_param` naming it
 *
 * Keys are request paths; under a path, a parameter name, `metadata[]` for every `metadata[<key>]`, or `*` for every
 * parameter not named (but `page` and `limit`, which every list documents: name them to change them). A reading wins
 * over the unknown-params mode. None is set by default, so every list behaves as before.
 */
import { invalidUrlParam } from './errors';
import type { ApiRecord, ListSpec } from './types';

export type ParamReading = 'honour' | 'ignore' | 'reject';
export const PARAM_READINGS: ParamReading[] = ['honour', 'ignore', 'reject'];
/** Request path → parameter name (or `metadata[]`, `*`) → reading. */
export type ParamReadings = Record<string, Record<string, ParamReading>>;

const isMetadata = (name: string) => /^metadata\[.+\]$/.test(name);

/** The reading set for `name` on `path`, if any. */
export function readingOf(
	readings: ParamReadings,
	path: string,
	name: string,
): ParamReading | undefined {
	const forPath = readings[path];
	if (!forPath) return undefined;
	if (Object.prototype.hasOwnProperty.call(forPath, name)) return forPath[name];
	if (isMetadata(name) && forPath['metadata[]']) return forPath['metadata[]'];
	if (name === 'page' || name === 'limit') return undefined;
	return forPath['*'];
}

/** Checks a `param_readings` value from the control plane; returns the problem, or undefined. */
export function readingsProblem(value: unknown): string | undefined {
	if (!value || typeof value !== 'object' || Array.isArray(value))
		return 'param_readings must be an object of paths';
	for (const [path, entries] of Object.entries(value as Record<string, unknown>)) {
		if (!path.startsWith('/')) return `param_readings: '${path}' is not a path`;
		if (!entries || typeof entries !== 'object' || Array.isArray(entries))
			return `param_readings['${path}'] must be an object of parameters`;
		for (const [name, reading] of Object.entries(entries as Record<string, unknown>)) {
			if (!PARAM_READINGS.includes(reading as ParamReading))
				return `param_readings['${path}']['${name}'] must be one of: ${PARAM_READINGS.join(', ')}`;
		}
	}
	return undefined;
}

/**
 * Applies the readings of `path` to a request's query: throws 422 naming every rejected parameter, drops the ignored
 * ones, and returns the names to honour (exempt from the unknown-params mode, and honoured by `honourUnimplemented`).
 */
export function applyReadings(
	readings: ParamReadings,
	path: string,
	query: Record<string, string>,
): { query: Record<string, string>; honour: string[] } {
	if (!readings[path]) return { query, honour: [] };
	const kept: Record<string, string> = {};
	const rejected: string[] = [];
	const honour: string[] = [];
	for (const [name, value] of Object.entries(query)) {
		const reading = readingOf(readings, path, name);
		if (reading === 'reject') rejected.push(name);
		if (reading === 'ignore' || reading === 'reject') continue;
		if (reading === 'honour') honour.push(name);
		kept[name] = value;
	}
	if (rejected.length) {
		throw invalidUrlParam(
			rejected.map((name) => ({
				message: `The query parameter '${name}' is not allowed`,
				pointer: name,
			})),
			`Unknown query parameter${rejected.length > 1 ? 's' : ''}: ${rejected.join(', ')}`,
		);
	}
	return { query: kept, honour };
}

/** Whether the list engine applies `name` under `spec` by itself. */
function implemented(spec: ListSpec, name: string): boolean {
	if (['page', 'limit', 'expand', 'sort_by', 'sort_direction'].includes(name)) return true;
	if (isMetadata(name)) return spec.metadata === true;
	if (spec.filters && name in spec.filters) return true;
	if (spec.search?.param === name) return true;
	const window = /^(\w+)_(after|before)$/.exec(name);
	return Boolean(window && spec.windows && window[1] in spec.windows);
}

const list = (raw: string) =>
	raw
		.split(',')
		.map((value) => value.trim())
		.filter(Boolean);
const refId = (value: unknown) =>
	typeof value === 'string'
		? value
		: value && typeof value === 'object' && 'id' in value
			? String((value as { id: unknown }).id)
			: undefined;
const DAY_MS = 86_400_000;

/**
 * A generic test of one honoured parameter the list does not implement, on the rendered record. A record that does
 * not carry the parameter's field passes (the filter cannot be told from it), as the node's own checks read it.
 */
function predicateFor(
	name: string,
	raw: string,
): ((record: Record<string, unknown>) => boolean) | undefined {
	const window = /^(\w+)_(after|before)$/.exec(name);
	if (window) {
		const bound = Date.parse(raw);
		if (Number.isNaN(bound)) return undefined;
		const fields = window[1] === 'due' ? ['due_at', 'due_date'] : [`${window[1]}_at`];
		return (record) => {
			const field = fields.find((f) => record[f] !== undefined && record[f] !== null);
			if (field === undefined) return !fields.some((f) => f in record);
			const text = String(record[field]);
			const at = Date.parse(text);
			const dayOnly = /^\d{4}-\d{2}-\d{2}$/.test(text);
			return window[2] === 'after' ? (dayOnly ? at + DAY_MS - 1 : at) >= bound : at < bound;
		};
	}
	if (name === 'search') {
		const tokens = raw.toLowerCase().split(/\s+/).filter(Boolean);
		return (record) => {
			const text = JSON.stringify(record).toLowerCase();
			return tokens.every((token) => text.includes(token));
		};
	}
	const wanted = list(raw);
	if (name === 'email') {
		const lower = wanted.map((value) => value.toLowerCase());
		return (record) =>
			typeof record.email !== 'string' || lower.includes(record.email.toLowerCase());
	}
	if (name.endsWith('_id')) {
		const field = name.slice(0, -3);
		return (record) => {
			// A field of that very name (a unit's reference_id) is a value; otherwise `<x>_id` filters the reference `<x>`.
			if (name in record) return wanted.includes(String(record[name]));
			if (!(field in record)) return true;
			const id = refId(record[field]);
			return id === undefined ? wanted.includes('unspecified') : wanted.includes(id);
		};
	}
	return (record) => {
		const value = record[name];
		if (value === undefined || (value !== null && typeof value === 'object')) return true;
		return value === null ? wanted.includes('unspecified') : wanted.includes(String(value));
	};
}

/**
 * The records and spec a list runs with once the honoured parameters its spec does not implement are applied: a
 * `sort_by` value the list does not offer joins its sorts, `metadata[...]` switches metadata filters on, and any other
 * filter is tested generically (predicateFor) before the list engine runs.
 */
export function honourUnimplemented(
	query: Record<string, string>,
	honour: string[] | undefined,
	spec: ListSpec,
	records: ApiRecord[],
	render: (record: ApiRecord) => Record<string, unknown>,
): { spec: ListSpec; records: ApiRecord[] } {
	if (!honour?.length) return { spec, records };
	let next = spec;
	const tests: Array<(record: Record<string, unknown>) => boolean> = [];
	for (const name of honour) {
		const raw = query[name];
		if (raw === undefined || raw === '') continue;
		if (name === 'sort_by' && !spec.sortBy.includes(raw))
			next = { ...next, sortBy: [...next.sortBy, raw] };
		else if (isMetadata(name) && !next.metadata) next = { ...next, metadata: true };
		else if (!implemented(spec, name)) {
			const test = predicateFor(name, raw);
			if (test) tests.push(test);
		}
	}
	if (!tests.length) return { spec: next, records };
	return {
		spec: next,
		records: records.filter((record) => {
			const shown = render(record);
			return tests.every((test) => test(shown));
		}),
	};
}
