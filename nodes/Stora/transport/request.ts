import type {
	IDataObject,
	IExecuteFunctions,
	IExecuteSingleFunctions,
	IHookFunctions,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IN8nHttpFullResponse,
	IPollFunctions,
} from 'n8n-workflow';
import * as n8nWorkflow from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import { credentialTypeForAuthentication, type CredentialType } from '../helpers/authentication';
import { API_VERSION, OAUTH_PATH } from '../helpers/constants';
import { responseOfError, sendWithCredential } from './credentialRequest';
import { toNodeApiError } from './errors';
import { rateLimitKey, credentialLimits } from './credentialRateLimit';
import { rateLimits } from './rateLimit/instance';
import type { RateLimitWindow } from './rateLimit/policy';

export type StoraContext =
	| IExecuteSingleFunctions
	| IExecuteFunctions
	| ILoadOptionsFunctions
	| IHookFunctions
	| IPollFunctions;

/**
 * How long one attempt may wait for its answer before it counts as lost (retried when repeating is safe), when the
 * node's Timeout (Settings → Request Options) is not set.
 */
const DEFAULT_TIMEOUT_MS = 60_000;

/** Retries a 5xx or a dropped connection at most this often, and only when repeating is safe. */
const MAX_TRANSIENT_RETRIES = 2;

/** The credential chosen by the node's `authentication` parameter. */
function credentialTypeOfNode(context: StoraContext): CredentialType {
	return credentialTypeForAuthentication(
		(context.getNodeParameter as (name: string, fallback: unknown) => unknown).call(
			context,
			'authentication',
			'accessToken',
		),
	);
}

/** The error as n8n shows it: our own NodeApiError / NodeOperationError as they are, anything else wrapped. */
export function asNodeError(
	context: StoraContext,
	error: unknown,
): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return new NodeOperationError(context.getNode(), error instanceof Error ? error : String(error));
}

/** The credential's Base URL without a trailing slash: where the OAuth endpoints (`/oauth2/...`) live. */
const apiRoot = (credentials: { baseUrl?: unknown }) =>
	String(credentials.baseUrl ?? '').replace(/\/+$/, '');

/** `<Base URL>/2025-09` of a credential's data. */
const versioned = (credentials: { baseUrl?: unknown }) => `${apiRoot(credentials)}/${API_VERSION}`;

function isSafeToRepeat(options: IHttpRequestOptions): boolean {
	const method = (options.method ?? 'GET').toUpperCase();
	if (method !== 'POST') return true;
	const headers = (options.headers ?? {}) as IDataObject;
	return Object.keys(headers).some((name) => name.toLowerCase() === 'idempotency-key');
}

/** What a request takes from its credential: its rate-limit budget and limits, its API address, its domain list. */
interface CredentialSettings {
	/** The rate-limit budget it counts against (`rateLimitKey`). */
	key: string;
	limits?: RateLimitWindow[];
	/** `<Base URL>/2025-09`: where a request without its own `baseURL` goes. */
	baseURL: string;
	/** `<Base URL>`: where a request to an OAuth endpoint (`/oauth2/...`) without its own `baseURL` goes. */
	rootURL: string;
	/** The credential's Allowed HTTP Request Domains as n8n reads them for a node's own credential (see `allowedDomainsOf`). */
	allowedDomains?: string;
}

/**
 * The credential's Allowed HTTP Request Domains, read by n8n's own function where the running n8n has one (2.x: what
 * RoutingNode puts on a declarative node's requests; n8n's HTTP client then refuses another host, on redirects too).
 * Undefined where it sets no limit, or where this n8n has no such function (it then checks nothing for its own nodes
 * either: docs/compatibility.md).
 */
function allowedDomainsOf(context: StoraContext, credentials: IDataObject): string | undefined {
	const read = (n8nWorkflow as Partial<typeof n8nWorkflow>).getCredentialAllowedDomains;
	return read?.({
		node: context.getNode(),
		credentialData: credentials as n8nWorkflow.ICredentialDataDecryptedObject,
		credentialOwnedSurface: true,
	});
}

/**
 * Which rate-limit budget a request counts against: the credential at its base URL, with its Rate Limit settings.
 * The access token names it; for OAuth2 the client id plus the stored credential (each connected operator has its
 * own limit, and the token itself rotates). Two credentials on one Stora account have two budgets, each believing
 * it has the account's whole limit: a 429 pauses and slows each one. The limits the credential sets are part of the
 * key, so changing them starts a fresh budget.
 */
async function credentialSettingsOf(
	context: StoraContext,
	credentialType: CredentialType,
): Promise<CredentialSettings> {
	const credentials = await context.getCredentials<IDataObject>(credentialType);
	const baseUrl = String(credentials.baseUrl ?? '');
	let limits: RateLimitWindow[] | undefined;
	try {
		limits = credentialLimits(credentials);
	} catch (error) {
		throw new NodeOperationError(context.getNode(), (error as Error).message, {
			description: 'Open the Stora credential and correct its Rate Limit settings.',
		});
	}
	const stored = context.getNode().credentials?.[credentialType];
	const account =
		credentialType === 'storaApi'
			? `token:${String(credentials.accessToken ?? '')}`
			: `oauth2:${String(credentials.clientId ?? '')}:${stored?.id ?? stored?.name ?? ''}`;
	return {
		key: rateLimitKey(baseUrl, `${account}\nlimits:${JSON.stringify(limits ?? 'documented')}`),
		limits,
		baseURL: versioned(credentials),
		rootURL: apiRoot(credentials),
		allowedDomains: allowedDomainsOf(context, credentials),
	};
}

/**
 * Sends through `sendWithCredential` with n8n's `httpRequestWithAuthentication` (the credential's header, OAuth2
 * tokens kept and refreshed by n8n), each HTTP call queued for the account's rate-limit budget (which retries 429s),
 * so the budget sees every answer's status and headers.
 */
function rateLimitedSender(
	context: StoraContext,
	credentialType: CredentialType,
	{ key, limits }: CredentialSettings,
) {
	const signal = (context as Partial<IExecuteFunctions>).getExecutionCancelSignal?.();
	const call = async (request: IHttpRequestOptions) =>
		(await context.helpers.httpRequestWithAuthentication.call(
			context,
			credentialType,
			request,
		)) as IN8nHttpFullResponse;
	const once = async (request: IHttpRequestOptions) =>
		await rateLimits.send(
			key,
			async () => await call(request),
			(response) => ({ statusCode: response.statusCode, headers: response.headers as IDataObject }),
			{
				signal,
				limits,
			},
		);
	return async (request: IHttpRequestOptions) =>
		await sendWithCredential(once, credentialType, request, isSafeToRepeat(request));
}

type Failure =
	| {
			code?: unknown;
			httpCode?: unknown;
			address?: unknown;
			port?: unknown;
			message?: unknown;
			cause?: unknown;
	  }
	| undefined;

/** The error and the errors it wraps (n8n's NodeApiError around axios's error around the socket's). */
function chainOf(error: unknown): Failure[] {
	const chain: Failure[] = [];
	for (
		let at = error as Failure;
		at && typeof at === 'object' && chain.length < 4;
		at = at.cause as Failure
	)
		chain.push(at);
	return chain;
}

/** A request n8n refused for the credential's Allowed HTTP Request Domains (nothing was sent): never retried. */
const domainRefusal = (error: unknown) =>
	chainOf(error).find((part) => /^Domain not allowed/.test(String(part?.message)))?.message as
		| string
		| undefined;

/** A failure to connect or a connection lost (a socket error code), as opposed to an answer or a refusal of n8n's. */
const isNetworkFailure = (error: unknown) =>
	chainOf(error).some((part) => typeof part?.code === 'string' && /^E[A-Z_]+$/.test(part.code));

/**
 * The proxy of Settings → Request Options when it is what could not be reached (the connection failed to its host
 * and port), so that the error names the proxy, not Stora.
 */
function unreachableProxy(request: IHttpRequestOptions, error: unknown): string | undefined {
	const proxy = request.proxy;
	if (!proxy || typeof proxy !== 'object') return undefined;
	const at = chainOf(error).some(
		(part) =>
			(part?.port !== undefined && Number(part.port) === Number(proxy.port)) ||
			String(part?.message ?? '').includes(`${proxy.host}:${proxy.port}`),
	);
	return at ? `${proxy.protocol ?? 'http'}://${proxy.host}:${proxy.port}` : undefined;
}

/** Whether a request failed because its attempt ran out of time (n8n's HTTP client: axios's timeout). */
function isTimeout(error: unknown): boolean {
	const chain = chainOf(error);
	// n8n 1.x keeps axios's code only as the NodeApiError's httpCode (its message then says "connection was aborted").
	const codes = chain.flatMap((part) => [part?.code, part?.httpCode]);
	return (
		codes.includes('ECONNABORTED') ||
		codes.includes('ETIMEDOUT') ||
		chain.some((part) => /timeout of \d+ ?ms exceeded/i.test(String(part?.message)))
	);
}

/**
 * What a DELETE answers when its retry finds the record gone after an earlier attempt whose answer was lost: the
 * record is gone, which is what was asked; who removed it (our first attempt or someone else) cannot be known.
 */
function goneAfterLostAnswer(response: IN8nHttpFullResponse): IN8nHttpFullResponse {
	return {
		...response,
		statusCode: 200,
		body: {
			success: {
				message:
					'The record is gone: the answer to an earlier attempt was lost, and the retry found no such record (404). Most likely that attempt deleted it; it may also have been deleted by someone else in between.',
			},
		},
	};
}

/** An attempt (and its retries) that waited out the timeout: the error names the setting that decides it. */
function timedOut(
	context: StoraContext,
	request: IHttpRequestOptions,
	attempts: number,
	itemIndex?: number,
) {
	const seconds = `${Number(request.timeout) / 1000} s`;
	const onTheNode = /\.stora(Tool)?$/.test(context.getNode().type);
	return new NodeApiError(
		context.getNode(),
		{ message: `timeout of ${request.timeout}ms exceeded` },
		{
			message: `Stora did not answer within the timeout of ${seconds} (${attempts} ${attempts === 1 ? 'attempt' : 'attempts'})`,
			description: onTheNode
				? `Each attempt waits at most the Timeout under Settings → Request Options (${DEFAULT_TIMEOUT_MS / 1000} s when it is not set). Raise it if Stora is slow to answer this request, or check that Stora is reachable from n8n.`
				: `Each attempt waits at most ${seconds}. Check that Stora is reachable from n8n.`,
			itemIndex,
		},
	);
}

/**
 * One call to the Stora API with the node's credential. Queues for the account's shared rate-limit budget (which
 * also retries 429s, bounded by total waiting time), retries 5xx and dropped connections when repeating cannot
 * duplicate a write, and turns every error into a NodeApiError that carries the API's message, code, details and
 * request id. Returns the full response (status, headers, body).
 */
export async function storaRequest(
	context: StoraContext,
	options: IHttpRequestOptions,
	itemIndex?: number,
): Promise<IN8nHttpFullResponse> {
	const credentialType = credentialTypeOfNode(context);
	const settings = await credentialSettingsOf(context, credentialType);
	const send = rateLimitedSender(context, credentialType, settings);
	const request: IHttpRequestOptions = {
		json: true,
		...options,
		// Without its own base URL a request goes to the credential's (the Stora node has no requestDefaults.baseURL:
		// n8n would evaluate that expression twice per item). The OAuth endpoints live beside the versioned API; their
		// operations name no base URL either, since n8n before 2.x evaluates an operation's routing with no $credentials.
		baseURL:
			options.baseURL ?? (OAUTH_PATH.test(options.url) ? settings.rootURL : settings.baseURL),
		headers: { Accept: 'application/json', ...(options.headers ?? {}) },
		returnFullResponse: true,
		timeout: options.timeout ?? DEFAULT_TIMEOUT_MS,
		// RoutingNode puts the credential's domain limit on the node's requests; a trigger's or a list search's get it here.
		...(options.allowedDomains === undefined && settings.allowedDomains !== undefined
			? { allowedDomains: settings.allowedDomains }
			: {}),
	};
	const isDelete = (request.method ?? 'GET').toUpperCase() === 'DELETE';

	let transient = 0;
	// An earlier attempt may have reached the API although its answer never came back (dropped connection, 5xx).
	let outcomeUnknown = false;
	for (;;) {
		let response: IN8nHttpFullResponse;
		try {
			response = await send(request);
		} catch (error) {
			const refusal = domainRefusal(error);
			if (refusal) {
				// The setting in the message itself: publishing a trigger shows the message alone.
				throw new NodeOperationError(
					context.getNode(),
					`Domain not allowed by the Stora credential's Allowed HTTP Request Domains: ${refusal.replace(/^Domain not allowed:\s*/, '')}`,
					{
						description:
							'Open the credential and add the host under Allowed Domains (or choose All), or set its Base URL to an allowed domain. Nothing was sent.',
						itemIndex,
					},
				);
			}
			const failed = responseOfError(error);
			if (failed) throw toNodeApiError(context.getNode(), failed, itemIndex);
			const cancelled =
				(context as Partial<IExecuteFunctions>).getExecutionCancelSignal?.()?.aborted === true;
			if (!cancelled && transient < MAX_TRANSIENT_RETRIES && isSafeToRepeat(request)) {
				transient++;
				outcomeUnknown = true;
				await sleep(250 * 2 ** transient);
				continue;
			}
			if (isTimeout(error)) throw timedOut(context, request, transient + 1, itemIndex);
			const proxy = unreachableProxy(request, error);
			if (proxy) {
				throw new NodeApiError(
					context.getNode(),
					{ message: (error as Error)?.message ?? String(error) },
					{
						message: `Could not reach the proxy ${proxy}: ${(error as Error)?.message ?? String(error)}`,
						description:
							'Check Settings → Request Options → Proxy on the node: its host and port, and that the proxy is reachable from n8n.',
						itemIndex,
					},
				);
			}
			// n8n's own errors (for example an OAuth2 credential that must be reconnected) already say what to do.
			if (
				!isNetworkFailure(error) &&
				(error instanceof NodeApiError || error instanceof NodeOperationError)
			)
				throw asNodeError(context, error);
			throw new NodeApiError(
				context.getNode(),
				{ message: (error as Error)?.message ?? String(error) },
				{
					message: `Could not reach Stora: ${(error as Error)?.message ?? String(error)}`,
					description:
						'Check the Base URL in the credential and that the Stora API is reachable from n8n.',
					itemIndex,
				},
			);
		}

		const status = response.statusCode;
		if (status >= 500 && transient < MAX_TRANSIENT_RETRIES && isSafeToRepeat(request)) {
			transient++;
			outcomeUnknown = true;
			await sleep(250 * 2 ** transient);
			continue;
		}
		if (status === 404 && isDelete && outcomeUnknown) return goneAfterLostAnswer(response);
		if (status >= 400) throw toNodeApiError(context.getNode(), response, itemIndex);
		return response;
	}
}
