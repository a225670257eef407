import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
} from 'n8n-workflow';

import { MAX_PAGE_SIZE } from '../../helpers/constants';
import { jsonBodyOf, nextPageOf, recordsOf } from '../../helpers/response';
import { asNodeError, storaRequest } from '../../transport/request';

/** One page of a list endpoint, and the next page number the API reports. */
export async function listPage(
	context: ILoadOptionsFunctions,
	path: string,
	qs: IDataObject = {},
): Promise<{ records: IDataObject[]; next?: number }> {
	try {
		const response = await storaRequest(context, {
			method: 'GET',
			url: path,
			qs: { limit: MAX_PAGE_SIZE, ...qs },
		});
		const body = jsonBodyOf(context.getNode(), response);
		return { records: recordsOf(body), next: nextPageOf(body) };
	} catch (error) {
		// The editor shows this under the parameter: say which list could not be loaded.
		const nodeError = asNodeError(context, error);
		const line = `Operation: loading the list for the parameter (GET ${path})`;
		nodeError.description = nodeError.description ? `${nodeError.description}\n${line}` : line;
		throw nodeError;
	}
}

interface SearchOptions {
	/** List endpoint, e.g. `/contacts`. */
	path: string;
	/** What the user sees for a record. */
	label: (record: IDataObject) => string;
	/** The API's own search parameter, when the endpoint has one; otherwise the loaded page is filtered here. */
	searchParam?: string;
	/** Back-office link for a record, when there is one. */
	url?: (record: IDataObject) => string | undefined;
}

/**
 * A resource locator's "From List": one page per scroll (the pagination token is the API's next page number),
 * searched by the API where it can, otherwise filtered on name and ID.
 */
export function searchListMethod(options: SearchOptions) {
	return async function (
		this: ILoadOptionsFunctions,
		filter?: string,
		paginationToken?: string,
	): Promise<INodeListSearchResult> {
		const qs: IDataObject = { page: paginationToken ? Number(paginationToken) : 1 };
		if (filter && options.searchParam) qs[options.searchParam] = filter;
		const { records, next } = await listPage(this, options.path, qs);
		const needle = !options.searchParam && filter ? filter.toLowerCase() : undefined;
		const results: INodeListSearchItems[] = records
			.map((record) => ({
				name: options.label(record),
				value: String(record.id),
				url: options.url?.(record),
			}))
			.filter(
				(item) =>
					!needle ||
					item.name.toLowerCase().includes(needle) ||
					item.value.toLowerCase().includes(needle),
			);
		return { results, paginationToken: next ? String(next) : undefined };
	};
}
