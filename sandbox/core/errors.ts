import type { ErrorDetail } from './types';

/** Thrown anywhere in a handler; the server renders it as the API's error envelope. */
export class ApiError extends Error {
	constructor(
		readonly status: number,
		readonly code: string,
		message: string,
		readonly details: ErrorDetail[] = [],
		readonly headers: Record<string, string> = {},
	) {
		super(message);
	}

	get type(): 'invalid_request_error' | 'api_error' {
		return this.status >= 500 || this.code === 'api_error' ? 'api_error' : 'invalid_request_error';
	}
}

export const notFound = (resource: string, id?: string) =>
	new ApiError(
		404,
		'resource_not_found',
		id ? `${resource} ${id} not found` : `${resource} not found`,
	);

export const invalidContent = (details: ErrorDetail[], message = 'The request body is invalid') =>
	new ApiError(422, 'invalid_content', message, details);

export const invalidUrlParam = (
	details: ErrorDetail[],
	message = 'A path or query parameter is invalid',
) => new ApiError(422, 'invalid_url_param', message, details);

export const conflict = (message: string, code = 'conflict', details: ErrorDetail[] = []) =>
	new ApiError(409, code, message, details);

export const forbidden = (scope: string) =>
	new ApiError(403, 'forbidden', `The access token is missing the required scope: ${scope}`);

export const invalidToken = (message = 'The access token is missing, invalid or expired') =>
	new ApiError(401, 'invalid_token', message);

export const invalidEndpoint = (method: string, path: string) =>
	new ApiError(404, 'invalid_endpoint', `No endpoint matches ${method} ${path}`);

export const invalidFormat = (accept: string) =>
	new ApiError(
		406,
		'invalid_format',
		`The requested format is not supported by this endpoint: ${accept}`,
	);

export const invalidRequest = (message = 'The request body could not be parsed') =>
	new ApiError(400, 'invalid_request', message);

export const tooManyRequests = (retryAfterSeconds: number, headers: Record<string, string> = {}) =>
	new ApiError(429, 'too_many_requests', 'Rate limit exceeded, retry later', [], {
		...headers,
		'Retry-After': String(retryAfterSeconds),
	});

export const internalError = (message = 'Something went wrong on our side') =>
	new ApiError(500, 'internal_server_error', message);

/** Seed-only code; the docs give no status, we use 422 like the other validation failures. */
export const invalidNoticePeriod = (message: string, details: ErrorDetail[] = []) =>
	new ApiError(422, 'invalid_notice_period', message, details);
