/**
 * The list engine shared by every list endpoint: validation of the common query parameters, filters, date
 * windows, metadata filters, fuzzy search, stable sorting and pagy-style pagination meta.
 */
import { invalidUrlParam } from './errors';
import type { ApiRecord, ErrorDetail, ListSpec } from './types';

export interface Pagination {
	count: number;
	last: number;
	limit: number;
	next: number | null;
	page: number;
	pages: number;
	prev: number | null;
}

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 100;

/** Every leaf value at a dot path; arrays along the way are flattened (`unit_allocations.id` → all ids). */
export function valuesAt(value: unknown, path: string): unknown[] {
	let current: unknown[] = [value];
	for (const segment of path.split('.')) {
		const next: unknown[] = [];
		for (const item of current) {
			if (item === null || item === undefined) {
				next.push(null);
				continue;
			}
			const member = (item as Record<string, unknown>)[segment];
			if (Array.isArray(member)) next.push(...member);
			else next.push(member === undefined ? null : member);
		}
		current = next;
	}
	return current;
}

function intParam(query: Record<string, string>, name: string, min: number, max: number, fallback: number, details: ErrorDetail[]) {
	const raw = query[name];
	if (raw === undefined || raw === '') return fallback;
	const value = /^\d+$/.test(raw.trim()) ? Number(raw.trim()) : NaN;
	if (!Number.isInteger(value) || value < min || value > max) {
		const range = max === Infinity ? `an integer greater than or equal to ${min}` : `an integer between ${min} and ${max}`;
		details.push({ message: `The query parameter '${name}' must be ${range}`, pointer: name });
		return fallback;
	}
	return value;
}

/** Compares two field values: numbers numerically, ISO dates chronologically, strings case-insensitively; null first. */
export function compareValues(a: unknown, b: unknown): number {
	const nullA = a === null || a === undefined;
	const nullB = b === null || b === undefined;
	if (nullA || nullB) return nullA === nullB ? 0 : nullA ? -1 : 1;
	if (typeof a === 'number' && typeof b === 'number') return a - b;
	if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
	if (a && typeof a === 'object' && 'amount' in (a as object)) return compareValues((a as { amount: unknown }).amount, (b as { amount: unknown }).amount);
	const sa = String(a);
	const sb = String(b);
	if (/^\d{4}-\d{2}-\d{2}/.test(sa) && /^\d{4}-\d{2}-\d{2}/.test(sb)) {
		const diff = Date.parse(sa) - Date.parse(sb);
		if (!isNaN(diff)) return diff;
	}
	const la = sa.toLowerCase();
	const lb = sb.toLowerCase();
	return la < lb ? -1 : la > lb ? 1 : 0;
}

function parseInstant(raw: string): number {
	// Date-only values are midnight UTC; anything else must be an ISO 8601 date-time.
	if (!/^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(raw.trim())) return NaN;
	return Date.parse(raw.trim());
}

/**
 * Filters, sorts and pages `records` according to the request query. Throws 422 `invalid_url_param` (one detail per
 * bad parameter, pointer = the parameter name) before filtering anything. Unknown query parameters are ignored.
 * `sequence` gives a record's insertion order, used as the tie-break so equal sort keys keep a stable order.
 */
export function runList(
	query: Record<string, string>,
	records: ApiRecord[],
	spec: ListSpec,
	sequence: (id: string) => number,
): { items: ApiRecord[]; pagination: Pagination } {
	const details: ErrorDetail[] = [];
	const page = intParam(query, 'page', 1, Infinity, 1, details);
	const limit = intParam(query, 'limit', 1, MAX_LIMIT, DEFAULT_LIMIT, details);

	const sortBy = query.sort_by ?? spec.sortBy[0] ?? 'created_at';
	if (!spec.sortBy.includes(sortBy) && query.sort_by !== undefined) {
		details.push({ message: `The query parameter 'sort_by' must be one of: ${spec.sortBy.join(', ')}`, pointer: 'sort_by' });
	}
	const direction = (query.sort_direction ?? 'DESC').toUpperCase();
	if (direction !== 'ASC' && direction !== 'DESC') {
		details.push({ message: 'The query parameter \'sort_direction\' must be one of: ASC, DESC', pointer: 'sort_direction' });
	}

	const predicates: Array<(r: ApiRecord) => boolean> = [];

	for (const [param, filter] of Object.entries(spec.filters ?? {})) {
		const raw = query[param];
		if (raw === undefined || raw.trim() === '') continue;
		const wanted = raw.split(',').map((v) => v.trim()).filter(Boolean);
		const allowed = filter.values ? [...filter.values, ...(filter.unspecified ? ['unspecified'] : [])] : undefined;
		const unknown = allowed ? wanted.filter((v) => !allowed.includes(v)) : [];
		if (unknown.length) {
			details.push({ message: `The query parameter '${param}' has unknown values: ${unknown.join(', ')}; allowed: ${allowed!.join(', ')}`, pointer: param });
			continue;
		}
		const matchNull = filter.unspecified !== false && wanted.includes('unspecified');
		predicates.push((record) => {
			const values = valuesAt(record, filter.field);
			if (matchNull && (values.length === 0 || values.some((v) => v === null))) return true;
			return values.some((v) => v !== null && wanted.includes(String(v)));
		});
	}

	for (const [prefix, field] of Object.entries(spec.windows ?? {})) {
		for (const [suffix, test] of [
			['after', (v: number, bound: number) => v >= bound], // inclusive
			['before', (v: number, bound: number) => v < bound], // exclusive
		] as const) {
			const param = `${prefix}_${suffix}`;
			const raw = query[param];
			if (raw === undefined || raw === '') continue;
			const bound = parseInstant(raw);
			if (isNaN(bound)) {
				details.push({ message: `The query parameter '${param}' must be an ISO 8601 date-time`, pointer: param });
				continue;
			}
			predicates.push((record) => {
				const value = valuesAt(record, field)[0];
				if (value === null || value === undefined) return false;
				const at = Date.parse(String(value));
				return !isNaN(at) && test(at, bound);
			});
		}
	}

	if (spec.metadata) {
		for (const [param, raw] of Object.entries(query)) {
			const match = /^metadata\[(.+)\]$/.exec(param);
			if (!match) continue;
			const key = match[1];
			predicates.push((record) => {
				const metadata = record.metadata as Record<string, unknown> | null | undefined;
				const value = metadata?.[key];
				return value !== undefined && value !== null && String(value) === raw;
			});
		}
	}

	if (spec.search) {
		const raw = query[spec.search.param];
		const tokens = (raw ?? '').toLowerCase().split(/\s+/).filter(Boolean);
		if (tokens.length) {
			const fields = spec.search.fields;
			predicates.push((record) => {
				const haystack = fields
					.flatMap((f) => valuesAt(record, f))
					.filter((v) => v !== null && v !== undefined)
					.map((v) => String(v).toLowerCase())
					.join(' ');
				return tokens.every((t) => haystack.includes(t));
			});
		}
	}

	if (details.length) throw invalidUrlParam(details);

	const sign = direction === 'ASC' ? 1 : -1;
	const matching = records.filter((r) => predicates.every((p) => p(r)));
	matching.sort((a, b) => {
		const primary = compareValues(valuesAt(a, sortBy)[0], valuesAt(b, sortBy)[0]);
		if (primary !== 0) return sign * primary;
		const bySequence = sequence(a.id) - sequence(b.id);
		if (bySequence !== 0) return sign * bySequence;
		return sign * (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
	});

	const count = matching.length;
	// pagy semantics: an empty result still has one (empty) page.
	const pages = Math.max(1, Math.ceil(count / limit));
	const items = matching.slice((page - 1) * limit, page * limit);
	const pagination: Pagination = {
		count,
		last: pages,
		limit,
		next: page < pages ? page + 1 : null,
		page,
		pages,
		// Beyond the end pagy's "empty page" mode points `prev` at the last real page.
		prev: page === 1 ? null : page > pages ? pages : page - 1,
	};
	return { items, pagination };
}
