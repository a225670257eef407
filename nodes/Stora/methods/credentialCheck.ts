import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	IDataObject,
	INodeCredentialTestResult,
} from 'n8n-workflow';

import { API_VERSION } from '../helpers/constants';

/*
 * The Stora API credential's connection test, as a function rather than the credential's own `test` request: n8n
 * shows a `test` request's messages (`test.rules`) only from 2.41 on (older n8n-workflow drops the answer from the
 * error, and n8n then shows its generic text), and has no rule at all for an unreachable host or a wrong Base URL.
 * This says what went wrong on every n8n the package supports.
 */

/** How long the test waits for Stora before saying it could not reach it. */
const TEST_TIMEOUT_MS = 20_000;

const error = (message: string): INodeCredentialTestResult => ({ status: 'Error', message });

/** The answer to the test's request, whatever its status; or why there was none. */
type Answer = { statusCode: number; body: unknown } | { failure: string };

function messageOf(body: unknown): string {
	const envelope =
		body && typeof body === 'object'
			? (body as { error?: { message?: unknown } }).error
			: undefined;
	return typeof envelope?.message === 'string' ? envelope.message : '';
}

/** A loopback or private-network address: where the Stora sandbox runs, never the Stora Public API. */
function isLocal(baseUrl: string): boolean {
	const host = /^https?:\/\/(\[[^\]]+\]|[^/:]+)/i.exec(baseUrl)?.[1]?.toLowerCase() ?? '';
	return (
		/^(localhost|127\.\d+\.\d+\.\d+|\[::1\]|10\.\d+\.\d+\.\d+|192\.168\.\d+\.\d+|172\.(1[6-9]|2\d|3[01])\.\d+\.\d+)$/.test(
			host,
		) || host.endsWith('.local')
	);
}

/** What to check about the Base URL the user typed: the sandbox's address when it is local, else Stora's own. */
function baseUrlAdvice(baseUrl: string): string {
	if (isLocal(baseUrl)) {
		return `Check that the Stora sandbox runs at ${baseUrl} (npm start or npm run sandbox in the n8n-nodes-stora repository; by default http://127.0.0.1:4010) and that n8n can reach it.`;
	}
	return `Check the Base URL ${baseUrl}: Stora's is https://public-api.stora.co, without /${API_VERSION}; and that n8n can reach it.`;
}

/** Where the API's root is, for a Base URL that points elsewhere: the sandbox's form when it is local. */
function rootAdvice(baseUrl: string): string {
	return isLocal(baseUrl)
		? `Use the sandbox's address with nothing after the port, for example http://127.0.0.1:4010 (the node adds /${API_VERSION} itself).`
		: `Use https://public-api.stora.co, without /${API_VERSION}.`;
}

/** Lists one site, the cheapest call every useful token can make (site dropdowns need it). */
export async function storaApiConnectionTest(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted<ICredentialDataDecryptedObject>,
): Promise<INodeCredentialTestResult> {
	const data = credential.data ?? {};
	const baseUrl = String(data.baseUrl ?? '')
		.trim()
		.replace(/\/+$/, '');
	if (!/^https?:\/\/[^/\s]+/i.test(baseUrl)) {
		return error(
			`The Base URL "${baseUrl}" is not a web address. Use https://public-api.stora.co (without /${API_VERSION}).`,
		);
	}
	const url = `${baseUrl}/${API_VERSION}/sites`;
	// The one HTTP helper n8n gives a connection test function (ICredentialTestFunctions), on every version.
	const { request } = this.helpers;
	let answer: Answer;
	try {
		const response = (await request({
			method: 'GET',
			uri: url,
			qs: { limit: 1 },
			headers: {
				Accept: 'application/json',
				Authorization: `Bearer ${String(data.accessToken ?? '')}`,
			},
			json: true,
			resolveWithFullResponse: true,
			simple: false,
			timeout: TEST_TIMEOUT_MS,
		})) as { statusCode: number; body: unknown };
		answer = { statusCode: response.statusCode, body: response.body };
	} catch (failure) {
		const cause = failure as { code?: unknown; cause?: { code?: unknown }; message?: unknown };
		answer = { failure: String(cause.code ?? cause.cause?.code ?? cause.message ?? failure) };
	}

	if ('failure' in answer) {
		return error(`Could not reach ${baseUrl} (${answer.failure}). ${baseUrlAdvice(baseUrl)}`);
	}
	const { statusCode, body } = answer;
	if (statusCode >= 200 && statusCode < 300) {
		if (body && typeof body === 'object' && Array.isArray((body as IDataObject).sites)) {
			return { status: 'OK', message: 'Connection successful: Stora accepted the access token.' };
		}
		return error(
			`${url} answered HTTP ${statusCode}, but not with Stora's list of sites: the Base URL does not point at the Stora Public API. ${rootAdvice(baseUrl)}`,
		);
	}
	if (statusCode === 401) {
		return error(
			'Stora rejected the access token (invalid, revoked or expired). Generate a new one in BackOffice → Settings → Public API and paste it here.',
		);
	}
	if (statusCode === 403) {
		return error(
			'The access token is valid but lacks the scope public.site:read, which this credential test and the site dropdowns need. Add the scope to the token in BackOffice → Settings → Public API.',
		);
	}
	if (statusCode === 404) {
		return error(
			`Nothing answers at ${url} (HTTP 404): the Base URL does not point at the Stora Public API. ${rootAdvice(baseUrl)}`,
		);
	}
	// n8n's connection test does not retry: say that these answers are about Stora right now, not the token.
	if (statusCode === 429) {
		return error(
			'Stora is rate limiting this account right now (too many requests), so the token could not be checked. Wait a minute and test again.',
		);
	}
	if (statusCode >= 500) {
		return error(
			`Stora answered the connection test with HTTP ${statusCode} (a temporary server error), so the token could not be checked. Test again in a moment.`,
		);
	}
	const said = messageOf(body);
	return error(
		`Stora answered the connection test with HTTP ${statusCode}${said ? `: ${said}` : ''}.`,
	);
}
