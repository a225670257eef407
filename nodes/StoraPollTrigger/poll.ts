import type {
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	INodeProperties,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { LISTS_WITHOUT_TIME_FILTERS, MAX_PAGE_SIZE } from '../Stora/helpers/constants';
import { zonedIso } from '../Stora/helpers/dateTime';
import { jsonBodyOf, nextPageOf, recordsOf } from '../Stora/helpers/response';
import { idsOf } from '../Stora/helpers/validation';
import { filterNotApplied, refusesOnly, unappliedFilter } from '../Stora/transport/filters';
import { asNodeError, storaRequest } from '../Stora/transport/request';
import { timeOf, walkByTime, type TimeField } from '../Stora/transport/walk';

export { timeOf };

/** A poll never walks further than this many pages (100 000 records): it fails and keeps its cursor instead. */
const MAX_PAGES = 1000;

/** The record timestamp a poll follows: `created_at` for New Record, `updated_at` for New or Updated Record. */
export type PollField = TimeField;


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
		// As the node's own preSend sends it (after its checkDate above): in the workflow's time zone.
		else if (filter.type === 'dateTime') sent = value ? zonedIso(String(value).trim(), context.getTimezone()) : undefined;
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
 * first; throws when the poll cannot finish, so the caller keeps its cursor.
 *
 * Where the list honours them it walks by the field ascending with the API's inclusive `<field>_after` as a moving
 * cursor (`walkByTime`), so records created or updated while it pages come later in the walk instead of shifting
 * pages under it. Many list pages of the docs are cut off: a list that refuses (422), ignores the sort or ignores the
 * cursor makes the poll page by number through the user's filtered list instead, checking every record against the
 * cursor by its own timestamp. That costs pages, never a wrong or missing record.
 */
export async function recordsSince(context: IPollFunctions, since: Since): Promise<IDataObject[]> {
	const { field, filterQs } = since;
	const request = { method: 'GET' as const, baseURL: since.baseURL, url: since.url };
	const cursorTime = timeOf(since.cursor);
	const isNew = (record: IDataObject) => {
		const time = timeOf(record[field]);
		return time > cursorTime || (time === cursorTime && !since.seen.has(String(record.id)));
	};
	const checked = (records: IDataObject[]) => {
		const unapplied = unappliedFilter(filterQs, records);
		if (unapplied) throw filterNotApplied(context.getNode(), unapplied);
		return records.filter(isNew);
	};

	if (!LISTS_WITHOUT_TIME_FILTERS.includes(since.url)) {
		const walked = await walkByTime(context, request, filterQs, field, since.cursor);
		if (walked) return checked(walked);
	}

	const fresh = new Map<string, IDataObject>();
	let page: number | undefined = 1;
	for (let requests = 0; page !== undefined && requests < MAX_PAGES; requests++) {
		const response = await storaRequest(context, { ...request, qs: { ...filterQs, limit: MAX_PAGE_SIZE, page } });
		const body = jsonBodyOf(context.getNode(), response);
		const batch = recordsOf(body);
		for (const record of checked(batch)) {
			const earlier = fresh.get(String(record.id));
			if (!earlier || timeOf(earlier[field]) <= timeOf(record[field])) fresh.set(String(record.id), record);
		}
		page = batch.length ? nextPageOf(body) : undefined;
	}
	if (page !== undefined) {
		throw new NodeOperationError(context.getNode(), `More than ${MAX_PAGES} pages of new records in one poll`, {
			description: 'Poll more often, or narrow the list with filters. The next poll starts from the same point.',
		});
	}
	return [...fresh.values()].sort((a, b) => timeOf(a[field]) - timeOf(b[field]));
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
