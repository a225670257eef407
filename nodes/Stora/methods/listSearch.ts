import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { MAX_PAGE_SIZE } from '../shared/constants';
import { storaRequest, versionedBaseUrl } from '../shared/transport';

/**
 * One page of a list endpoint as searchable locator results. The pagination token is the next page number the API
 * reports, so the list loads more as the user scrolls.
 */
async function searchList(
	context: ILoadOptionsFunctions,
	path: string,
	label: (record: IDataObject) => string,
	filter?: string,
	paginationToken?: string,
	searchParam?: string,
): Promise<INodeListSearchResult> {
	const qs: IDataObject = { limit: MAX_PAGE_SIZE, page: paginationToken ? Number(paginationToken) : 1 };
	if (filter && searchParam) qs[searchParam] = filter;
	const response = await storaRequest(context, {
		method: 'GET',
		baseURL: await versionedBaseUrl(context),
		url: path,
		qs,
	});
	const body = response.body as IDataObject;
	const key = Object.keys(body).find((name) => name !== 'meta' && Array.isArray(body[name]));
	const records = (key ? body[key] : []) as IDataObject[];
	const next = ((body.meta as IDataObject | undefined)?.pagination as IDataObject | undefined)?.next;
	const needle = !searchParam && filter ? filter.toLowerCase() : undefined;
	return {
		results: records
			.map((record) => ({ name: label(record), value: String(record.id) }))
			.filter((result) => !needle || result.name.toLowerCase().includes(needle) || result.value.includes(needle)),
		paginationToken: next ? String(next) : undefined,
	};
}

export async function searchSites(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await searchList(this, '/sites', (site) => String(site.name ?? site.id), filter, paginationToken, 'search');
}
