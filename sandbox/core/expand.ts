/**
 * `expand=a,b,c.d`: replaces references (`{id}` or arrays of them) by the referenced record, rendered. Dot paths
 * walk into the (expanded) value, through arrays (`line_items.item`). Each expanded record needs the read scope
 * of its collection (403 `forbidden` naming it). A path that does not lead to a reference is a 422
 * `invalid_url_param`. A reference whose id belongs to no known collection (e.g. `tok_` creators) or whose record
 * is gone stays a plain `{id}`.
 */
import { forbidden, invalidUrlParam } from './errors';
import type { ApiRecord, CollectionOptions } from './types';

export interface ExpandHost {
	collectionFor(id: string): CollectionOptions | undefined;
	get(collection: string, id: string): ApiRecord | undefined;
	/** Applies the collection's own `render` (derived fields) to a copy. */
	renderPlain(collection: string, record: ApiRecord): ApiRecord;
}

export function isRef(value: unknown): value is { id: string } {
	return (
		typeof value === 'object' &&
		value !== null &&
		!Array.isArray(value) &&
		typeof (value as { id?: unknown }).id === 'string' &&
		Object.keys(value).length === 1
	);
}

/** Parses the `expand` query value into dot paths, de-duplicated, shortest first (so `a` expands before `a.b`). */
export function expandPaths(raw: string | undefined): string[][] {
	if (!raw) return [];
	const paths = [
		...new Set(
			raw
				.split(',')
				.map((p) => p.trim())
				.filter(Boolean),
		),
	];
	return paths.map((p) => p.split('.')).sort((a, b) => a.length - b.length);
}

export function applyExpand(
	host: ExpandHost,
	scopes: string[] | null,
	record: ApiRecord,
	raw: string | undefined,
): ApiRecord {
	for (const path of expandPaths(raw)) {
		// Expanding `a.b` implies expanding `a` first, when `a` is a reference (it may be a plain object or array).
		for (let i = 1; i <= path.length; i++)
			walk(host, scopes, record, path.slice(0, i), path.join('.'), i === path.length);
	}
	return record;
}

function walk(
	host: ExpandHost,
	scopes: string[] | null,
	container: unknown,
	path: string[],
	full: string,
	strict: boolean,
) {
	if (Array.isArray(container)) {
		for (const item of container) walk(host, scopes, item, path, full, strict);
		return;
	}
	if (container === null || typeof container !== 'object') return;
	const object = container as Record<string, unknown>;
	const [head, ...rest] = path;
	if (!(head in object)) throw badPath(full);
	const value = object[head];
	if (rest.length) return walk(host, scopes, value, rest, full, strict);
	if (value === null) return;
	const hasId = (v: unknown) =>
		typeof v === 'object' && v !== null && typeof (v as { id?: unknown }).id === 'string';
	if (Array.isArray(value)) {
		if (!value.every(hasId)) {
			if (strict) throw badPath(full);
			return;
		}
		object[head] = value.map((v) => (isRef(v) ? resolve(host, scopes, v) : v));
		return;
	}
	if (!hasId(value)) {
		if (strict) throw badPath(full);
		return;
	}
	if (isRef(value)) object[head] = resolve(host, scopes, value);
}

function resolve(host: ExpandHost, scopes: string[] | null, ref: { id: string }): unknown {
	const collection = host.collectionFor(ref.id);
	if (!collection) return ref;
	const scope = `public.${collection.scope}:read`;
	if (scopes && !scopes.includes(scope)) throw forbidden(scope);
	const target = host.get(collection.name, ref.id);
	return target ? host.renderPlain(collection.name, target) : ref;
}

function badPath(path: string) {
	return invalidUrlParam([
		{ message: `The expand path '${path}' is not an expandable reference`, pointer: 'expand' },
	]);
}

/** Expands every top-level reference one level deep, without scope checks (webhook payloads embed related objects). */
export function expandTopLevel(host: ExpandHost, record: ApiRecord): ApiRecord {
	for (const [key, value] of Object.entries(record)) {
		if (key === 'id') continue;
		if (isRef(value)) record[key] = resolve(host, null, value);
		else if (Array.isArray(value) && value.length && value.every(isRef))
			record[key] = value.map((v) => resolve(host, null, v));
	}
	return record;
}
