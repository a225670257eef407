import type {
	IDataObject,
	IExecuteFunctions,
	IExecuteSingleFunctions,
	IHookFunctions,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IN8nHttpFullResponse,
	IN8nHttpResponse,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import { API_VERSION } from './constants';
import { toNodeApiError } from './errors';

export type StoraContext = IExecuteSingleFunctions | IExecuteFunctions | ILoadOptionsFunctions | IHookFunctions;

export type CredentialType = 'storaApi' | 'storaOAuth2Api';

/** Waits on 429 at most this often before giving up. */
const MAX_RATE_LIMIT_RETRIES = 5;
/** Retries a 5xx or a dropped connection at most this often, and only when repeating is safe. */
const MAX_TRANSIENT_RETRIES = 2;
/** Longer waits than this are not worth holding an execution for: the error goes to the user instead. */
const MAX_WAIT_MS = 60_000;

/** The credential chosen by the node's `authentication` parameter. */
export function credentialTypeOf(context: StoraContext): CredentialType {
	const authentication = (context.getNodeParameter as (name: string, fallback: unknown) => unknown).call(
		context,
		'authentication',
		'accessToken',
	);
	return authentication === 'oAuth2' ? 'storaOAuth2Api' : 'storaApi';
}

/** The error as n8n shows it: our own NodeApiError / NodeOperationError as they are, anything else wrapped. */
export function asNodeError(context: StoraContext, error: unknown): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return new NodeOperationError(context.getNode(), error instanceof Error ? error : String(error));
}

/** `<Base URL>/2025-09`, read from whichever credential the node uses. */
export async function versionedBaseUrl(context: StoraContext): Promise<string> {
	const credentials = await context.getCredentials<{ baseUrl?: string }>(credentialTypeOf(context));
	return `${String(credentials.baseUrl ?? '').replace(/\/+$/, '')}/${API_VERSION}`;
}

function header(response: IN8nHttpFullResponse, name: string): string | undefined {
	const value = response.headers?.[name.toLowerCase()];
	return Array.isArray(value) ? String(value[0]) : value === undefined ? undefined : String(value);
}

/** Milliseconds until a rate-limit window reopens, from `Retry-After` (seconds) or `RateLimit-Reset` (epoch seconds). */
export function rateLimitWaitMs(response: IN8nHttpFullResponse, now = Date.now()): number {
	const retryAfter = Number(header(response, 'retry-after'));
	if (Number.isFinite(retryAfter) && retryAfter >= 0) return retryAfter * 1000;
	const reset = Number(header(response, 'ratelimit-reset'));
	if (Number.isFinite(reset) && reset > 0) return Math.max(0, reset * 1000 - now);
	return 1000;
}

/**
 * Paces a sequence of calls (Return All, list search): when the last response says the window is used up, wait for
 * it to reopen instead of running into a 429.
 */
export async function paceByRateLimit(response: IN8nHttpFullResponse): Promise<void> {
	const remaining = header(response, 'ratelimit-remaining');
	if (remaining !== undefined && Number(remaining) <= 0) {
		const reset = Number(header(response, 'ratelimit-reset'));
		if (Number.isFinite(reset) && reset > 0) {
			await sleep(Math.min(MAX_WAIT_MS, Math.max(0, reset * 1000 - Date.now())));
		}
	}
}

function isSafeToRepeat(options: IHttpRequestOptions): boolean {
	const method = (options.method ?? 'GET').toUpperCase();
	if (method !== 'POST') return true;
	const headers = (options.headers ?? {}) as IDataObject;
	return Object.keys(headers).some((name) => name.toLowerCase() === 'idempotency-key');
}

/** A thrown request error (401 that n8n could not refresh, dropped connection) as a full response, if it has one. */
function responseOfError(error: unknown): IN8nHttpFullResponse | undefined {
	const candidate = error as {
		response?: { status?: number; data?: unknown; headers?: IDataObject };
		cause?: { response?: { status?: number; data?: unknown; headers?: IDataObject } };
		httpCode?: string;
	};
	const response = candidate?.response ?? candidate?.cause?.response;
	if (response?.status) {
		return { statusCode: response.status, body: response.data as IN8nHttpResponse, headers: response.headers ?? {} };
	}
	return undefined;
}

/** Redirects followed for a request that must not carry the credential to another host. */
const MAX_REDIRECTS = 5;
const CREDENTIAL_HEADERS = /^(authorization|proxy-authorization|cookie)$/i;

/** Where a request goes: `baseURL` joined with a relative `url`, as n8n's HTTP client does. */
function absoluteUrl(options: IHttpRequestOptions): string {
	if (/^[a-z][a-z0-9+.-]*:\/\//i.test(options.url)) return options.url;
	return `${String(options.baseURL ?? '').replace(/\/+$/, '')}/${options.url.replace(/^\/+/, '')}`;
}

/**
 * `sendCredentialsOnCrossOriginRedirect: false` (n8n's own request option) is honoured here whatever the n8n version:
 * the transport follows the redirects itself and sends the credential only to the API's own origin. The API answers
 * image downloads with a redirect to a pre-signed address on another host, which must not get the bearer token
 * (S3-style hosts reject a request that carries one).
 */
async function followRedirects(
	context: StoraContext,
	credentialType: CredentialType,
	request: IHttpRequestOptions,
	first: IN8nHttpFullResponse,
): Promise<IN8nHttpFullResponse> {
	let response = first;
	let from = absoluteUrl(request);
	const origin = new URL(from).origin;
	for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
		const location = header(response, 'location');
		if (response.statusCode < 300 || response.statusCode >= 400 || !location) return response;
		if (hop === MAX_REDIRECTS) break;
		const target = new URL(location, from);
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
			response = (await context.helpers.httpRequestWithAuthentication.call(
				context,
				credentialType,
				next,
			)) as IN8nHttpFullResponse;
		} else {
			// n8n may have written the credential into the request's headers: none of it goes to the other host.
			const headers = Object.fromEntries(
				Object.entries(request.headers ?? {}).filter(([name]) => !CREDENTIAL_HEADERS.test(name)),
			);
			response = (await context.helpers.httpRequest({ ...next, headers, auth: undefined })) as IN8nHttpFullResponse;
		}
		from = target.href;
	}
	throw new NodeApiError(context.getNode(), { message: 'Too many redirects' }, {
		message: `Stora redirected more than ${MAX_REDIRECTS} times`,
		description: `Last address: ${from}`,
	});
}

/**
 * One call to the Stora API with the node's credential. Waits and retries on 429 (bounded), retries 5xx and
 * dropped connections when repeating cannot duplicate a write, and turns every error into a NodeApiError that carries
 * the API's message, code, details and request id. Returns the full response (status, headers, body).
 */
export async function storaRequest(
	context: StoraContext,
	options: IHttpRequestOptions,
	itemIndex?: number,
): Promise<IN8nHttpFullResponse> {
	const credentialType = credentialTypeOf(context);
	const followsRedirectsItself =
		options.sendCredentialsOnCrossOriginRedirect === false && options.disableFollowRedirect !== true;
	const request: IHttpRequestOptions = {
		json: true,
		...options,
		headers: { Accept: 'application/json', ...(options.headers ?? {}) },
		returnFullResponse: true,
		// 401 must still throw inside n8n's helper: that is what triggers the OAuth2 token refresh.
		ignoreHttpStatusErrors: { ignore: true, except: [401] },
		// Redirects that must not carry the credential to another host are followed below, not by n8n.
		...(followsRedirectsItself ? { disableFollowRedirect: true } : {}),
	};

	let rateLimited = 0;
	let transient = 0;
	for (;;) {
		let response: IN8nHttpFullResponse;
		try {
			response = (await context.helpers.httpRequestWithAuthentication.call(
				context,
				credentialType,
				request,
			)) as IN8nHttpFullResponse;
			if (followsRedirectsItself) {
				response = await followRedirects(context, credentialType, request, response);
			}
		} catch (error) {
			const failed = responseOfError(error);
			if (failed) throw toNodeApiError(context.getNode(), failed, itemIndex);
			if (transient < MAX_TRANSIENT_RETRIES && isSafeToRepeat(request)) {
				transient++;
				await sleep(250 * 2 ** transient);
				continue;
			}
			// n8n's own errors (for example an OAuth2 credential that must be reconnected) already say what to do.
			if (error instanceof NodeApiError || error instanceof NodeOperationError) throw asNodeError(context, error);
			throw new NodeApiError(context.getNode(), { message: (error as Error)?.message ?? String(error) }, {
				message: `Could not reach Stora: ${(error as Error)?.message ?? String(error)}`,
				description: 'Check the Base URL in the credential and that the Stora API is reachable from n8n.',
				itemIndex,
			});
		}

		const status = response.statusCode;
		if (status === 429 && rateLimited < MAX_RATE_LIMIT_RETRIES) {
			const waitMs = rateLimitWaitMs(response);
			if (waitMs <= MAX_WAIT_MS) {
				rateLimited++;
				await sleep(waitMs);
				continue;
			}
		}
		if (status >= 500 && transient < MAX_TRANSIENT_RETRIES && isSafeToRepeat(request)) {
			transient++;
			await sleep(250 * 2 ** transient);
			continue;
		}
		if (status >= 400) throw toNodeApiError(context.getNode(), response, itemIndex);
		return response;
	}
}
