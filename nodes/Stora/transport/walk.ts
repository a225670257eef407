import type { IDataObject, IHttpRequestOptions, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { MAX_PAGE_SIZE } from '../helpers/constants';
import { jsonBodyOf, nextPageOf, recordsOf } from '../helpers/response';
import { refusesOnly } from './listFilters';
import { asNodeError, storaRequest, type StoraContext } from './request';

/**
 * The most records one node run hands to n8n: the one bound of every path that pages (Return All, the time walk and
 * the Stora Poll Trigger). n8n's declarative engine passes a node's items on with one `push(...items)`, and a spread
 * that large runs out of stack (the deeper the stack at that moment, the fewer items it takes); test/e2e/edges.mjs
 * checks that 100,000 pass in real n8n. Return All fails before it walks when the list's `count` is above the bound
 * (and, when a list reports no count, as soon as it has seen more); a poll emits the oldest MAX_RECORDS new records
 * and the next poll goes on from there.
 */
export const MAX_RECORDS = 100_000;

/**
 * Requests one walk may make: twice what MAX_RECORDS needs, plus restarts. Only an API that keeps answering with
 * records already seen reaches it; the error says so instead of looping.
 */
const MAX_REQUESTS = (2 * MAX_RECORDS) / MAX_PAGE_SIZE + 20;

const thousands = (n: number) => n.toLocaleString('en-US');

/** Return All over a list larger than n8n can take from one node: what to do instead. */
export function tooManyRecords(
	node: INode,
	count: number | undefined,
	itemIndex?: number,
): NodeOperationError {
	const size = count === undefined ? `more than ${thousands(MAX_RECORDS)}` : thousands(count);
	return new NodeOperationError(
		node,
		`Return All would return ${size} records; one run can return at most ${thousands(MAX_RECORDS)}`,
		{
			description:
				`n8n cannot take more than about ${thousands(MAX_RECORDS)} items from one node, so nothing was returned` +
				(count === undefined
					? " (Stora did not report the list's count, so this showed only while paging)"
					: ' (nothing beyond the first page was fetched)') +
				'. Narrow the list with filters, for example Created After and Created Before a few months apart ' +
				'(one node run per range, e.g. from a loop), or choose Output Format CSV where offered: one file of every record, with no item bound.',
			itemIndex,
		},
	);
}

/** A walk that used up MAX_REQUESTS: the API kept answering pages already seen. */
function walkDidNotEnd(node: INode, itemIndex?: number): NodeOperationError {
	return new NodeOperationError(
		node,
		`Stora's list did not end after ${thousands(MAX_REQUESTS)} requests`,
		{
			description:
				'The pages kept repeating records already returned, so the node stopped instead of looping. Narrow the list with filters, and report this to Stora with the request IDs from the log.',
			itemIndex,
		},
	);
}

/** The record timestamps a walk can follow. */
export type TimeField = 'created_at' | 'updated_at';

export const timeOf = (value: unknown) => Date.parse(String(value));

/** Whether no two records are out of order by `field` (records without a time break no order). */
export function inTimeOrder(
	records: IDataObject[],
	field: TimeField,
	descending: boolean,
): boolean {
	const sign = descending ? -1 : 1;
	return records.every(
		(record, index) =>
			index === 0 || !(sign * (timeOf(records[index - 1][field]) - timeOf(record[field])) > 0),
	);
}

/**
 * How a page was asked for: `cursor`, by `field` ascending from the inclusive `<field>_after` cursor (each record at or
 * after it, in order); `sorted`, by `field` ascending and page number; `number`, by page number with the caller's
 * query (and `numberSort` while the list takes it), from the first page.
 */
type PagingMode = 'cursor' | 'sorted' | 'number';

interface ListWalk {
	/** The record time the cursor and the ascending sort follow. */
	field: TimeField;
	/** How the walk starts; it moves down cursor → sorted → number as the list shows what it does not honour. */
	start: PagingMode;
	/** The walk's own cursor start (inclusive, a time the API returned). Without it, the first page carries the
	 * caller's query as it is (a user's own Created After included) and the cursor starts at that page's last record. */
	after?: string;
	/** The sort sent while paging by number (dropped once refused); the caller's own sort is in its query already. */
	numberSort?: IDataObject;
	itemIndex?: number;
}

interface ListPage {
	records: IDataObject[];
	body: IDataObject;
	mode: PagingMode;
}

/**
 * The one walk over a Stora list, for Return All and the Stora Polling Trigger: page after page by `field` ascending
 * with the API's inclusive `<field>_after` as a moving cursor where the list honours it, so records created or changed
 * while it pages move to the end of the walk instead of shifting pages under it; by page number where it does not (a
 * 422 refusing only the walk's parameters, a page out of order or outside the cursor). Pages may repeat records (the
 * cursor is inclusive; paging by number starts again from the first page): the caller keeps each once. Ends when the
 * list does, or throws once it has made more requests than the list can need.
 */
export async function* listPages(
	context: StoraContext,
	request: IHttpRequestOptions,
	userQs: IDataObject,
	walk: ListWalk,
): AsyncGenerator<ListPage, void, undefined> {
	const prefix = walk.field.replace(/_at$/, '');
	const ours = ['sort_by', 'sort_direction', `${prefix}_after`];
	const ascending: IDataObject = { sort_by: walk.field, sort_direction: 'ASC' };
	let mode = walk.start;
	let numberSort = walk.numberSort;
	let cursor = walk.after;
	let page = 1;
	let maxRequests = MAX_REQUESTS;
	for (let requests = 1; ; requests++) {
		if (requests > maxRequests) throw walkDidNotEnd(context.getNode(), walk.itemIndex);
		const qs: IDataObject = { ...userQs, limit: MAX_PAGE_SIZE, page };
		if (mode !== 'number') Object.assign(qs, ascending);
		else if (numberSort) Object.assign(qs, numberSort);
		if (mode === 'cursor' && cursor !== undefined) qs[`${prefix}_after`] = cursor;
		let body: IDataObject;
		try {
			body = jsonBodyOf(context.getNode(), await storaRequest(context, { ...request, qs }));
		} catch (error) {
			const refused = mode !== 'number' ? ours : Object.keys(numberSort ?? {});
			if (refused.length && refusesOnly(error, refused, userQs)) {
				if (mode === 'number') numberSort = undefined;
				mode = 'number';
				page = 1;
				continue;
			}
			throw asNodeError(context, error);
		}
		const records = recordsOf(body);
		if (mode !== 'number' && !inTimeOrder(records, walk.field, false)) {
			// The ascending sort is ignored.
			mode = 'number';
			page = 1;
			continue;
		}
		if (
			mode === 'cursor' &&
			cursor !== undefined &&
			records.some((record) => timeOf(record[walk.field]) < timeOf(cursor))
		) {
			// The sort holds but the cursor is ignored. A walk whose first page went without a cursor goes on in the same
			// order by number from its second page; one that started at a cursor starts over by number.
			mode = walk.after === undefined ? 'sorted' : 'number';
			page = walk.after === undefined ? 2 : 1;
			continue;
		}
		if (mode === 'number' && page === 1) {
			// Paging by number needs as many requests as the list has pages, which may be more than a cursor walk needs.
			const pages = Number(
				((body.meta as IDataObject | undefined)?.pagination as IDataObject | undefined)?.pages,
			);
			if (Number.isFinite(pages)) maxRequests = Math.max(MAX_REQUESTS, requests + pages + 20);
		}
		yield { records, body, mode };
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
export function keepNewest(
	records: Map<string, IDataObject>,
	found: IDataObject[],
	field: TimeField,
): void {
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
