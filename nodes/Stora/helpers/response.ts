import type { IDataObject, IN8nHttpFullResponse, INode } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

/** A response header (n8n gives them lower-cased, sometimes as an array), or undefined when absent. */
export function headerOf(response: IN8nHttpFullResponse, name: string): string | undefined {
	const value = response.headers?.[name.toLowerCase()];
	if (value === undefined || value === null) return undefined;
	return String(Array.isArray(value) ? value[0] : value);
}

/** The records of a list envelope (`{ <plural>: [...], meta }`), whatever the list is called. */
export function recordsOf(body: IDataObject): IDataObject[] {
	const key = Object.keys(body).find((name) => name !== 'meta' && Array.isArray(body[name]));
	return key ? (body[key] as IDataObject[]) : [];
}

/** The API's next page number from a list envelope's `meta.pagination`, when there is one. */
export function nextPageOf(body: IDataObject): number | undefined {
	const next = ((body.meta as IDataObject | undefined)?.pagination as IDataObject | undefined)
		?.next;
	return typeof next === 'number' ? next : undefined;
}

/** The body of a JSON response, or a clear error when the API answered with something else. */
export function jsonBodyOf(node: INode, response: IN8nHttpFullResponse): IDataObject {
	const body = response.body;
	if (body && typeof body === 'object' && !Buffer.isBuffer(body)) return body as IDataObject;
	throw new NodeApiError(
		node,
		{ body: String(body).slice(0, 300) },
		{
			message: 'Stora answered with a body that is not JSON',
			description: `HTTP ${response.statusCode}: ${String(body).slice(0, 300)}`,
			httpCode: String(response.statusCode),
		},
	);
}
