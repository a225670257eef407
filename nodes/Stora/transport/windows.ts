import type { IDataObject, IExecutePaginationFunctions, IHttpRequestOptions } from 'n8n-workflow';

import { jsonBodyOf, recordsOf } from '../helpers/response';
import { refusesOnly } from './listChecks';
import type { RateLimitSnapshot } from './rateLimit/registry';
import { asNodeError, rateLimitSnapshot, storaRequest } from './request';
import { keepNewest, listPages, oldestFirst, timeOf } from './walk';

/**
 * Return All in parallel created_at windows, for accounts whose rate limit lets more than one request be in flight.
 * After the sequential walk's first page, the rest of the list is cut into disjoint windows [after, before) by
 * created_at, walked at the same time (each with the same moving `created_after` cursor as the sequential walk, plus
 * `created_before`), and joined in order. Every request still queues for the account's shared budget. Any sign that
 * the list does not honour the sort, the cursor or `created_before` ends the attempt (the result is `undefined`), and
 * the sequential walk goes on from where its first page left off, so the answer is the same either way.
 */

/**
 * Windows fetched at once at most, and windows cut: one each. They are cut by rank, so they hold about as many
 * records each however the list spreads over time; more windows than that would only add rank requests and one more
 * window's last page to the walk's longest path (every request also costs the API its sort).
 */
const MAX_PARALLEL = 8;
/** Below this many pages left, the extra requests of the windows are not worth it. */
const MIN_PAGES_LEFT = 4;
/** A sequential walk does about one request per this many ms; parallel windows pay off where the budget is faster. */
const SEQUENTIAL_MS_PER_REQUEST = 30;
const PARAMETERS = ['sort_by', 'sort_direction', 'created_after', 'created_before'];

/** How long the budget needs to grant `requests` more requests, from its windows' limits. */
function budgetMs(snapshot: RateLimitSnapshot, requests: number): number {
	return Math.max(
		0,
		...snapshot.windows.map((window) => Math.floor((requests - 1) / Math.max(1, window.limit)) * window.windowMs),
	);
}

/** How many windows to fetch at once: 1 where the account's rate limit, not the network, sets the pace. */
export async function parallelWindows(context: IExecutePaginationFunctions, pagesLeft: number): Promise<number> {
	if (pagesLeft < MIN_PAGES_LEFT) return 1;
	const snapshot = await rateLimitSnapshot(context);
	const requests = pagesLeft + 2 * MAX_PARALLEL;
	if (snapshot.pausedUntil > Date.now()) return 1;
	return budgetMs(snapshot, requests) <= requests * SEQUENTIAL_MS_PER_REQUEST ? MAX_PARALLEL : 1;
}

/** The created_at of the record at `rank` (1-based) of the list in ascending order: a one-record page. */
async function createdAtOfRank(
	context: IExecutePaginationFunctions,
	options: IHttpRequestOptions,
	userQs: IDataObject,
	rank: number,
): Promise<number | undefined> {
	const qs = { ...userQs, limit: 1, page: rank, sort_by: 'created_at', sort_direction: 'ASC' };
	const [record] = recordsOf(jsonBodyOf(context.getNode(), await storaRequest(context, { ...options, qs })));
	return record === undefined ? undefined : timeOf(record.created_at);
}

/**
 * The records from `after` (inclusive, a created_at the API returned) to the end of the list, fetched in `parallel`
 * windows at once. The windows hold about as many records each: their bounds are the created_at of evenly spaced
 * ranks among the `count` records, read with one-record pages. The last window has no upper bound, so records newer
 * than those seen at the start are included as the sequential walk would include them. Undefined when the list cannot
 * be cut.
 */
export async function fetchWindows(
	context: IExecutePaginationFunctions,
	options: IHttpRequestOptions,
	userQs: IDataObject,
	after: string,
	count: number,
	parallel: number,
): Promise<IDataObject[] | undefined> {
	const windowCount = parallel;
	let ranked: Array<number | undefined>;
	try {
		ranked = await Promise.all(
			Array.from({ length: windowCount - 1 }, async (_, n) =>
				await createdAtOfRank(context, options, userQs, Math.floor((count * (n + 1)) / windowCount) + 1),
			),
		);
	} catch (error) {
		if (refusesOnly(error, PARAMETERS, userQs)) return undefined;
		throw asNodeError(context, error);
	}
	// Ranks must come back in order (the list honours the sort); bounds on whole seconds, so an API that compares at
	// second precision still sees disjoint windows.
	const times = ranked.filter((time): time is number => time !== undefined && Number.isFinite(time));
	if (times.length !== ranked.length || times.some((time, n) => n > 0 && time < times[n - 1])) return undefined;
	const bounds = [after];
	for (const time of times) {
		const at = Math.floor(time / 1000) * 1000;
		if (at > timeOf(bounds[bounds.length - 1])) bounds.push(new Date(at).toISOString());
	}
	if (bounds.length < 2) return undefined;
	const windows = bounds.map((from, n) => ({ from, to: bounds[n + 1] as string | undefined }));

	/** One window's records, oldest first; undefined when the list does not honour its cursor or bounds. */
	const walkWindow = async (from: string, to: string | undefined) => {
		const found = new Map<string, IDataObject>();
		const walk = { field: 'created_at', start: 'cursor', after: from, before: to, otherwise: 'end' } as const;
		for await (const page of listPages(context, options, userQs, walk)) {
			if (page.mode === 'ended') return undefined;
			keepNewest(found, page.records, 'created_at');
		}
		return oldestFirst(found, 'created_at');
	};
	const results: Array<IDataObject[] | undefined> = new Array(windows.length);
	let nextWindow = 0;
	let stop = false;
	const worker = async () => {
		while (!stop && nextWindow < windows.length) {
			const index = nextWindow++;
			results[index] = await walkWindow(windows[index].from, windows[index].to);
			if (results[index] === undefined) stop = true;
		}
	};
	// allSettled: every window in flight ends before the first failure is passed on, so none is left running.
	const settled = await Promise.allSettled(Array.from({ length: Math.min(parallel, windows.length) }, worker));
	const failed = settled.find((outcome) => outcome.status === 'rejected');
	if (failed) throw asNodeError(context, (failed as PromiseRejectedResult).reason);
	if (stop) return undefined;
	return results.flatMap((found) => found ?? []);
}
