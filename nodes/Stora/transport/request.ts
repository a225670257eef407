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
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import { allowedDomainsOf } from '../helpers/allowedDomains';
import { credentialTypeForAuthentication, type CredentialType } from '../helpers/authentication';
import { API_VERSION, OAUTH_PATH } from '../helpers/constants';
import { responseOfError, sendWithCredential } from './credentialRequest';
import { absoluteUrl, type AuthenticatedSend, checkAllowed, DomainNotAllowed, followRedirects } from './redirects';
import { toNodeApiError } from './errors';
import { budgetKey, credentialLimits } from './account';
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
		(context.getNodeParameter as (name: string, fallback: unknown) => unknown).call(context, 'authentication', 'accessToken'),
	);
}

/** The error as n8n shows it: our own NodeApiError / NodeOperationError as they are, anything else wrapped. */
export function asNodeError(context: StoraContext, error: unknown): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return new NodeOperationError(context.getNode(), error instanceof Error ? error : String(error));
}

/** The credential's Base URL without a trailing slash: where the OAuth endpoints (`/oauth2/...`) live. */
const apiRoot = (credentials: { baseUrl?: unknown }) => String(credentials.baseUrl ?? '').replace(/\/+$/, '');

/** `<Base URL>/2025-09` of a credential's data. */
const versioned = (credentials: { baseUrl?: unknown }) => `${apiRoot(credentials)}/${API_VERSION}`;

function isSafeToRepeat(options: IHttpRequestOptions): boolean {
	const method = (options.method ?? 'GET').toUpperCase();
	if (method !== 'POST') return true;
	const headers = (options.headers ?? {}) as IDataObject;
	return Object.keys(headers).some((name) => name.toLowerCase() === 'idempotency-key');
}

/** The rate-limit budget a request counts against, the limits the credential sets for it, and its API address. */
interface BudgetRef {
	key: string;
	limits?: RateLimitWindow[];
	/** `<Base URL>/2025-09`: where a request without its own `baseURL` goes. */
	baseURL: string;
	/** `<Base URL>`: where a request to an OAuth endpoint (`/oauth2/...`) without its own `baseURL` goes. */
	rootURL: string;
	/** The access token, for the access-token credential: the transport sends it itself (see `budgetedSender`). */
	accessToken?: string;
	/** The credential's Allowed HTTP Request Domains (helpers/allowedDomains.ts); undefined when it sets no limit. */
	allowedDomains?: string;
}

/** Credential reads, kept with what they serve (see `credentialsOf`); each goes when that goes. */
const credentialReads = new WeakMap<object, Promise<IDataObject>>();

/**
 * The credential, read once per node run (as n8n's own RoutingNode does before it builds any item's request) or once
 * per context elsewhere, however many requests the items and pages make: on n8n 2.x every read is a database query, a
 * decryption and every credential field's display condition, the Base URL notice's regular expression among them, run
 * in a sandbox with a time limit. The items of one run share n8n's execute data;
 * a poll, a webhook hook or a list search has none of its own and reads for itself. A failed read is not kept.
 */
async function credentialsOf(context: StoraContext, credentialType: CredentialType): Promise<IDataObject> {
	const run = 'getInputData' in context && 'getExecuteData' in context ? (context.getExecuteData() as object | undefined) : undefined;
	const owner: object = run ?? context;
	let read = credentialReads.get(owner);
	if (!read) {
		read = context.getCredentials<IDataObject>(credentialType);
		credentialReads.set(owner, read);
		read.catch(() => credentialReads.delete(owner));
	}
	return await read;
}

/**
 * Which rate-limit budget a request counts against: the credential at its base URL, with its Rate Limit settings.
 * The access token names it; for OAuth2 the client id plus the stored credential (each connected operator has its
 * own limit, and the token itself rotates). Two credentials on one Stora account have two budgets, each believing
 * it has the account's whole limit: a 429 pauses and slows each one. The limits the credential sets are part of the
 * key, so changing them starts a fresh budget.
 */
async function budgetOf(context: StoraContext, credentialType: CredentialType): Promise<BudgetRef> {
	const credentials = await credentialsOf(context, credentialType);
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
		key: budgetKey(baseUrl, `${account}\nlimits:${JSON.stringify(limits ?? 'documented')}`),
		limits,
		baseURL: versioned(credentials),
		rootURL: apiRoot(credentials),
		accessToken: credentialType === 'storaApi' ? String(credentials.accessToken ?? '') : undefined,
		allowedDomains: allowedDomainsOf(credentials),
	};
}

/** The Allowed HTTP Request Domains of the credential the node uses (read once per run, as every request reads it). */
export async function allowedDomainsFor(context: StoraContext): Promise<string | undefined> {
	return (await budgetOf(context, credentialTypeOfNode(context))).allowedDomains;
}

/**
 * Sends through `sendWithCredential`, each HTTP call of it queued for the account's rate-limit budget (which retries
 * 429s), so the budget sees every answer's status and headers.
 *
 * The access token goes in the Authorization header here, as the credential's `authenticate` says
 * (`Bearer <token>`), from the credential read once per run: n8n's own way evaluates that expression in its
 * expression sandbox and reads the credential again on every request. OAuth2 requests go through n8n, which keeps
 * and refreshes the token.
 */
function budgetedSender(context: StoraContext, credentialType: CredentialType, { key, limits, accessToken }: BudgetRef): AuthenticatedSend {
	const signal = (context as Partial<IExecuteFunctions>).getExecutionCancelSignal?.();
	const call = async (request: IHttpRequestOptions) =>
		(credentialType === 'storaApi'
			? await context.helpers.httpRequest({ ...request, headers: { ...(request.headers ?? {}), Authorization: `Bearer ${accessToken ?? ''}` } })
			: await context.helpers.httpRequestWithAuthentication.call(context, credentialType, request)) as IN8nHttpFullResponse;
	const once = async (request: IHttpRequestOptions) =>
		await rateLimits.send(key, async () => await call(request), (response) => ({ statusCode: response.statusCode, headers: response.headers as IDataObject }), {
			signal,
			limits,
		});
	return async (request) => await sendWithCredential(once, credentialType, request, isSafeToRepeat(request));
}

/** Whether a request failed because its attempt ran out of time (n8n's HTTP client: axios's timeout). */
function isTimeout(error: unknown): boolean {
	const failure = error as { code?: unknown; message?: unknown; cause?: { code?: unknown; message?: unknown } } | undefined;
	const codes = [failure?.code, failure?.cause?.code];
	return codes.includes('ECONNABORTED') || codes.includes('ETIMEDOUT') || /timeout of \d+ ?ms exceeded/i.test(`${String(failure?.message)} ${String(failure?.cause?.message)}`);
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
function timedOut(context: StoraContext, request: IHttpRequestOptions, attempts: number, itemIndex?: number) {
	const seconds = `${Number(request.timeout) / 1000} s`;
	const onTheNode = /\.stora(Tool)?$/.test(context.getNode().type);
	return new NodeApiError(context.getNode(), { message: `timeout of ${request.timeout}ms exceeded` }, {
		message: `Stora did not answer within the timeout of ${seconds} (${attempts} ${attempts === 1 ? 'attempt' : 'attempts'})`,
		description: onTheNode
			? `Each attempt waits at most the Timeout under Settings → Request Options (${DEFAULT_TIMEOUT_MS / 1000} s when it is not set). Raise it if Stora is slow to answer this request, or check that Stora is reachable from n8n.`
			: `Each attempt waits at most ${seconds}. Check that Stora is reachable from n8n.`,
		itemIndex,
	});
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
	const budget = await budgetOf(context, credentialType);
	const send = budgetedSender(context, credentialType, budget);
	// Redirects are followed here where the credential must not reach another host, or another domain the credential's
	// Allowed HTTP Request Domains leave out (n8n checks those too from 2.x on; the transport does on every version).
	const followsRedirectsItself =
		(options.sendCredentialsOnCrossOriginRedirect === false || budget.allowedDomains !== undefined) && options.disableFollowRedirect !== true;
	const request: IHttpRequestOptions = {
		json: true,
		...options,
		// Without its own base URL a request goes to the credential's (the Stora node has no requestDefaults.baseURL:
		// n8n would evaluate that expression twice per item). The OAuth endpoints live beside the versioned API; their
		// operations name no base URL either, since n8n before 2.x evaluates an operation's routing with no $credentials.
		baseURL: options.baseURL ?? (OAUTH_PATH.test(options.url) ? budget.rootURL : budget.baseURL),
		headers: { Accept: 'application/json', ...(options.headers ?? {}) },
		returnFullResponse: true,
		timeout: options.timeout ?? DEFAULT_TIMEOUT_MS,
		...(followsRedirectsItself ? { disableFollowRedirect: true } : {}),
		...(budget.allowedDomains !== undefined ? { allowedDomains: budget.allowedDomains } : {}),
	};
	checkAllowed(context, absoluteUrl(request), budget.allowedDomains, itemIndex);
	const isDelete = (request.method ?? 'GET').toUpperCase() === 'DELETE';

	let transient = 0;
	// An earlier attempt may have reached the API although its answer never came back (dropped connection, 5xx).
	let outcomeUnknown = false;
	for (;;) {
		let response: IN8nHttpFullResponse;
		try {
			response = await send(request);
			if (followsRedirectsItself) response = await followRedirects(context, send, request, response, budget.allowedDomains);
		} catch (error) {
			if (error instanceof DomainNotAllowed) throw asNodeError(context, error);
			const failed = responseOfError(error);
			if (failed) throw toNodeApiError(context.getNode(), failed, itemIndex);
			const cancelled = (context as Partial<IExecuteFunctions>).getExecutionCancelSignal?.()?.aborted === true;
			if (!cancelled && transient < MAX_TRANSIENT_RETRIES && isSafeToRepeat(request)) {
				transient++;
				outcomeUnknown = true;
				await sleep(250 * 2 ** transient);
				continue;
			}
			// n8n's own errors (for example an OAuth2 credential that must be reconnected) already say what to do.
			if (error instanceof NodeApiError || error instanceof NodeOperationError) throw asNodeError(context, error);
			if (isTimeout(error)) throw timedOut(context, request, transient + 1, itemIndex);
			throw new NodeApiError(context.getNode(), { message: (error as Error)?.message ?? String(error) }, {
				message: `Could not reach Stora: ${(error as Error)?.message ?? String(error)}`,
				description: 'Check the Base URL in the credential and that the Stora API is reachable from n8n.',
				itemIndex,
			});
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
