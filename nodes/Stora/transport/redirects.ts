/**
 * Where a request may go: the credential's Allowed HTTP Request Domains (helpers/allowedDomains.ts), checked before
 * a request leaves and on every redirect, and the redirects the transport follows itself so that the credential
 * never reaches another host.
 */
import type { IHttpRequestOptions, IN8nHttpFullResponse } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { refusalOf } from '../helpers/allowedDomains';
import { headerOf } from '../helpers/response';
import type { StoraContext } from './request';

/** One request with the credential, every status as a response (OAuth2 tokens refreshed on the way, any n8n). */
export type AuthenticatedSend = (request: IHttpRequestOptions) => Promise<IN8nHttpFullResponse>;

/** A request refused for the credential's Allowed HTTP Request Domains: final, never retried. */
export class DomainNotAllowed extends NodeOperationError {}

/** A request to a host the credential's Allowed HTTP Request Domains leave out, refused before it leaves. */
export function checkAllowed(context: StoraContext, url: string, allowedDomains: string | undefined, itemIndex?: number) {
	const refusal = refusalOf(url, allowedDomains);
	if (refusal) throw new DomainNotAllowed(context.getNode(), refusal.message, { description: refusal.description, itemIndex });
}

/** Redirects followed for a request that must not carry the credential to another host. */
const MAX_REDIRECTS = 5;
const CREDENTIAL_HEADERS = /^(authorization|proxy-authorization|cookie)$/i;

/** Where a request goes: `baseURL` joined with a relative `url`, as n8n's HTTP client does. */
export function absoluteUrl(options: IHttpRequestOptions): string {
	if (/^[a-z][a-z0-9+.-]*:\/\//i.test(options.url)) return options.url;
	return `${String(options.baseURL ?? '').replace(/\/+$/, '')}/${options.url.replace(/^\/+/, '')}`;
}

/**
 * `sendCredentialsOnCrossOriginRedirect: false` (n8n's own request option) is honoured here whatever the n8n version:
 * the transport follows the redirects itself and sends the credential only to the API's own origin. The API answers
 * image downloads with a redirect to a pre-signed address on another host, which must not get the bearer token
 * (S3-style hosts reject a request that carries one).
 */
export async function followRedirects(
	context: StoraContext,
	send: AuthenticatedSend,
	request: IHttpRequestOptions,
	first: IN8nHttpFullResponse,
	allowedDomains: string | undefined,
): Promise<IN8nHttpFullResponse> {
	let response = first;
	let from = absoluteUrl(request);
	const origin = new URL(from).origin;
	for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
		const location = headerOf(response, 'location');
		if (response.statusCode < 300 || response.statusCode >= 400 || !location) return response;
		if (hop === MAX_REDIRECTS) break;
		const target = new URL(location, from);
		checkAllowed(context, target.href, allowedDomains);
		// As browsers do: 303, and 301/302 after a POST, continue with a GET; 307/308 repeat the request.
		const method = (request.method ?? 'GET').toUpperCase();
		const toGet = response.statusCode === 303 || ([301, 302].includes(response.statusCode) && method === 'POST');
		const next: IHttpRequestOptions = {
			...request,
			url: target.href,
			baseURL: undefined,
			qs: undefined,
			...(toGet ? { method: 'GET', body: undefined } : {}),
		};
		if (target.origin === origin) {
			response = await send(next);
		} else {
			// n8n may have written the credential into the request's headers: none of it goes to the other host.
			const headers = Object.fromEntries(
				Object.entries(request.headers ?? {}).filter(([name]) => !CREDENTIAL_HEADERS.test(name)),
			);
			response = (await context.helpers.httpRequest({ ...next, headers, auth: undefined, ignoreHttpStatusErrors: true })) as IN8nHttpFullResponse;
		}
		from = target.href;
	}
	throw new NodeApiError(context.getNode(), { message: 'Too many redirects' }, {
		message: `Stora redirected more than ${MAX_REDIRECTS} times`,
		description: `Last address: ${from}`,
	});
}
