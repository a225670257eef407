/**
 * The Stora API credential's connection test (methods/credentialCheck.ts; not named *Test*: the package scanner refuses such files in the tarball), run as n8n runs it: the function with
 * n8n-core's real CredentialTestContext (its `request` helper) against the sandbox. Each way it can go wrong gets the
 * package's own message, on every n8n version (the e2e suite runs it through n8n's REST API on each).
 */
/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test under test/, never published */
import { createServer } from 'node:net';

import { CredentialTestContext } from 'n8n-core';
import type {
	ICredentialTestFunctions,
	INodeCredentialDescription,
	INodeProperties,
} from 'n8n-workflow';

import { StoraApi } from '../../credentials/StoraApi.credentials';
import { StoraOAuth2Api } from '../../credentials/StoraOAuth2Api.credentials';
import { storaCredentials } from '../../nodes/Stora/helpers/authentication';
import { Stora } from '../../nodes/Stora/Stora.node';
import { storaApiConnectionTest } from '../../nodes/Stora/methods/credentialCheck';
import { additionalDataFor } from '../helpers/n8n';
import { useSandboxForNode } from '../helpers/sandboxFixture';

/** A loopback port nothing listens on (taken from the OS, then released). */
async function closedPort(): Promise<number> {
	return await new Promise((resolve) => {
		const server = createServer().listen(0, '127.0.0.1', () => {
			const { port } = server.address() as { port: number };
			server.close(() => resolve(port));
		});
	});
}

describe('Stora API credential: connection test', () => {
	const fixture = useSandboxForNode();
	const test = async (data: Record<string, unknown>) =>
		await storaApiConnectionTest.call(
			new CredentialTestContext(
				additionalDataFor({}, 'credential-test'),
			) as ICredentialTestFunctions,
			{
				id: '1',
				name: 'Stora',
				type: 'storaApi',
				data: data as never,
			},
		);
	const good = () => ({ baseUrl: fixture.sandbox.url, accessToken: fixture.sandbox.token });

	it('is what n8n runs: the Stora node tests the credential by this function, the credential has no `test` of its own', () => {
		// n8n runs a credential's own `test` request in preference to a node's function.
		expect((new StoraApi() as { test?: unknown }).test).toBeUndefined();
		const credentials = new Stora().description.credentials as INodeCredentialDescription[];
		expect(credentials).toEqual([
			{ ...storaCredentials[0], testedBy: 'storaApiConnectionTest' },
			storaCredentials[1],
		]);
		expect(new Stora().methods.credentialTest.storaApiConnectionTest).toBe(storaApiConnectionTest);
	});

	it('passes with a good token (one GET of one site), with or without a trailing slash on the Base URL', async () => {
		expect(await test(good())).toEqual({
			status: 'OK',
			message: expect.stringContaining('Stora accepted the access token'),
		});
		expect(await test({ ...good(), baseUrl: `${fixture.sandbox.url}/` })).toMatchObject({
			status: 'OK',
		});
		const calls = await fixture.client.requests();
		expect(calls.map((call) => `${call.method} ${call.path} ${call.status}`)).toEqual([
			'GET /2025-09/sites 200',
			'GET /2025-09/sites 200',
		]);
		expect(calls[0].query).toMatchObject({ limit: '1' });
	});

	it('a bad token', async () => {
		expect(await test({ ...good(), accessToken: 'not-a-valid-token' })).toEqual({
			status: 'Error',
			message: expect.stringContaining('Stora rejected the access token'),
		});
	});

	it('a token without public.site:read', async () => {
		const token = await fixture.client.token(['public.contact:read']);
		expect(await test({ ...good(), accessToken: token })).toEqual({
			status: 'Error',
			message: expect.stringContaining('lacks the scope public.site:read'),
		});
	});

	it("an unreachable host: a local one gets the sandbox's advice, another Stora's own address", async () => {
		const baseUrl = `http://127.0.0.1:${await closedPort()}`;
		const result = await test({ ...good(), baseUrl });
		expect(result.status).toBe('Error');
		expect(result.message).toContain(`Could not reach ${baseUrl} (ECONNREFUSED)`);
		expect(result.message).toContain(`Check that the Stora sandbox runs at ${baseUrl}`);
		expect(result.message).not.toContain('public-api.stora.co');
		const remote = await test({ ...good(), baseUrl: 'https://stora-api.invalid' });
		expect(remote.message).toContain('Could not reach https://stora-api.invalid');
		expect(remote.message).toContain(
			"Check the Base URL https://stora-api.invalid: Stora's is https://public-api.stora.co",
		);
	});

	it.each([
		['the version added to it', (url: string) => `${url}/2025-09`, 'Nothing answers at'],
		['another path', (url: string) => `${url}/somewhere/else`, 'Nothing answers at'],
		['no web address at all', () => 'public-api.stora.co', 'is not a web address'],
	])('a wrong Base URL: %s', async (_label, baseUrl, expected) => {
		const result = await test({ ...good(), baseUrl: baseUrl(fixture.sandbox.url) });
		expect(result).toEqual({ status: 'Error', message: expect.stringContaining(expected) });
		// The sandbox is local: its own form of address is the advice; a typed host without a scheme gets Stora's.
		expect(result.message).toContain(
			expected === 'is not a web address'
				? 'https://public-api.stora.co'
				: 'for example http://127.0.0.1:4010',
		);
	});

	it('a server that answers 200 but is not the Stora API', async () => {
		await fixture.client.fault({ method: 'GET', path: '/2025-09/sites' }, [
			{ status: 200, body: { hello: 'world' } },
		]);
		expect(await test(good())).toEqual({
			status: 'Error',
			message: expect.stringContaining("not with Stora's list of sites"),
		});
	});

	it.each([
		[
			'429',
			{ status: 429, headers: { 'Retry-After': '1' } },
			'rate limiting this account right now',
		],
		['500', { status: 500 }, 'HTTP 500 (a temporary server error)'],
		['502 HTML page', { html: true }, 'HTTP 502 (a temporary server error)'],
		['503', { status: 503 }, 'HTTP 503 (a temporary server error)'],
		['connection reset', { reset: true }, 'Could not reach'],
	])('Stora answering %s says so (and is not retried)', async (_label, fault, expected) => {
		await fixture.client.fault({ method: 'GET', path: '/2025-09/sites' }, [fault]);
		expect(await test(good())).toEqual({
			status: 'Error',
			message: expect.stringContaining(expected),
		});
		expect(
			(await fixture.client.requests()).filter((call) => call.path === '/2025-09/sites'),
		).toHaveLength(1);
	});

	it('never shows the token', async () => {
		for (const accessToken of [fixture.sandbox.token, 'tok_wrong_secret_value']) {
			for (const baseUrl of [
				fixture.sandbox.url,
				`http://127.0.0.1:${await closedPort()}`,
				`${fixture.sandbox.url}/x`,
			]) {
				expect(JSON.stringify(await test({ accessToken, baseUrl }))).not.toContain(accessToken);
			}
		}
	});
});

describe('both Stora credentials in n8n’s HTTP Request node (Authentication → Predefined Credential Type)', () => {
	// The HTTP Request node's Credential Type list offers the credential types matching its `credentialTypes`
	// (`extends:oAuth2Api`, `extends:oAuth1Api`, `has:authenticate`), read by the editor from the credential types as
	// n8n serves them: JSON, in which an `authenticate` function does not survive.
	const pickable = (type: object) => {
		const served = JSON.parse(JSON.stringify(type)) as {
			extends?: string[];
			authenticate?: unknown;
		};
		return (
			served.authenticate !== undefined ||
			['oAuth2Api', 'oAuth1Api'].some((parent) => served.extends?.includes(parent))
		);
	};

	it.each([
		['Stora API', new StoraApi()],
		['Stora OAuth2 API', new StoraOAuth2Api()],
	])('%s is offered', (_name, type) => {
		expect(pickable(type)).toBe(true);
	});

	it('the Stora API credential declares the header the Stora nodes send: Authorization: Bearer <token>', () => {
		expect(new StoraApi().authenticate).toEqual({
			type: 'generic',
			properties: { headers: { Authorization: '=Bearer {{$credentials.accessToken}}' } },
		});
	});
});

describe('Base URL field: a wrong value is reported by the connection test, not by a display condition', () => {
	const credentials: Array<[string, INodeProperties[]]> = [
		['Stora API', new StoraApi().properties],
		['Stora OAuth2 API', new StoraOAuth2Api().properties],
	];
	// n8n 2.x evaluates a credential's display conditions on every read of it (each request), a regex condition in a
	// VM with a 250 ms limit: on a busy n8n that limit is overrun and the execution fails.
	it.each(credentials)('%s: no property is shown by a regex condition', (_name, properties) => {
		const regexConditions = properties.filter((property) =>
			JSON.stringify(property.displayOptions ?? {}).includes('"regex"'),
		);
		expect(regexConditions.map((property) => property.name)).toEqual([]);
	});

	it('a Base URL without a scheme or with another scheme fails the connection test, naming the Base URL', async () => {
		const context = new CredentialTestContext(
			additionalDataFor({}, 'credential-test'),
		) as ICredentialTestFunctions;
		for (const baseUrl of ['public-api.stora.co', 'ftp://public-api.stora.co', '']) {
			const result = await storaApiConnectionTest.call(context, {
				id: '1',
				name: 'Stora',
				type: 'storaApi',
				data: { baseUrl, accessToken: 'tok_x' } as never,
			});
			expect(result).toEqual({
				status: 'Error',
				message: expect.stringContaining(`The Base URL "${baseUrl}" is not a web address`),
			});
		}
	});
});
