import { createHash } from 'crypto';
import type {
	DeclarativeRestApiSettings,
	IDataObject,
	IExecutePaginationFunctions,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	INodeExecutionData,
	NodeApiError,
	NodeOperationError,
} from 'n8n-workflow';

import { MAX_PAGE_SIZE } from '../helpers/constants';
import { shapeOutput } from '../helpers/output';
import { jsonBodyOf, nextPageOf, recordsOf } from '../helpers/response';
import { asNodeError, storaRequest } from './request';

/** Return All never walks further than this many pages (100 000 records), whatever the API says. */
const MAX_PAGES = 1000;

/**
 * POSTs carry an Idempotency-Key derived from the execution, node, run, item and request, so n8n's Retry On Fail and
 * our own retries replay the first response instead of creating a second record. A key already set wins.
 */
function withIdempotencyKey(context: IExecutePaginationFunctions, options: IHttpRequestOptions): IHttpRequestOptions {
	if ((options.method ?? 'GET').toUpperCase() !== 'POST') return options;
	const headers = { ...((options.headers ?? {}) as IDataObject) };
	if (Object.keys(headers).some((name) => name.toLowerCase() === 'idempotency-key')) return options;
	const fingerprint = createHash('sha256')
		.update(
			JSON.stringify([
				context.getExecutionId(),
				context.getNode().id,
				// A node inside a loop runs again in the same execution: each run is a new write.
				context.evaluateExpression('={{ $runIndex }}', context.getItemIndex()),
				context.getItemIndex(),
				options.url,
				options.body ?? null,
			]),
		)
		.digest('hex')
		.slice(0, 32);
	headers['Idempotency-Key'] = `n8n-${fingerprint}`;
	return { ...options, headers };
}

/**
 * Return All: walks the list in a stable order (created_at ascending) using the API's inclusive `created_after` as a
 * cursor, and drops records already seen. Records created or deleted while it pages therefore neither shift pages
 * nor get returned twice. Every filter, `expand` and metadata filter of the first request stays on every page. It
 * stops when the API reports no next page.
 */
async function fetchAll(context: IExecutePaginationFunctions, options: IHttpRequestOptions, maxResults?: number) {
	const userQs = (options.qs ?? {}) as IDataObject;
	const byCreated = ((userQs.sort_by as string | undefined) ?? 'created_at') === 'created_at';
	const descending = String(userQs.sort_direction ?? 'DESC').toUpperCase() === 'DESC';
	const seen = new Set<string>();
	const records: IDataObject[] = [];
	let useCursor = byCreated;
	let cursor = userQs.created_after as string | undefined;
	let page = 1;

	for (let requests = 0; requests < MAX_PAGES; requests++) {
		const qs: IDataObject = { ...userQs, limit: MAX_PAGE_SIZE, page };
		if (byCreated) {
			qs.sort_by = 'created_at';
			qs.sort_direction = 'ASC';
			if (useCursor && cursor !== undefined) qs.created_after = cursor;
		}
		const response = await storaRequest(context, { ...options, qs });
		const body = jsonBodyOf(context.getNode(), response);
		const batch = recordsOf(body);
		const next = nextPageOf(body);

		if (useCursor && cursor !== undefined && cursor !== userQs.created_after && batch.some((record) => String(record.created_at) < cursor!)) {
			// This list ignores created_after (not every endpoint documents it): page by number from page 2 instead.
			useCursor = false;
			page = 2;
			continue;
		}
		for (const record of batch) {
			const id = String(record.id);
			if (seen.has(id)) continue;
			seen.add(id);
			records.push(record);
		}
		if (next === undefined || batch.length === 0) break;
		if (maxResults !== undefined && records.length >= maxResults) break;

		const last = batch[batch.length - 1]?.created_at as string | undefined;
		if (useCursor && last !== undefined && last !== cursor) {
			cursor = last;
			page = 1;
		} else {
			// Sorting by another field, or a full page sharing one timestamp: the next page number.
			page = useCursor ? page + 1 : next;
		}
	}
	// The walk is ascending; give the user the direction they asked for.
	return byCreated && descending ? records.reverse() : records;
}

/**
 * Return All as a CSV file: the JSON list says how many pages there are, then each page is fetched as CSV and the
 * pages are joined under one header row.
 */
async function fetchAllCsv(context: IExecutePaginationFunctions, options: IHttpRequestOptions) {
	const userQs = (options.qs ?? {}) as IDataObject;
	const probe = await storaRequest(context, {
		...options,
		encoding: undefined,
		json: true,
		headers: { ...((options.headers ?? {}) as IDataObject), Accept: 'application/json' },
		qs: { ...userQs, limit: MAX_PAGE_SIZE, page: 1 },
	});
	const pagination = ((jsonBodyOf(context.getNode(), probe).meta as IDataObject | undefined)?.pagination ?? {}) as IDataObject;
	const pages = Math.min(MAX_PAGES, Math.max(1, Number(pagination.pages ?? 1)));
	const parts: string[] = [];
	let eol = '\r\n';
	let last: IN8nHttpFullResponse = probe;
	for (let page = 1; page <= pages; page++) {
		last = await storaRequest(context, { ...options, qs: { ...userQs, limit: MAX_PAGE_SIZE, page } });
		const text = Buffer.from(last.body as Buffer).toString('utf8');
		if (page === 1) eol = text.includes('\r\n') ? '\r\n' : '\n';
		const rows = text.endsWith(eol) ? text.slice(0, -eol.length) : text;
		// Every page starts with the same header row: keep the first one only.
		parts.push(page === 1 ? rows : rows.slice(rows.indexOf(eol) + eol.length));
	}
	return { ...last, body: Buffer.from(`${parts.filter(Boolean).join(eol)}${eol}`, 'utf8') };
}

/**
 * Runs every request the declarative descriptions build (it is wired as the node's `requestOperations.pagination`
 * with pagination always on): one transport for retries, idempotency, error mapping, Return All and output shaping.
 */
export async function executeStoraRequest(
	this: IExecutePaginationFunctions,
	requestData: DeclarativeRestApiSettings.ResultOptions,
): Promise<INodeExecutionData[]> {
	const options = withIdempotencyKey(this, requestData.options as IHttpRequestOptions);
	const returnAll = (options.method ?? 'GET').toUpperCase() === 'GET' && this.getNodeParameter('returnAll', false) === true;
	try {
		if (returnAll && options.encoding === 'arraybuffer') {
			return await shapeOutput(this, options, await fetchAllCsv(this, options));
		}
		if (returnAll) {
			return await shapeOutput(this, options, await fetchAll(this, options));
		}
		const response = await storaRequest(this, options, this.getItemIndex());
		return await shapeOutput(this, options, response);
	} catch (error) {
		throw namingTheOperation(this, options, asNodeError(this, error));
	}
}

/** Every error says which operation and request it came from, so a user of a long workflow can find the cause. */
function namingTheOperation(
	context: IExecutePaginationFunctions,
	options: IHttpRequestOptions,
	error: NodeApiError | NodeOperationError,
): NodeApiError | NodeOperationError {
	const resource = String(context.getNodeParameter('resource', ''));
	const operation = String(context.getNodeParameter('operation', ''));
	const line = `Operation: ${resource} → ${operation} (${(options.method ?? 'GET').toUpperCase()} ${options.url})`;
	if (!String(error.description ?? '').includes(line)) {
		error.description = error.description ? `${error.description}\n${line}` : line;
	}
	return error;
}
