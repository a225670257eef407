import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';

import { MAX_PAGE_SIZE } from '../helpers/constants';
import { MAX_REQUESTS, walkDidNotEnd } from './bound';
import { jsonBodyOf, nextPageOf, recordsOf } from '../helpers/response';
import { isInOrder, refusesOnly } from './listChecks';
import { asNodeError, storaRequest, type StoraContext } from './request';

/** The record timestamps a walk can follow. */
export type TimeField = 'created_at' | 'updated_at';

export const timeOf = (value: unknown) => Date.parse(String(value));

/**
 * How a page was asked for: `cursor`, by `field` ascending from the inclusive `<field>_after` cursor (each record at or
 * after it, in order); `sorted`, by `field` ascending and page number; `number`, by page number with the caller's
 * query (and `numberSort` while the list takes it). `ended`: the list does not honour the cursor and the walk was told
 * to end there (`otherwise: 'end'`); it carries no records.
 */
type PagingMode = 'cursor' | 'sorted' | 'number' | 'ended';

export interface ListWalk {
	/** The record time the cursor and the ascending sort follow. */
	field: TimeField;
	/** How the walk starts; it moves down cursor → sorted → number as the list shows what it does not honour. */
	start: 'cursor' | 'sorted' | 'number';
	/** The walk's own cursor start (inclusive, a time the API returned). Without it, the first page carries the
	 * caller's query as it is (a user's own Created After included) and the cursor starts at that page's last record. */
	after?: string;
	/** Exclusive upper bound of `field` (a parallel window's end). */
	before?: string;
	/** The sort sent while paging by number (dropped once refused); the caller's own sort is in its query already. */
	numberSort?: IDataObject;
	/** `end`: a list that does not honour the cursor ends the walk with an `ended` page, for a caller that pages another way. */
	otherwise?: 'number' | 'end';
	itemIndex?: number;
}

export interface ListPage {
	records: IDataObject[];
	body: IDataObject;
	mode: PagingMode;
	/** Requests the walk has made, this page's included. */
	requests: number;
}

/**
 * The one walk over a Stora list, for Return All, its parallel windows and the Stora Polling Trigger: page after page
 * by `field` ascending with the API's inclusive `<field>_after` as a moving cursor where the list honours it, so records
 * created or changed while it pages move to the end of the walk instead of shifting pages under it; by page number
 * where it does not (a 422 refusing only the walk's parameters, a page out of order or outside the cursor). Pages may
 * repeat records (the cursor is inclusive; a fallback starts again): the caller keeps each once. Ends when the list
 * does, or throws once it has made more requests than the list can need (`walkDidNotEnd`).
 */
export async function* listPages(
	context: StoraContext,
	request: IHttpRequestOptions,
	userQs: IDataObject,
	walk: ListWalk,
): AsyncGenerator<ListPage, void, undefined> {
	const prefix = walk.field.replace(/_at$/, '');
	const ours = ['sort_by', 'sort_direction', `${prefix}_after`, `${prefix}_before`];
	const ascending: IDataObject = { sort_by: walk.field, sort_direction: 'ASC' };
	let mode: Exclude<PagingMode, 'ended'> = walk.start;
	let numberSort = walk.numberSort;
	let cursor = walk.after;
	let page = 1;
	let bound = MAX_REQUESTS;
	/** Leaves the cursor (or the sort) for paging by number from `from`; false when the walk is to end instead. */
	const byNumber = (next: 'sorted' | 'number', from: number) => {
		if (walk.otherwise === 'end') return false;
		mode = next;
		page = from;
		return true;
	};
	for (let requests = 1; ; requests++) {
		if (requests > bound) throw walkDidNotEnd(context.getNode(), walk.itemIndex);
		const qs: IDataObject = { ...userQs, limit: MAX_PAGE_SIZE, page };
		if (mode !== 'number') Object.assign(qs, ascending);
		else if (numberSort) Object.assign(qs, numberSort);
		if (mode === 'cursor' && cursor !== undefined) qs[`${prefix}_after`] = cursor;
		if (mode === 'cursor' && walk.before !== undefined) qs[`${prefix}_before`] = walk.before;
		let body: IDataObject;
		try {
			body = jsonBodyOf(context.getNode(), await storaRequest(context, { ...request, qs }));
		} catch (error) {
			const refused = mode !== 'number' ? ours : Object.keys(numberSort ?? {});
			if (refused.length && refusesOnly(error, refused, userQs)) {
				if (mode === 'number') numberSort = undefined;
				else if (!byNumber('number', 1)) {
					yield { records: [], body: {}, mode: 'ended', requests };
					return;
				}
				page = 1;
				continue;
			}
			throw asNodeError(context, error);
		}
		const records = recordsOf(body);
		if (mode !== 'number' && !isInOrder(records, walk.field, false)) {
			// The ascending sort is ignored.
			if (!byNumber('number', 1)) {
				yield { records: [], body, mode: 'ended', requests };
				return;
			}
			continue;
		}
		const outside = (record: IDataObject) =>
			(cursor !== undefined && timeOf(record[walk.field]) < timeOf(cursor)) ||
			(walk.before !== undefined && timeOf(record[walk.field]) >= timeOf(walk.before));
		if (mode === 'cursor' && records.some(outside)) {
			// The sort holds but the cursor or the bound is ignored. A walk whose first page went without a cursor goes on
			// in the same order by number from its second page; one that started at a cursor starts over by number.
			const fromSecond = walk.after === undefined && walk.before === undefined;
			if (!(fromSecond ? byNumber('sorted', 2) : byNumber('number', 1))) {
				yield { records: [], body, mode: 'ended', requests };
				return;
			}
			continue;
		}
		if (mode === 'number' && page === 1) {
			// Paging by number needs as many requests as the list has pages, which may be more than a cursor walk's bound.
			const pages = Number(((body.meta as IDataObject | undefined)?.pagination as IDataObject | undefined)?.pages);
			if (Number.isFinite(pages)) bound = Math.max(MAX_REQUESTS, requests + pages + 20);
		}
		yield { records, body, mode, requests };
		const next = nextPageOf(body);
		if (next === undefined || records.length === 0) return;
		if (mode === 'cursor') {
			const last = String(records[records.length - 1][walk.field]);
			// A full page sharing one timestamp cannot move the cursor: the next page at the same cursor.
			if (cursor === undefined || timeOf(last) > timeOf(cursor)) {
				cursor = last;
				page = 1;
			} else page++;
		} else page = next;
	}
}

/** Keeps each record once, in its newest version by `field` (a record changed while a walk ran comes again, newer). */
export function keepNewest(records: Map<string, IDataObject>, found: IDataObject[], field: TimeField): void {
	for (const record of found) {
		const id = String(record.id);
		const earlier = records.get(id);
		if (!earlier || timeOf(earlier[field]) <= timeOf(record[field])) records.set(id, record);
	}
}

/** The records, oldest first by `field` (each time parsed once, not on every comparison). */
export function oldestFirst(records: Map<string, IDataObject>, field: TimeField): IDataObject[] {
	const timed = [...records.values()].map((record) => ({ record, time: timeOf(record[field]) }));
	timed.sort((a, b) => a.time - b.time);
	return timed.map(({ record }) => record);
}
