/**
 * Noise: what a production account does around `npm run probe` that the sandbox's own lists never do, so
 * the probe can be tested against it. `POST /__sandbox/config {"noise": {...}}`; `{}` turns it all off. Each part
 * is driven by the count of API calls, never by a timer, so a run under it is the same every time.
 *
 *   writer            another client writing: before every `every`-th list call (on `paths`, or any list), one write
 *                     on the collection listed, in turn from `actions` (default create, update, delete): a copy of
 *                     its newest record created, its newest record updated (updated_at moved, one value changed),
 *                     or one of its newest records deleted. `equal_timestamps`: the copy's created_at and updated_at,
 *                     and an update's updated_at, equal the newest ones already there (records sharing a timestamp).
 *   bounds            per list path, `{before?: inclusive|exclusive, after?: inclusive|exclusive}` (the sandbox's
 *                     own: after inclusive, before exclusive): the bound of every `<x>_before` / `<x>_after`.
 *   default_order     per list path, `{sort_by, sort_direction}` used when the query names neither: a list whose
 *                     default order is not newest created first (deal stages by position, say).
 *   contention        another client taking the budget: every `every`-th API call is answered 429
 *                     `too_many_requests`, and so are the `times - 1` calls after it (the slot freed at the reset
 *                     is taken again). Only the documented headers: RateLimit-Limit and RateLimit-Reset (the next
 *                     whole second, epoch seconds); no Retry-After.
 *   pages             a count that changes between pages: before every list call that asks for page 2 or later (as
 *                     sent, whatever the list then does with `page`), on `paths` or any list, `grow` creates a copy of
 *                     the list's newest record created after every other, `shrink` deletes its newest record. With
 *                     `undo` (grow only: a deleted record does not come back) the copy is deleted again before the
 *                     next list call, so the reads around the page agree and only the page saw the other count.
 */
import { errorBody } from './envelope';
import { ApiError } from './errors';
import { json, type Outgoing } from './http';
import type { ApiRecord, ListSpec } from './types';

export type WriteAction = 'create' | 'update' | 'delete';
export const WRITE_ACTIONS: WriteAction[] = ['create', 'update', 'delete'];
type Bound = 'inclusive' | 'exclusive';

export interface NoiseMode {
	writer?: { every: number; actions?: WriteAction[]; paths?: string[]; equal_timestamps?: boolean };
	bounds?: Record<string, { before?: Bound; after?: Bound }>;
	default_order?: Record<string, { sort_by: string; sort_direction: 'ASC' | 'DESC' }>;
	contention?: { every: number; times: number };
	pages?: { change: 'grow' | 'shrink'; undo?: boolean; paths?: string[] };
}

/** What the writer needs of the sandbox. */
export interface NoiseHost {
	now(): Date;
	newId(prefix: string): string;
	insert(collection: string, record: ApiRecord): ApiRecord;
	remove(collection: string, id: string): void;
	collectionOptions(name: string): { name: string; prefix: string } | undefined;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
	!!value && typeof value === 'object' && !Array.isArray(value);
const whole = (value: unknown, min: number) =>
	typeof value === 'number' && Number.isInteger(value) && value >= min;

/** Checks a `noise` value from the control plane; returns the problem, or undefined. */
export function noiseProblem(value: unknown): string | undefined {
	if (!isObject(value)) return 'noise must be an object';
	const known = ['writer', 'bounds', 'default_order', 'contention', 'pages'];
	const unknown = Object.keys(value).find((key) => !known.includes(key));
	if (unknown) return `noise.${unknown} is not known (known: ${known.join(', ')})`;
	const { writer, bounds, default_order: order, contention, pages } = value;
	if (writer !== undefined) {
		if (!isObject(writer) || !whole(writer.every, 1))
			return 'noise.writer.every must be a whole number of list calls, 1 or more';
		if (
			writer.actions !== undefined &&
			(!Array.isArray(writer.actions) ||
				!writer.actions.length ||
				writer.actions.some((action) => !WRITE_ACTIONS.includes(action as WriteAction)))
		) {
			return `noise.writer.actions must be a non-empty list of: ${WRITE_ACTIONS.join(', ')}`;
		}
		if (
			writer.paths !== undefined &&
			(!Array.isArray(writer.paths) ||
				writer.paths.some((path) => typeof path !== 'string' || !path.startsWith('/')))
		)
			return 'noise.writer.paths must be a list of paths';
		if (writer.equal_timestamps !== undefined && typeof writer.equal_timestamps !== 'boolean')
			return 'noise.writer.equal_timestamps must be true or false';
	}
	if (bounds !== undefined) {
		if (!isObject(bounds)) return 'noise.bounds must be an object of paths';
		for (const [path, entry] of Object.entries(bounds)) {
			const ok =
				path.startsWith('/') &&
				isObject(entry) &&
				Object.entries(entry).every(
					([side, bound]) =>
						['before', 'after'].includes(side) &&
						['inclusive', 'exclusive'].includes(bound as string),
				);
			if (!ok) return `noise.bounds['${path}'] must be {before?, after?: inclusive|exclusive}`;
		}
	}
	if (order !== undefined) {
		if (!isObject(order)) return 'noise.default_order must be an object of paths';
		for (const [path, entry] of Object.entries(order)) {
			const ok =
				path.startsWith('/') &&
				isObject(entry) &&
				typeof entry.sort_by === 'string' &&
				['ASC', 'DESC'].includes(entry.sort_direction as string);
			if (!ok) return `noise.default_order['${path}'] must be {sort_by, sort_direction: ASC|DESC}`;
		}
	}
	if (
		contention !== undefined &&
		(!isObject(contention) ||
			!whole(contention.every, 2) ||
			!whole(contention.times, 1) ||
			(contention.times as number) >= (contention.every as number))
	) {
		return 'noise.contention must be {every, times}: whole numbers, every 2 or more, times from 1 to every - 1';
	}
	if (pages !== undefined) {
		if (!isObject(pages) || !['grow', 'shrink'].includes(pages.change as string))
			return 'noise.pages.change must be grow or shrink';
		if (pages.undo !== undefined && typeof pages.undo !== 'boolean')
			return 'noise.pages.undo must be true or false';
		if (pages.undo && pages.change === 'shrink')
			return 'noise.pages.undo goes with grow only: a deleted record does not come back';
		if (
			pages.paths !== undefined &&
			(!Array.isArray(pages.paths) ||
				pages.paths.some((path) => typeof path !== 'string' || !path.startsWith('/')))
		)
			return 'noise.pages.paths must be a list of paths';
	}
	return undefined;
}

const latest = (records: ApiRecord[], field: string) =>
	records
		.map((record) => record[field])
		.filter((value): value is string => typeof value === 'string')
		.sort()
		.at(-1);

export class Noise {
	mode: NoiseMode = {};
	private apiCalls = 0;
	private listCalls = 0;
	private writes = 0;
	/** 429s still to answer in the current run of contention. */
	private contended = 0;
	/** Whether the API call being handled asked for page 2 or later, as sent (before any reading drops `page`). */
	private laterPage = false;
	/** The copy `pages` made, to delete before the next list call (`undo`). */
	private toUndo?: { path: string; collection: string; id: string };
	/** Every write done, for tests: `{action, collection, id}`. */
	readonly log: Array<{ action: WriteAction; collection: string; id: string }> = [];

	set(mode: NoiseMode) {
		this.mode = structuredClone(mode);
		this.apiCalls = this.listCalls = this.writes = this.contended = 0;
		this.laterPage = false;
		this.toUndo = undefined;
		this.log.length = 0;
	}

	get active() {
		return Object.keys(this.mode).length > 0;
	}

	/**
	 * Before an API call is handled (`query` as sent): a 429 when another client holds the slot, else undefined.
	 */
	contend(
		nowMs: number,
		requestId: string,
		query: Record<string, string> = {},
	): Outgoing | undefined {
		this.laterPage = Number(query.page) >= 2;
		const contention = this.mode.contention;
		if (!contention) return undefined;
		this.apiCalls += 1;
		if (this.contended === 0 && this.apiCalls % contention.every === 0)
			this.contended = contention.times;
		if (this.contended === 0) return undefined;
		this.contended -= 1;
		const error = new ApiError(429, 'too_many_requests', 'Rate limit exceeded, retry later');
		return json(429, errorBody(error, requestId), {
			'X-Request-Id': requestId,
			'RateLimit-Limit': '10',
			'RateLimit-Reset': String(Math.floor(nowMs / 1000) + 1),
		});
	}

	/**
	 * A list call on `path` over `collection`: the writer's write (if due), then the query and spec the list runs
	 * with (the bounds and the default order of the path). Returns the records as they are after the write.
	 */
	list(
		host: NoiseHost,
		path: string,
		collection: string,
		records: ApiRecord[],
		query: Record<string, string>,
		spec: ListSpec,
	) {
		let current = records;
		if (this.toUndo) {
			const { path: madeOn, collection: name, id } = this.toUndo;
			this.toUndo = undefined;
			host.remove(name, id);
			this.log.push({ action: 'delete', collection: name, id });
			if (madeOn === path) current = current.filter((record) => record.id !== id);
		}
		const pages = this.mode.pages;
		if (pages && this.laterPage && (!pages.paths || pages.paths.includes(path)))
			current = this.changeCount(host, path, collection, current, pages);
		const writer = this.mode.writer;
		if (writer && (!writer.paths || writer.paths.includes(path))) {
			this.listCalls += 1;
			if (this.listCalls % writer.every === 0)
				current = this.write(host, collection, current, writer);
		}
		let nextQuery = query;
		const bounds = this.mode.bounds?.[path];
		if (bounds) {
			nextQuery = { ...query };
			for (const [name, raw] of Object.entries(query)) {
				const side = /^\w+_(after|before)$/.exec(name)?.[1] as 'after' | 'before' | undefined;
				const at = Date.parse(raw);
				if (!side || Number.isNaN(at)) continue;
				// Stored times are whole milliseconds: `<= t` is `< t + 1 ms`, `> t` is `>= t + 1 ms`.
				if (
					(side === 'before' && bounds.before === 'inclusive') ||
					(side === 'after' && bounds.after === 'exclusive')
				)
					nextQuery[name] = new Date(at + 1).toISOString();
			}
		}
		let nextSpec = spec;
		const order = this.mode.default_order?.[path];
		if (order) {
			if (nextQuery.sort_by === undefined)
				nextSpec = {
					...spec,
					sortBy: [order.sort_by, ...spec.sortBy.filter((field) => field !== order.sort_by)],
				};
			if (nextQuery.sort_direction === undefined)
				nextQuery = { ...nextQuery, sort_direction: order.sort_direction };
		}
		return { records: current, query: nextQuery, spec: nextSpec };
	}

	/** `pages`: the list's count changes just before a later page is read. */
	private changeCount(
		host: NoiseHost,
		path: string,
		collection: string,
		records: ApiRecord[],
		pages: NonNullable<NoiseMode['pages']>,
	): ApiRecord[] {
		const options = host.collectionOptions(collection);
		const newest = [...records].sort((a, b) =>
			String(b.created_at ?? '').localeCompare(String(a.created_at ?? '')),
		);
		if (!options || !newest.length) return records;
		if (pages.change === 'shrink') {
			if (records.length <= 2) return records;
			host.remove(options.name, newest[0].id);
			this.log.push({ action: 'delete', collection: options.name, id: newest[0].id });
			return records.filter((record) => record !== newest[0]);
		}
		// Created after every record there (the seed's records may lie ahead of the sandbox's clock).
		const latestMs = Date.parse(latest(records, 'created_at') ?? '');
		const at = new Date(
			Math.max(host.now().getTime(), Number.isNaN(latestMs) ? 0 : latestMs + 1_000),
		).toISOString();
		const stored = host.insert(options.name, {
			...structuredClone(newest[0]),
			id: host.newId(options.prefix),
			created_at: at,
			updated_at: at,
		});
		this.log.push({ action: 'create', collection: options.name, id: stored.id });
		if (pages.undo) this.toUndo = { path, collection: options.name, id: stored.id };
		return [...records, stored];
	}

	private write(
		host: NoiseHost,
		collection: string,
		records: ApiRecord[],
		writer: NonNullable<NoiseMode['writer']>,
	): ApiRecord[] {
		const actions = writer.actions ?? WRITE_ACTIONS;
		const action = actions[this.writes % actions.length];
		this.writes += 1;
		const options = host.collectionOptions(collection);
		const newest = [...records].sort((a, b) =>
			String(b.created_at ?? '').localeCompare(String(a.created_at ?? '')),
		);
		if (!options || !newest.length) return records;
		const now = host.now().toISOString();
		if (action === 'create') {
			const created = writer.equal_timestamps ? (latest(records, 'created_at') ?? now) : now;
			const updated = writer.equal_timestamps ? (latest(records, 'updated_at') ?? now) : now;
			const copy = {
				...structuredClone(newest[0]),
				id: host.newId(options.prefix),
				created_at: created,
				updated_at: updated,
			};
			const stored = host.insert(options.name, copy);
			this.log.push({ action, collection: options.name, id: stored.id });
			return [...records, stored];
		}
		if (action === 'update') {
			const record = newest[this.writes % Math.min(3, newest.length)];
			record.updated_at = writer.equal_timestamps ? (latest(records, 'updated_at') ?? now) : now;
			// One value another record holds differently, as an edit in the BackOffice would change it.
			for (const field of ['status', 'name', 'full_name', 'title', 'position']) {
				const other = newest.find(
					(candidate) => candidate[field] !== undefined && candidate[field] !== record[field],
				);
				if (other && record[field] !== undefined) {
					record[field] = structuredClone(other[field]);
					break;
				}
			}
			this.log.push({ action, collection: options.name, id: record.id });
			return records;
		}
		// Never empties a list: a delete needs three records left.
		if (records.length <= 3) return records;
		const gone = newest[this.writes % Math.min(5, newest.length)];
		host.remove(options.name, gone.id);
		this.log.push({ action, collection: options.name, id: gone.id });
		return records.filter((record) => record !== gone);
	}
}
