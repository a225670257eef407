/** Small HTTP helpers shared by the API pipeline and the control plane. */
import { errorBody } from './envelope';
import { ApiError, invalidRequest } from './errors';

export interface Outgoing {
	status: number;
	headers: Record<string, string>;
	body: Buffer;
}

export interface Incoming {
	method: string;
	path: string;
	query: Record<string, string>;
	headers: Record<string, string>;
	rawBody: string;
	requestId: string;
}

export const JSON_TYPE = 'application/json; charset=utf-8';

export const json = (
	status: number,
	body: unknown,
	headers: Record<string, string> = {},
): Outgoing => ({
	status,
	headers: { 'Content-Type': JSON_TYPE, ...headers },
	body: Buffer.from(JSON.stringify(body)),
});

export function errorOutgoing(
	error: unknown,
	requestId: string,
	headers: Record<string, string> = {},
): Outgoing {
	const apiError =
		error instanceof ApiError
			? error
			: new ApiError(500, 'internal_server_error', 'Something went wrong on our side');
	return json(apiError.status, errorBody(apiError, requestId), {
		...headers,
		...apiError.headers,
		'X-Request-Id': requestId,
	});
}

/** Query string → record; a repeated key keeps the last value, except `expand`/`expand[]` which accumulate. */
export function parseQuery(params: URLSearchParams): Record<string, string> {
	const query: Record<string, string> = {};
	const expand: string[] = [];
	for (const [key, value] of params) {
		if (key === 'expand' || key === 'expand[]') expand.push(value);
		else query[key] = value;
	}
	if (expand.length) query.expand = expand.join(',');
	return query;
}

/** Parses JSON (or form-encoded) bodies. Throws 400 `invalid_request` on unparsable content. */
export function parseBody(raw: string, contentType: string | undefined): unknown {
	if (!raw.length) return undefined;
	if ((contentType ?? '').toLowerCase().startsWith('application/x-www-form-urlencoded')) {
		return Object.fromEntries(new URLSearchParams(raw));
	}
	try {
		return JSON.parse(raw);
	} catch {
		throw invalidRequest('The request body is not valid JSON');
	}
}
