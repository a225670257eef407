/*
 * Where the n8n versions the package supports (1.123 to 2.41) differ in how a request with the credential comes back,
 * handled in this one place. It goes by what n8n does, never by its version number.
 *
 * The transport needs every answer as a response, whatever its status: the rate-limit budget reads 429s and their
 * headers, and errors are written from the API's own envelope. An expired OAuth2 token, however, must reach n8n as a
 * thrown 401, because that is what makes n8n refresh it (and store a rotated refresh token). n8n-workflow 2.x takes
 * `ignoreHttpStatusErrors: { ignore: true, except: [401] }` for exactly that. n8n-workflow 1.x knows only a boolean
 * there: it takes the object for `true`, hands the 401 back as a response, and never refreshes.
 */
import type {
	IDataObject,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	IN8nHttpResponse,
} from 'n8n-workflow';

import type { CredentialType } from '../helpers/authentication';

/** One HTTP request through n8n with the credential (`httpRequestWithAuthentication`), as a full response. */
export type CredentialSend = (request: IHttpRequestOptions) => Promise<IN8nHttpFullResponse>;

type ErrorWithResponse = {
	response?: { status?: number; data?: unknown; headers?: IDataObject };
	cause?: { response?: { status?: number; data?: unknown; headers?: IDataObject } };
};

/**
 * The API's answer a thrown request error carries (n8n's HTTP errors keep it on `cause` from n8n-workflow 2.41 on),
 * as a full response; undefined when there is none (no answer, or an n8n older than 2.41 that dropped it).
 */
export function responseOfError(error: unknown): IN8nHttpFullResponse | undefined {
	const candidate = error as ErrorWithResponse | undefined;
	const response = candidate?.response ?? candidate?.cause?.response;
	if (response?.status) {
		return {
			statusCode: response.status,
			body: response.data as IN8nHttpResponse,
			headers: response.headers ?? {},
		};
	}
	return undefined;
}

/** Every status as a response except 401, which n8n's OAuth2 helper needs thrown to refresh the token (n8n 2.x). */
const ALL_BUT_401 = { ignore: true as const, except: [401] };

/**
 * Sends `request` with the credential and returns the API's answer as a full response, whatever its status.
 *
 * - Access token: every status comes back as a response (nothing to refresh).
 * - OAuth2: sent with `except: [401]`. On n8n 2.x a 401 reaches n8n's helper, which refreshes the token and repeats
 *   the request. A 401 that comes back as a response means this n8n ignored `except` (1.x): the request is sent once
 *   more with `ignoreHttpStatusErrors: false`, so n8n sees the 401, refreshes and repeats it. If that repeat fails
 *   with an error that no longer carries the API's answer (n8n-workflow before 2.41 drops it), the request is asked
 *   once more the first way, now with the fresh token, to get the answer in full (status, headers, body) when
 *   `safeToRepeat`; a 401 then means the refresh did not help, and n8n's own error says why.
 *
 * `send` is one HTTP request; the caller counts each against the rate-limit budget.
 */
export async function sendWithCredential(
	send: CredentialSend,
	credentialType: CredentialType,
	request: IHttpRequestOptions,
	safeToRepeat: boolean,
): Promise<IN8nHttpFullResponse> {
	if (credentialType === 'storaApi')
		return await send({ ...request, ignoreHttpStatusErrors: true });
	const first = await send({ ...request, ignoreHttpStatusErrors: ALL_BUT_401 });
	if (first.statusCode !== 401) return first;
	try {
		return await send({ ...request, ignoreHttpStatusErrors: false });
	} catch (error) {
		const answer = responseOfError(error);
		if (answer) return answer;
		// n8n's own error goes on as it is: storaRequest turns it into the node's error.
		if (!safeToRepeat) return await Promise.reject(error);
		const again = await send({ ...request, ignoreHttpStatusErrors: ALL_BUT_401 });
		return again.statusCode === 401 ? await Promise.reject(error) : again;
	}
}
