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
 * The records of a list whose `field` is at or after `after` (and before `before`, when given), oldest first, each
 * once in its newest version. Walks by `field` ascending with the API's inclusive `<field>_after` as a moving cursor,
 * so records created or changed while it pages move to the end of the walk instead of shifting pages under it.
 * Undefined when the list does not honour the sort, the cursor or the bound (a 422 refusing only them, or records
 * outside them): the caller then pages another way. Used by Return All's parallel windows and the Stora Poll Trigger.
 * With a `limit`, the walk ends once it holds that many and returns the oldest `limit` (the rest come in a next walk
 * from the last one returned).
 */
export async function walkByTime(
	context: StoraContext,
	request: IHttpRequestOptions,
	userQs: IDataObject,
	field: TimeField,
	after: string,
	before?: string,
	limit?: number,
): Promise<IDataObject[] | undefined> {
	const prefix = field.replace(/_at$/, '');
	const ours = ['sort_by', 'sort_direction', `${prefix}_after`, `${prefix}_before`];
	const records = new Map<string, IDataObject>();
	let cursor = after;
	let page = 1;
	const oldestFirst = () => [...records.values()].sort((a, b) => timeOf(a[field]) - timeOf(b[field]));
	for (let requests = 0; requests < MAX_REQUESTS; requests++) {
		const qs: IDataObject = { ...userQs, limit: MAX_PAGE_SIZE, page, sort_by: field, sort_direction: 'ASC', [`${prefix}_after`]: cursor };
		if (before !== undefined) qs[`${prefix}_before`] = before;
		let body: IDataObject;
		try {
			body = jsonBodyOf(context.getNode(), await storaRequest(context, { ...request, qs }));
		} catch (error) {
			if (refusesOnly(error, ours, userQs)) return undefined;
			throw asNodeError(context, error);
		}
		const batch = recordsOf(body);
		const outside = (record: IDataObject) =>
			timeOf(record[field]) < timeOf(cursor) || (before !== undefined && timeOf(record[field]) >= timeOf(before));
		if (!isInOrder(batch, field, false) || batch.some(outside)) return undefined;
		for (const record of batch) {
			const id = String(record.id);
			const earlier = records.get(id);
			// A record changed while the walk ran comes again, newer: the newest version wins.
			if (!earlier || timeOf(earlier[field]) <= timeOf(record[field])) records.set(id, record);
		}
		if (nextPageOf(body) === undefined || batch.length === 0) return oldestFirst();
		const last = String(batch[batch.length - 1][field]);
		if (timeOf(last) > timeOf(cursor)) {
			// Everything before `last` has been seen: with enough of it, the oldest `limit` are final.
			if (limit !== undefined && records.size >= limit && [...records.values()].filter((record) => timeOf(record[field]) < timeOf(last)).length >= limit) {
				return oldestFirst().slice(0, limit);
			}
			cursor = last;
			page = 1;
		} else {
			// A full page sharing one timestamp: the next page.
			page++;
		}
	}
	throw walkDidNotEnd(context.getNode());
}
