import { createHash } from 'crypto';
import type {
	DeclarativeRestApiSettings,
	IDataObject,
	IExecutePaginationFunctions,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	INodeExecutionData,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { MAX_PAGE_SIZE } from '../helpers/constants';
import { resourceFacts } from '../helpers/resources';
import { missingScopeHint } from '../helpers/scopes';
import { shapeOutput } from '../helpers/output';
import { runsAsTool, TOOL_MAX_RECORDS } from '../helpers/tool';
import { jsonBodyOf, recordsOf } from '../helpers/response';
import { checkFiltersApplied } from './listFilters';
import { asSentence } from './errors';
import { asNodeError, storaRequest } from './request';
import { listPages, MAX_RECORDS, tooManyRecords } from './walk';
import { PARAMETER } from '../helpers/parameters';
import { failedCheck } from '../helpers/validation';

/** Settings → Request Options, the collection n8n adds to every declarative node. */
const REQUEST_OPTIONS = 'requestOptions';

/**
 * POSTs carry an Idempotency-Key derived from the execution, node, run, item and request, so n8n's Retry On Fail and
 * our own retries replay the first response instead of creating a second record. A key already set wins.
 */
function withIdempotencyKey(
	context: IExecutePaginationFunctions,
	options: IHttpRequestOptions,
): IHttpRequestOptions {
	if ((options.method ?? 'GET').toUpperCase() !== 'POST') return options;
	const headers = { ...((options.headers ?? {}) as IDataObject) };
	if (Object.keys(headers).some((name) => name.toLowerCase() === 'idempotency-key')) return options;
	const fingerprint = createHash('sha256')
		.update(
			JSON.stringify([
				context.getExecutionId(),
				context.getNode().id,
				// A node inside a loop runs again in the same execution: each run is a new write.
				// Read from n8n's data proxy: what `{{ $runIndex }}` reads, without evaluating an expression per item.
				context.getWorkflowDataProxy(context.getItemIndex()).$runIndex,
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
 * Each attempt waits the node's Timeout (Settings → Request Options), or the transport's own per-attempt default when
 * it is not set: not the 300 s RoutingNode puts on every request, with which a retried attempt could hold a run for
 * many minutes.
 */
function withAttemptTimeout(
	context: IExecutePaginationFunctions,
	options: IHttpRequestOptions,
): IHttpRequestOptions {
	const settings = context.getNodeParameter(REQUEST_OPTIONS, {}) as IDataObject | undefined;
	return {
		...options,
		timeout: Number(settings?.timeout) > 0 ? Number(settings?.timeout) : undefined,
	};
}

/** Every output item linked to the input item it came from, as n8n's item linking (`$('Node').item`) needs. */
function linkedTo(items: INodeExecutionData[], itemIndex: number): INodeExecutionData[] {
	for (const item of items) item.pairedItem ??= { item: itemIndex };
	return items;
}

/** One page of a list: every filter asked for must hold for every record (Stora may not apply a filter). */
function checkListPage(
	context: IExecutePaginationFunctions,
	options: IHttpRequestOptions,
	response: IN8nHttpFullResponse,
) {
	if ((options.method ?? 'GET').toUpperCase() !== 'GET' || options.encoding === 'arraybuffer')
		return;
	const body = response.body;
	if (!body || typeof body !== 'object' || Buffer.isBuffer(body) || !('meta' in body)) return;
	const qs = (options.qs ?? {}) as IDataObject;
	checkFiltersApplied(
		context.getNode(),
		String(context.getNodeParameter(PARAMETER.resource, '')),
		qs,
		recordsOf(body as IDataObject),
		context.getItemIndex(),
	);
}

/**
 * Return All, one page after another through the one list walk (`walk.ts`): by `created_at` ascending with the
 * inclusive `created_after` as a cursor where the list honours it, so records created or deleted while it pages
 * neither shift pages nor come twice, and reversed at the end where the user asked newest first (the default); by page
 * number with the user's own sort where the user sorts by another field, or where the list does not honour the walk.
 * Each record comes once, and every filter the user set must hold for every record (else a clear error).
 */
async function fetchAll(context: IExecutePaginationFunctions, options: IHttpRequestOptions) {
	const userQs = (options.qs ?? {}) as IDataObject;
	const byCreation = String(userQs.sort_by ?? 'created_at') === 'created_at';
	const descending = String(userQs.sort_direction ?? 'DESC').toUpperCase() === 'DESC';
	const itemIndex = context.getItemIndex();
	const records = new Map<string, IDataObject>();
	const timeFilters = !resourceFacts(String(context.getNodeParameter(PARAMETER.resource, '')))
		?.listWithoutTimeFilters;
	const start = !byCreation ? 'number' : timeFilters ? 'cursor' : 'sorted';
	let mode: 'cursor' | 'sorted' | 'number' = start;
	for await (const page of listPages(context, options, userQs, {
		field: 'created_at',
		start,
		itemIndex,
	})) {
		const pagination = (page.body.meta as IDataObject | undefined)?.pagination as
			| IDataObject
			| undefined;
		// The list's count is known from its first page: a list n8n cannot take fails here, before the walk.
		if (Number(pagination?.count) > MAX_RECORDS)
			throw tooManyRecords(context.getNode(), Number(pagination?.count), itemIndex);
		// Paging by number starts again from the first page, in the list's own order: what the ascending walk kept goes.
		if (page.mode === 'number' && mode !== 'number') records.clear();
		mode = page.mode;
		for (const record of page.records)
			if (!records.has(String(record.id))) records.set(String(record.id), record);
		// A list without a count (or one that grew while paging) shows it here.
		if (records.size > MAX_RECORDS) throw tooManyRecords(context.getNode(), undefined, itemIndex);
	}
	const found = [...records.values()];
	checkFiltersApplied(
		context.getNode(),
		String(context.getNodeParameter(PARAMETER.resource, '')),
		userQs,
		found,
		itemIndex,
	);
	// The walk by created_at pages oldest first; paging by number keeps the order the list gives for the user's query.
	return mode !== 'number' && descending ? found.reverse() : found;
}

/**
 * Return All as a CSV file: the JSON list says how many pages there are, then each page is fetched as CSV, one after
 * another, and the pages are joined in order under one header row. No record bound: the file is one item, whose
 * memory grows with the list.
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
	const pagination = ((jsonBodyOf(context.getNode(), probe).meta as IDataObject | undefined)
		?.pagination ?? {}) as IDataObject;
	// One file, one item: n8n's item bound does not apply, so every page the list reports is fetched.
	const pages = Math.max(1, Number(pagination.pages ?? 1));
	const texts: string[] = [];
	let last: IN8nHttpFullResponse = probe;
	for (let page = 1; page <= pages; page++) {
		last = await storaRequest(context, {
			...options,
			qs: { ...userQs, limit: MAX_PAGE_SIZE, page },
		});
		texts.push(Buffer.from(last.body as Buffer).toString('utf8'));
	}
	const eol = texts[0].includes('\r\n') ? '\r\n' : '\n';
	const parts = texts.map((text, index) => {
		const rows = text.endsWith(eol) ? text.slice(0, -eol.length) : text;
		// Every page starts with the same header row: keep the first one only.
		return index === 0 ? rows : rows.slice(rows.indexOf(eol) + eol.length);
	});
	return { ...last, body: Buffer.from(`${parts.filter(Boolean).join(eol)}${eol}`, 'utf8') };
}

/** What RoutingNode says of a 429 that reached the run, pointing at the settings that exist. */
const SPACING_HINT =
	"Stora kept answering 429 (too many requests) after the node waited for its rate limit. Space the requests out with Settings → Request Options → Batching, or set the Stora credential's Rate Limit to your plan's.";

/**
 * A failed item's output under On Error → Continue, as n8n's own nodes give it: the error in the item's JSON, linked
 * to its input item. `error` is the message (with the API's code), `message` the description (the field details, the
 * request ID, the operation): n8n's error output takes an item of exactly these keys as an error and merges the input
 * item's data into it. RoutingNode's own way (an item carrying the error object) would leave the JSON empty.
 */
function errorItem(
	error: NodeApiError | NodeOperationError,
	itemIndex: number,
): INodeExecutionData {
	const json: IDataObject = { error: error.message };
	if (error.description) json.message = error.description;
	return { json, pairedItem: { item: itemIndex } };
}

/**
 * Sends the request RoutingNode built from the descriptions (wired as the node's `requestOperations.pagination`, with
 * pagination always on) and shapes its items: one transport for retries, idempotency, error mapping and Return All.
 */
export async function sendOperation(
	this: IExecutePaginationFunctions,
	requestData: DeclarativeRestApiSettings.ResultOptions,
): Promise<INodeExecutionData[]> {
	const failed = failedCheck(requestData.options as IHttpRequestOptions);
	if (failed !== undefined) {
		// A check before any request (a preSend) failed: the node's own error naming the parameter, nothing sent.
		const error = asNodeError(this, failed);
		error.context = { ...(error.context ?? {}), itemIndex: this.getItemIndex() };
		if (this.continueOnFail()) return [errorItem(error, this.getItemIndex())];
		throw error;
	}
	const options = withAttemptTimeout(
		this,
		withIdempotencyKey(this, requestData.options as IHttpRequestOptions),
	);
	const returnAll =
		(options.method ?? 'GET').toUpperCase() === 'GET' &&
		this.getNodeParameter(PARAMETER.returnAll, false) === true;
	try {
		if (returnAll && runsAsTool(this) && options.encoding !== 'arraybuffer') {
			// A model's context holds one page, not a list of thousands: the first page, and the answer says how many match.
			const firstPage = {
				...options,
				qs: { ...((options.qs ?? {}) as IDataObject), limit: TOOL_MAX_RECORDS, page: 1 },
			};
			const response = await storaRequest(this, firstPage, this.getItemIndex());
			checkListPage(this, firstPage, response);
			return linkedTo(await shapeOutput(this, firstPage, response), this.getItemIndex());
		}
		if (returnAll && options.encoding === 'arraybuffer') {
			return linkedTo(
				await shapeOutput(this, options, await fetchAllCsv(this, options)),
				this.getItemIndex(),
			);
		}
		if (returnAll) {
			return linkedTo(
				await shapeOutput(this, options, await fetchAll(this, options)),
				this.getItemIndex(),
			);
		}
		const response = await storaRequest(this, options, this.getItemIndex());
		checkListPage(this, options, response);
		return linkedTo(await shapeOutput(this, options, response), this.getItemIndex());
	} catch (caught) {
		const error = namingTheOperation(this, options, asNodeError(this, caught));
		// RoutingNode would replace a 429's message with its own hint: the API's message stays, the hint goes below it.
		if (
			error instanceof NodeApiError &&
			error.httpCode === '429' &&
			!String(error.description ?? '').includes(SPACING_HINT)
		) {
			error.description = error.description
				? `${error.description}\n${SPACING_HINT}`
				: SPACING_HINT;
		}
		error.context = { ...(error.context ?? {}), itemIndex: this.getItemIndex() };
		if (this.continueOnFail()) return [errorItem(error, this.getItemIndex())];
		throw error;
	}
}

/** Every error says which operation and request it came from, so a user of a long workflow can find the cause. */
function namingTheOperation(
	context: IExecutePaginationFunctions,
	options: IHttpRequestOptions,
	error: NodeApiError | NodeOperationError,
): NodeApiError | NodeOperationError {
	const resource = String(context.getNodeParameter(PARAMETER.resource, ''));
	const operation = String(context.getNodeParameter(PARAMETER.operation, ''));
	const method = (options.method ?? 'GET').toUpperCase();
	const lines = [`Operation: ${resource} → ${operation} (${method} ${options.url})`];
	// A 403 is nearly always a missing scope: say which one this operation needs.
	if (error instanceof NodeApiError && error.httpCode === '403') {
		const hint = missingScopeHint(
			resource,
			operation,
			method,
			`${error.message} ${String(error.description ?? '')}`,
		);
		if (hint) lines.unshift(hint);
	}
	for (const line of lines.map(asSentence)) {
		if (!String(error.description ?? '').includes(line)) {
			error.description = error.description
				? `${asSentence(String(error.description))}\n${line}`
				: line;
		}
	}
	return error;
}
