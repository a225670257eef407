/**
 * sendWithCredential (transport/credentialRequest.ts), the one place where the supported n8n versions differ in how
 * a request with the credential comes back: each path through it, with n8n-core's real request helper, token refresh
 * and credential store against the sandbox. n8n 2.x honours `ignoreHttpStatusErrors.except`; n8n-workflow 1.x reads
 * the option as a boolean, which `asN8n1` reproduces on the same real helper (the e2e suite runs the path in a real
 * n8n 1.123), and n8n-workflow before 2.41 also drops the API's answer from a thrown error (`dropAnswer`).
 */
/* eslint-disable @n8n/community-nodes/require-node-api-error -- test under test/: re-throws n8n's error as n8n-workflow 1.x would */
import type { IHttpRequestOptions, IN8nHttpFullResponse } from 'n8n-workflow';

import type { CredentialType } from '../../../nodes/Stora/helpers/authentication';
import {
	sendWithCredential,
	type CredentialSend,
} from '../../../nodes/Stora/transport/credentialRequest';
import { loadOptionsContext } from '../../helpers/loadOptions';
import { oauthCredentials, type CredentialStore } from '../../helpers/n8n';
import { useSandboxForNode } from '../../helpers/sandboxFixture';

const REDIRECT = 'http://127.0.0.1:5678/rest/oauth2-credential/callback';
const listSites: IHttpRequestOptions = {
	method: 'GET',
	url: '/sites',
	qs: { limit: 1 },
	json: true,
	returnFullResponse: true,
};

describe('sendWithCredential: the request paths of the supported n8n versions', () => {
	const fixture = useSandboxForNode();
	const requests = async () =>
		(await fixture.client.requests()).map(
			(request) => `${request.method} ${request.path} ${request.status}`,
		);

	/** One HTTP request through n8n-core's own helper with the credential, as the transport makes it. */
	function n8nSend(store: CredentialStore, credentialType: CredentialType): CredentialSend {
		const authentication = credentialType === 'storaApi' ? 'accessToken' : 'oAuth2';
		const context = loadOptionsContext(store, { authentication });
		const baseURL = `${fixture.sandbox.url}/2025-09`;
		return async (request) =>
			(await context.helpers.httpRequestWithAuthentication.call(context, credentialType, {
				...request,
				baseURL,
			})) as IN8nHttpFullResponse;
	}

	/** n8n-workflow 1.x: `ignoreHttpStatusErrors` is a boolean, so `{ ignore: true, except: [401] }` counts as true. */
	const asN8n1 =
		(send: CredentialSend): CredentialSend =>
		async (request) =>
			await send({ ...request, ignoreHttpStatusErrors: Boolean(request.ignoreHttpStatusErrors) });

	/** n8n-workflow before 2.41: the NodeApiError n8n throws no longer carries the API's answer (its `cause`). */
	const dropAnswer =
		(send: CredentialSend): CredentialSend =>
		async (request) => {
			try {
				return await send(request);
			} catch (error) {
				const stripped = error as { cause?: unknown; response?: unknown };
				delete stripped.cause;
				delete stripped.response;
				throw error;
			}
		};

	async function clientCredentialsStore() {
		const app = await fixture.client.oauthClient([REDIRECT]);
		return oauthCredentials(fixture.sandbox.url, app);
	}
	const tokenOf = (store: CredentialStore) =>
		(store.storaOAuth2Api.oauthTokenData as { access_token?: string })?.access_token;

	/** A first request, which gets n8n an OAuth2 token; then that token expired and the request log emptied. */
	async function expireAfterFirstRequest(send: CredentialSend, store: CredentialStore) {
		expect((await sendWithCredential(send, 'storaOAuth2Api', listSites, true)).statusCode).toBe(
			200,
		);
		const first = tokenOf(store);
		await fixture.client.expireTokens();
		await fixture.client.clearRequests();
		return first;
	}

	it('n8n 2.x (except honoured): an expired OAuth2 token reaches n8n as a 401, n8n refreshes it, one request', async () => {
		const store = await clientCredentialsStore();
		const send = n8nSend(store, 'storaOAuth2Api');
		const first = await expireAfterFirstRequest(send, store);

		const response = await sendWithCredential(send, 'storaOAuth2Api', listSites, true);
		expect(response.statusCode).toBe(200);
		expect(tokenOf(store)).not.toBe(first);
		expect(await requests()).toEqual([
			'GET /2025-09/sites 401',
			'POST /oauth2/token 200',
			'GET /2025-09/sites 200',
		]);
	});

	it('n8n 1.x (except ignored): the 401 comes back as a response, is sent again for n8n to refresh, and succeeds', async () => {
		const store = await clientCredentialsStore();
		const send = asN8n1(n8nSend(store, 'storaOAuth2Api'));
		const first = await expireAfterFirstRequest(send, store);

		const response = await sendWithCredential(send, 'storaOAuth2Api', listSites, true);
		expect(response.statusCode).toBe(200);
		expect(response.body).toMatchObject({ sites: expect.any(Array) });
		expect(tokenOf(store)).not.toBe(first);
		expect(await requests()).toEqual([
			'GET /2025-09/sites 401',
			'GET /2025-09/sites 401',
			'POST /oauth2/token 200',
			'GET /2025-09/sites 200',
		]);

		// The refreshed token is stored: the next request goes straight through.
		await fixture.client.clearRequests();
		expect((await sendWithCredential(send, 'storaOAuth2Api', listSites, true)).statusCode).toBe(
			200,
		);
		expect(await requests()).toEqual(['GET /2025-09/sites 200']);
	});

	it('n8n 1.x: any other status comes back as a response with its headers (the rate-limit budget reads them)', async () => {
		const store = await clientCredentialsStore();
		const send = asN8n1(n8nSend(store, 'storaOAuth2Api'));
		await fixture.client.fault({ method: 'GET', path: '/2025-09/sites' }, [
			{ status: 429, headers: { 'Retry-After': '7' } },
		]);
		const response = await sendWithCredential(send, 'storaOAuth2Api', listSites, true);
		expect(response.statusCode).toBe(429);
		expect(response.headers['retry-after']).toBe('7');
		expect((await requests()).filter((line) => line.startsWith('GET'))).toEqual([
			'GET /2025-09/sites 429',
		]);
	});

	it('n8n before 2.41 (answer dropped from the error): a failure after the refresh is asked again and returned in full', async () => {
		const store = await clientCredentialsStore();
		const send = dropAnswer(asN8n1(n8nSend(store, 'storaOAuth2Api')));
		await expireAfterFirstRequest(send, store);
		// The two requests with the expired token answer 401 by themselves; the refreshed one and the one asked again get 429.
		await fixture.client.fault({ method: 'GET', path: '/2025-09/sites' }, [
			{ status: 401 },
			{ status: 401 },
			{ status: 429, headers: { 'Retry-After': '3' } },
			{ status: 429, headers: { 'Retry-After': '3' } },
		]);

		const response = await sendWithCredential(send, 'storaOAuth2Api', listSites, true);
		expect(response.statusCode).toBe(429);
		expect(response.headers['retry-after']).toBe('3');
		expect(await requests()).toEqual([
			'GET /2025-09/sites 401',
			'GET /2025-09/sites 401',
			'POST /oauth2/token 200',
			'GET /2025-09/sites 429',
			'GET /2025-09/sites 429',
		]);
	});

	it("n8n before 2.41: a write that must not be repeated is not asked again; n8n's error goes on", async () => {
		const store = await clientCredentialsStore();
		const send = dropAnswer(asN8n1(n8nSend(store, 'storaOAuth2Api')));
		await expireAfterFirstRequest(send, store);
		await fixture.client.fault({ method: 'POST', path: '/2025-09/contacts' }, [
			{ status: 401 },
			{ status: 401 },
			{ status: 500 },
		]);

		const create = {
			...listSites,
			method: 'POST' as const,
			url: '/contacts',
			qs: undefined,
			body: { full_name: 'Once Only' },
		};
		await expect(sendWithCredential(send, 'storaOAuth2Api', create, false)).rejects.toMatchObject({
			httpCode: '500',
		});
		expect((await requests()).filter((line) => line.includes('/contacts'))).toEqual([
			'POST /2025-09/contacts 401',
			'POST /2025-09/contacts 401',
			'POST /2025-09/contacts 500',
		]);
	});

	it("n8n 1.x: when the refresh itself fails, n8n's error says so (no Stora answer is made up)", async () => {
		const app = await fixture.client.oauthClient([REDIRECT]);
		const store = oauthCredentials(fixture.sandbox.url, app, 'authorizationCode', {
			access_token: 'expired-access-token',
			refresh_token: 'revoked-refresh-token',
			token_type: 'Bearer',
		});
		const send = dropAnswer(asN8n1(n8nSend(store, 'storaOAuth2Api')));
		await fixture.client.clearRequests();
		await expect(sendWithCredential(send, 'storaOAuth2Api', listSites, true)).rejects.toThrow(
			/reconnected/,
		);
		expect(await requests()).toEqual([
			'GET /2025-09/sites 401',
			'GET /2025-09/sites 401',
			'POST /oauth2/token 400',
			'GET /2025-09/sites 401',
		]);
	});

	it.each([
		['n8n 2.x', (send: CredentialSend) => send],
		['n8n 1.x', asN8n1],
	])('%s, access token: a 401 comes back as a response, sent once', async (_label, behave) => {
		const store: CredentialStore = {
			storaApi: { baseUrl: fixture.sandbox.url, accessToken: 'not-a-token' },
		};
		const response = await sendWithCredential(
			behave(n8nSend(store, 'storaApi')),
			'storaApi',
			listSites,
			true,
		);
		expect(response.statusCode).toBe(401);
		expect(await requests()).toEqual(['GET /2025-09/sites 401']);
	});
});
