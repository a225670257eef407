import type {
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	INode,
	INodeProperties,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { filtersCollection } from '../Stora/descriptions/common/filters';
import { MAX_PAGE_SIZE } from '../Stora/helpers/constants';
import { resourceFacts } from '../Stora/helpers/resources';
import { headerOf, jsonBodyOf, recordsOf } from '../Stora/helpers/response';
import { checkFiltersApplied, refusesOnly } from '../Stora/transport/listFilters';
import { asNodeError, storaRequest } from '../Stora/transport/request';
import {
	inTimeOrder,
	keepNewest,
	listPages,
	MAX_RECORDS,
	oldestFirst,
	timeOf,
	type TimeField,
} from '../Stora/transport/walk';

/** A poll by a timestamp the records do not carry could never tell what is new: fails before any request, saying what works instead. */
export function checkTimed(node: INode, resource: string, name: string, field: TimeField): void {
	const lacks = resourceFacts(resource)?.withoutTimes ?? [];
	if (!lacks.includes(field)) return;
	const byCreation = field === 'updated_at' && !lacks.includes('created_at');
	throw new NodeOperationError(
		node,
		`${name} records carry no ${field}, so a poll cannot tell which are ${field === 'updated_at' ? 'new or changed' : 'new'}`,
		{
			description: byCreation
				? 'Choose Event → New Record: it polls by created_at, which these records carry.'
				: `Poll with a Schedule Trigger and Stora → ${name} → Get Many (Return All), then Remove Duplicates → Remove Items Processed in Previous Executions on the ID.`,
		},
	);
}

/** The Get Many filters the poll trigger offers: all but the Created and Updated date ranges, which the cursor owns. */
export function pollFilters(filters: INodeProperties[]): INodeProperties[] {
	return filters.filter((filter) => !/^(created|updated)(After|Before)$/.test(filter.name));
}

/**
 * The value a filter field sends, as its routing expression in the description computes it for the Get Many
 * (`send.value`): a multi-select or a list of IDs joined by commas, nothing when it is empty.
 */
function sentValue(filter: INodeProperties, value: unknown): unknown {
	if (filter.routing?.send?.value === undefined) return value;
	const list = (Array.isArray(value) ? value : String(value ?? '').split(','))
		.map((entry) => String(entry).trim())
		.filter((entry) => entry !== '');
	return list.length ? list.join(',') : undefined;
}

/**
 * The query the Stora node's Get Many sends for the filters the poll's parameters set, read from the same
 * descriptions (each filter's `routing.send`: its query parameter, its value, its checks before any request).
 */
export async function filterQuery(
	context: IPollFunctions,
	filters: INodeProperties[],
): Promise<IDataObject> {
	// The poll as the one item of a run: the filters' checks read `filters.<name>`, as in the node.
	const item = Object.create(context, {
		getItemIndex: { value: () => 0 },
	}) as IExecuteSingleFunctions;
	const set = context.getNodeParameter('filters', {}) as IDataObject;
	const qs: IDataObject = {};
	const preSends = [];
	for (const filter of filtersCollection(filters).options as INodeProperties[]) {
		if (!(filter.name in set)) continue;
		const send = filter.routing?.send;
		if (filter.type === 'fixedCollection') {
			// The metadata rows: `metadata[<key>]=<value>`, as the row's Value field sends it.
			const rows =
				((context.getNodeParameter(`filters.${filter.name}`, {}) as IDataObject).entry as
					| IDataObject[]
					| undefined) ?? [];
			for (const row of rows) qs[`metadata[${String(row.key)}]`] = row.value as string;
		} else if (send?.property !== undefined) {
			const value = sentValue(
				filter,
				context.getNodeParameter(`filters.${filter.name}`, undefined),
			);
			if (value !== undefined) qs[send.property] = value as string;
		}
		preSends.push(...(send?.preSend ?? []));
	}
	let options: IHttpRequestOptions = { url: '', qs };
	for (const preSend of preSends) options = await preSend.call(item, options);
	return (options.qs ?? {}) as IDataObject;
}

interface Since {
	/** The list's URL (relative to the versioned base URL, which `storaRequest` takes from the credential). */
	url: string;
	/** The record timestamp the poll follows: `created_at` for New Record, `updated_at` for New or Updated Record. */
	field: TimeField;
	/** The newest timestamp emitted so far (inclusive: records at exactly this time are checked against `seen`). */
	cursor: string;
	/** IDs already emitted at exactly `cursor`. */
	seen: Set<string>;
	/** The user's filters, as query parameters. */
	filterQs: IDataObject;
	/** The polled resource (its filters are checked as its Get Many's are). */
	resource: string;
	/** An earlier poll found that the list does not honour the time walk: page by number straight away. */
	byPage?: boolean;
}

interface Found {
	/** New records, oldest first, at most MAX_RECORDS (the rest come in the next poll). */
	records: IDataObject[];
	/** The list did not honour the time walk (found in this poll, or by an earlier one): it was paged by number. */
	byPage: boolean;
}

/**
 * The records of the list whose `field` is newer than the cursor (or equal to it and not seen), each once, oldest
 * first, at most MAX_RECORDS of them; throws when the poll cannot finish, so the caller keeps its cursor.
 *
 * The docs promise `sort_by`/`sort_direction` and `<field>_after` on the lists, so the poll walks by the field
 * ascending from the cursor (the transport's one list walk, `listPages`): its cost follows what is new, not the list's
 * size. A list that refuses (422) or ignores the sort or the cursor makes the walk page by number through the user's
 * filtered list instead, newest first where the list takes that sort, stopping at the first page older than the cursor
 * when the pages do come newest first; else it reads the whole list. Either way it checks every record against the
 * cursor by its own timestamp, so it never reports a record that is not new and never fails for a large list with
 * nothing new.
 */
export async function recordsSince(context: IPollFunctions, since: Since): Promise<Found> {
	const { field, filterQs } = since;
	const request = { method: 'GET' as const, url: since.url };
	const cursorTime = timeOf(since.cursor);
	const isNew = (record: IDataObject) => {
		const time = timeOf(record[field]);
		return time > cursorTime || (time === cursorTime && !since.seen.has(String(record.id)));
	};
	const checked = (records: IDataObject[]) => {
		checkFiltersApplied(context.getNode(), since.resource, filterQs, records);
		return records.filter(isNew);
	};
	// The records at the cursor already emitted come again (the cursor is inclusive): room for them too.
	const limit = MAX_RECORDS + since.seen.size;
	const walks = !resourceFacts(since.resource)?.listWithoutTimeFilters;
	const fresh = new Map<string, IDataObject>();
	let byCursor = walks && !since.byPage;
	let newestFirst = true;
	let previous: IDataObject | undefined;
	const walk = {
		field,
		start: byCursor ? 'cursor' : 'number',
		after: since.cursor,
		numberSort: { sort_by: field, sort_direction: 'DESC' },
	} as const;
	for await (const page of listPages(context, request, filterQs, walk)) {
		const batch = page.records;
		if (page.mode === 'cursor') {
			keepNewest(fresh, batch, field);
			// Everything before the page's last record has been seen: with enough of it, the oldest `limit` are final.
			const last = timeOf(batch[batch.length - 1]?.[field]);
			if (
				fresh.size >= limit &&
				[...fresh.values()].filter((record) => timeOf(record[field]) < last).length >= limit
			)
				break;
			continue;
		}
		if (byCursor) {
			// The list did not honour the walk: what it returned by cursor is read again by number.
			byCursor = false;
			fresh.clear();
		}
		keepNewest(fresh, checked(batch), field);
		// Pages newest first by the field (the sort was taken, or is the list's own): the first record older than the
		// cursor ends the poll, as every later one is older still.
		newestFirst &&=
			inTimeOrder(batch, field, true) &&
			(previous === undefined ||
				batch.length === 0 ||
				timeOf(batch[0][field]) <= timeOf(previous[field]));
		previous = batch[batch.length - 1] ?? previous;
		if (newestFirst && previous !== undefined && timeOf(previous[field]) < cursorTime) break;
		// Many new records: keep the oldest MAX_RECORDS (memory stays bounded; the rest come in the next poll).
		if (fresh.size > 2 * MAX_RECORDS) {
			const keep = oldestFirst(fresh, field).slice(0, MAX_RECORDS);
			fresh.clear();
			for (const record of keep) fresh.set(String(record.id), record);
		}
	}
	if (byCursor)
		return {
			records: checked(oldestFirst(fresh, field).slice(0, limit)).slice(0, MAX_RECORDS),
			byPage: false,
		};
	return { records: oldestFirst(fresh, field).slice(0, MAX_RECORDS), byPage: walks };
}

/** Where a first poll starts: the newest record now, by Stora's clock. */
interface StartingPoint {
	cursor: string;
	/** IDs of the records at exactly `cursor`: history, not new. */
	ids: string[];
	/** What the cursor came from. */
	source: 'records' | 'server clock' | 'n8n clock';
}

/**
 * The newest records of the filtered list (newest first), and Stora's clock at the answer (its `Date` header). Picked
 * by the field, in case the list ignored or refused the sort. The filters are not checked here: only times are read.
 */
async function newestRecords(context: IPollFunctions, since: Omit<Since, 'cursor' | 'seen'>) {
	const { field, filterQs } = since;
	const request = async (qs: IDataObject) =>
		await storaRequest(context, { method: 'GET', url: since.url, qs });
	const sorted = {
		...filterQs,
		limit: MAX_PAGE_SIZE,
		page: 1,
		sort_by: field,
		sort_direction: 'DESC',
	};
	let response;
	try {
		response = await request(sorted);
	} catch (error) {
		if (!refusesOnly(error, ['sort_by', 'sort_direction'], filterQs))
			throw asNodeError(context, error);
		response = await request({ ...filterQs, limit: MAX_PAGE_SIZE, page: 1 });
	}
	const records = recordsOf(jsonBodyOf(context.getNode(), response));
	const serverNow = Date.parse(headerOf(response, 'date') ?? '');
	return {
		records: [...records].sort((a, b) => timeOf(b[field]) - timeOf(a[field])),
		/** The page came back newest first: its first record is the list's newest. */
		newestFirst: inTimeOrder(records, field, true),
		serverNow: Number.isNaN(serverNow) ? undefined : serverNow,
	};
}

/** The newest record of the filtered list, for a manual test run: the user sees the records' shape whatever the cursor. */
export async function newestRecord(context: IPollFunctions, since: Omit<Since, 'cursor' | 'seen'>) {
	const { records } = await newestRecords(context, since);
	checkFiltersApplied(context.getNode(), since.resource, since.filterQs, records);
	return records[0];
}

/**
 * The first cursor of an activated poll, from Stora's clock rather than n8n's (which may run ahead, and would then
 * hide records created in the gap): the `Date` of Stora's answer, or the newest record's time if that is later (a
 * page that came back newest first shows it). Only when Stora shows neither does n8n's clock serve, and the log says so.
 */
export async function startingPoint(
	context: IPollFunctions,
	since: Omit<Since, 'cursor' | 'seen'>,
): Promise<StartingPoint> {
	const { records, serverNow, newestFirst } = await newestRecords(context, since);
	const newest = newestFirst && records.length ? timeOf(records[0][since.field]) : Number.NaN;
	if (Number.isFinite(newest) && (serverNow === undefined || newest >= serverNow)) {
		const ids = records
			.filter((record) => timeOf(record[since.field]) === newest)
			.map((record) => String(record.id));
		return { cursor: new Date(newest).toISOString(), ids, source: 'records' };
	}
	if (serverNow !== undefined)
		return { cursor: new Date(serverNow).toISOString(), ids: [], source: 'server clock' };
	return { cursor: new Date().toISOString(), ids: [], source: 'n8n clock' };
}
