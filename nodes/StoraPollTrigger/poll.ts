import type {
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	INodeProperties,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { LISTS_WITHOUT_TIME_FILTERS, MAX_PAGE_SIZE } from '../Stora/helpers/constants';
import { jsonBodyOf, nextPageOf, recordsOf } from '../Stora/helpers/response';
import { idsOf } from '../Stora/helpers/validation';
import { filterNotApplied, isInOrder, refusesOnly, unappliedFilter } from '../Stora/transport/filters';
import { asNodeError, storaRequest } from '../Stora/transport/request';

/** A poll never walks further than this many pages (100 000 records): it fails and keeps its cursor instead. */
const MAX_PAGES = 1000;

/** The record timestamp a poll follows: `created_at` for New Record, `updated_at` for New or Updated Record. */
export type PollField = 'created_at' | 'updated_at';

export const timeOf = (value: unknown) => Date.parse(String(value));

/** The Get Many filters the poll trigger offers: all but the created/updated windows, which the cursor owns. */
export function pollFilters(filters: INodeProperties[]): INodeProperties[] {
	return filters.filter((filter) => !/^(created|updated)(After|Before)$/.test(filter.name));
}

/**
 * The query the Stora node's Get Many would send for these filter values: the same parameter names and value
 * formats (read from each filter's `routing.send`), after the same checks (each filter's own `preSend`, run before
 * any request). The builders in `descriptions/common.ts` give four shapes: multi-selects sent comma-separated, ID
 * lists typed as text, date-times sent as ISO 8601, and `metadata[key]` rows.
 */
export async function filterQuery(
	context: IPollFunctions,
	filters: INodeProperties[],
	values: IDataObject,
): Promise<IDataObject> {
	// The checks read `filters.<name>` from the node's parameters, as they do in the action node.
	const checking = {
		getNode: () => context.getNode(),
		getItemIndex: () => 0,
		getNodeParameter: (name: string, fallback?: unknown, options?: IDataObject) =>
			context.getNodeParameter(name, fallback, options),
	} as unknown as IExecuteSingleFunctions;
	const qs: IDataObject = {};
	for (const [name, value] of Object.entries(values)) {
		const filter = filters.find((candidate) => candidate.name === name);
		if (!filter) continue;
		if (filter.type === 'fixedCollection') {
			for (const entry of ((value as IDataObject)?.entry ?? []) as IDataObject[]) {
				if (String(entry.key ?? '').trim() !== '') qs[`metadata[${String(entry.key).trim()}]`] = entry.value ?? '';
			}
			continue;
		}
		const send = filter.routing?.send;
		if (!send?.property) continue;
		for (const check of send.preSend ?? []) await check.call(checking, {} as IHttpRequestOptions);
		let sent: string | undefined;
		if (filter.type === 'multiOptions') sent = idsOf(value).join(',');
		else if (filter.type === 'dateTime') sent = value ? new Date(String(value)).toISOString() : undefined;
		else if (send.property.endsWith('_id')) sent = idsOf(value).join(',');
		else sent = String(value ?? '');
		if (sent) qs[send.property] = sent;
	}
	return qs;
}

export interface Since {
	/** The list's URL (relative to the versioned base URL). */
	url: string;
	baseURL: string;
	field: PollField;
	/** The newest timestamp emitted so far (inclusive: records at exactly this time are checked against `seen`). */
	cursor: string;
	/** IDs already emitted at exactly `cursor`. */
	seen: Set<string>;
	/** The user's filters, as query parameters. */
	filterQs: IDataObject;
}

/**
 * Every record of the list whose `field` is newer than the cursor (or equal to it and not seen), each once, oldest
 * first; throws when the walk cannot finish, so the caller keeps its cursor.
 *
 * Where the list honours them it walks by the field ascending with the API's inclusive `<field>_after` as a moving
 * cursor, so records created or updated while it pages move to the end of the walk instead of shifting pages under
 * it. Many list pages of the docs are cut off: a list that refuses (422), ignores the sort or ignores the cursor
 * makes the walk page by number through the user's filtered list instead, checking every record against the cursor
 * by its own timestamp. That costs pages, never a wrong or missing record.
 */
export async function recordsSince(context: IPollFunctions, since: Since): Promise<IDataObject[]> {
	const { field, filterQs } = since;
	const after = field === 'created_at' ? 'created_after' : 'updated_after';
	const ours = ['sort_by', 'sort_direction', after];
	const cursorTime = timeOf(since.cursor);
	const fresh = new Map<string, IDataObject>();
	let walk = !LISTS_WITHOUT_TIME_FILTERS.includes(since.url);
	let walkCursor = since.cursor;
	let page = 1;

	for (let requests = 0; requests < MAX_PAGES; requests++) {
		const qs: IDataObject = { ...filterQs, limit: MAX_PAGE_SIZE, page };
		if (walk) Object.assign(qs, { sort_by: field, sort_direction: 'ASC', [after]: walkCursor });
		let body: IDataObject;
		try {
			const response = await storaRequest(context, { method: 'GET', baseURL: since.baseURL, url: since.url, qs });
			body = jsonBodyOf(context.getNode(), response);
		} catch (error) {
			if (walk && refusesOnly(error, ours, filterQs)) {
				walk = false;
				page = 1;
				continue;
			}
			throw asNodeError(context, error);
		}
		const batch = recordsOf(body);
		const next = nextPageOf(body);
		const unapplied = unappliedFilter(filterQs, batch);
		if (unapplied) throw filterNotApplied(context.getNode(), unapplied);
		if (walk && (!isInOrder(batch, field, false) || batch.some((record) => timeOf(record[field]) < timeOf(walkCursor)))) {
			// The sort or the cursor was ignored: page by number from the start, checking each record ourselves.
			walk = false;
			page = 1;
			continue;
		}
		for (const record of batch) {
			const time = timeOf(record[field]);
			const id = String(record.id);
			if (!(time >= cursorTime) || (time === cursorTime && since.seen.has(id))) continue;
			// A record changed while the walk ran comes again, newer: the newest version wins.
			const earlier = fresh.get(id);
			if (!earlier || timeOf(earlier[field]) <= time) fresh.set(id, record);
		}
		if (next === undefined || batch.length === 0) {
			return [...fresh.values()].sort((a, b) => timeOf(a[field]) - timeOf(b[field]));
		}
		const last = String(batch[batch.length - 1][field]);
		if (walk && timeOf(last) > timeOf(walkCursor)) {
			walkCursor = last;
			page = 1;
		} else {
			// Paging by number, or a full page sharing one timestamp: the next page.
			page = walk ? page + 1 : next;
		}
	}
	throw new NodeOperationError(context.getNode(), `More than ${MAX_PAGES} pages of new records in one poll`, {
		description: 'Poll more often, or narrow the list with filters. The next poll starts from the same point.',
	});
}

/**
 * The newest record(s) of the filtered list, for a manual test run: the user sees the records' shape whatever the
 * cursor says. Picked by the field, in case the list ignored or refused the sort.
 */
export async function newestRecord(context: IPollFunctions, since: Omit<Since, 'cursor' | 'seen'>) {
	const { field, filterQs } = since;
	const request = async (qs: IDataObject) => {
		const response = await storaRequest(context, { method: 'GET', baseURL: since.baseURL, url: since.url, qs });
		return recordsOf(jsonBodyOf(context.getNode(), response));
	};
	const sorted = { ...filterQs, limit: MAX_PAGE_SIZE, page: 1, sort_by: field, sort_direction: 'DESC' };
	let records: IDataObject[];
	try {
		records = await request(sorted);
	} catch (error) {
		if (!refusesOnly(error, ['sort_by', 'sort_direction'], filterQs)) throw asNodeError(context, error);
		records = await request({ ...filterQs, limit: MAX_PAGE_SIZE, page: 1 });
	}
	const unapplied = unappliedFilter(filterQs, records);
	if (unapplied) throw filterNotApplied(context.getNode(), unapplied);
	return [...records].sort((a, b) => timeOf(b[field]) - timeOf(a[field]))[0];
}
