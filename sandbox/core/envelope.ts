import { ApiError } from './errors';
import type { ErrorDetail } from './types';

/** The curies the docs' examples carry (Backoffice and Storefront test hosts). */
export const CURIES = [
	{ name: 'bo', href: 'https://app.stora.test{rel}', templated: true, title: 'Backoffice' },
	{ name: 'sf', href: 'https://acme.stora.test{rel}', templated: true, title: 'Storefront' },
];

export const ERROR_LINKS = [
	{
		kind: 'open_api',
		name: 'OpenAPI specification',
		url: 'https://public-api.stora.co/2025-09/openapi.json',
	},
	{
		kind: 'documentation',
		name: 'Errors',
		url: 'https://docs.stora.co/public-api#overview--errors',
	},
];

export function meta(requestId: string, extra: Record<string, unknown> = {}) {
	return { request_id: requestId, curies: CURIES.map((c) => ({ ...c })), ...extra };
}

export function errorBody(error: ApiError, requestId: string) {
	return {
		error: {
			code: error.code,
			type: error.type,
			message: error.message,
			links: ERROR_LINKS.map((l) => ({ ...l })),
			details: error.details.map((d: ErrorDetail) => ({ message: d.message, pointer: d.pointer })),
			request_id: requestId,
		},
	};
}

/** Default code for a bare status (used by faults that give only a status). */
export function codeForStatus(status: number): string {
	const codes: Record<number, string> = {
		400: 'invalid_request',
		401: 'invalid_token',
		403: 'forbidden',
		404: 'resource_not_found',
		406: 'invalid_format',
		409: 'conflict',
		422: 'invalid_content',
		429: 'too_many_requests',
	};
	return codes[status] ?? (status >= 500 ? 'internal_server_error' : 'invalid_request');
}
