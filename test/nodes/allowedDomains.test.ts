/**
 * A credential's Allowed HTTP Request Domains (n8n's `allowedHttpRequestDomains` and `allowedDomains`), applied to
 * every request any Stora node makes with it, as n8n applies it to its own declarative nodes: a request to a host the
 * list leaves out never leaves (the sandbox's request log stays empty) and the error names the setting and the host.
 * Over real HTTP against the sandbox, in n8n-core's real contexts.
 */
import { CredentialTestContext } from 'n8n-core';
import type { ICredentialDataDecryptedObject, ICredentialTestFunctions, IDataObject } from 'n8n-workflow';
import { isDomainAllowed } from 'n8n-workflow';

import { isAllowedDomain } from '../../nodes/Stora/helpers/allowedDomains';
import { storaApiConnectionTest } from '../../nodes/Stora/methods/credentialCheck';
import { searchSites } from '../../nodes/Stora/methods/listSearch/inventory';
import { getSites } from '../../nodes/Stora/methods/loadOptions';
import { additionalDataFor, asLoadedByN8n, runByRoutingNode, runStora, type CredentialStore } from '../helpers/n8n';
import { loadOptionsContext } from '../helpers/loadOptions';
import { PollHarness } from '../helpers/poll';
import { useSandboxForNode } from '../helpers/sandboxFixture';
import { TriggerHarness } from '../helpers/trigger';
import { Stora } from '../../nodes/Stora/Stora.node';

jest.setTimeout(30_000);

const SITES = { resource: 'site', operation: 'getAll', returnAll: false, limit: 1 };

describe('Allowed HTTP Request Domains', () => {
	const fixture = useSandboxForNode({ allowHttpWebhooks: true });
	/** The sandbox's Stora API credential with the domain setting `mode` and `domains`, at `baseUrl` (the sandbox's). */
	const limited = (mode: string, domains?: string, baseUrl = fixture.sandbox.url): CredentialStore => ({
		storaApi: { baseUrl, accessToken: fixture.sandbox.token, allowedHttpRequestDomains: mode, ...(domains === undefined ? {} : { allowedDomains: domains }) },
	});
	const refusedHere = (message: unknown) => expect(String(message)).toMatch(/^Domain not allowed: the Stora credential's Allowed HTTP Request Domains do not include 127\.0\.0\.1/);
	const apiRequests = async () => (await fixture.client.requests()).filter((request) => request.path.startsWith('/2025-09/'));

	it.each([
		['Specific Domains listing the sandbox’s host', 'domains', '127.0.0.1'],
		['Specific Domains with a wildcard and the host among others', 'domains', '*.stora.co, 127.0.0.1'],
		['All', 'all', undefined],
		['None (which blocks the credential in the HTTP Request node only)', 'none', undefined],
	])('%s: the node works', async (_name, mode, domains) => {
		const { error, items } = await runStora({ parameters: SITES, credentials: limited(mode, domains) });
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
	});

	it.each([
		['another domain', 'public-api.stora.co', 'only: public-api.stora.co'],
		['a wildcard, which matches subdomains only', '*.127.0.0.1', 'only: *.127.0.0.1'],
		['an empty list', '', 'no domain'],
	])('Specific Domains with %s: refused before anything is sent, naming the setting, the host and the remedy', async (_name, domains, allows) => {
		const { error } = await runStora({ parameters: SITES, credentials: limited('domains', domains), items: [{}, {}] });
		refusedHere(error?.message);
		const description = String((error as { description?: string }).description);
		expect(description).toContain(`The credential allows ${allows}`);
		expect(description).toContain('add 127.0.0.1 under Allowed Domains');
		expect(await apiRequests()).toEqual([]);
	});

	it('with On Error → Continue, each item carries the refusal, linked to its input item', async () => {
		const { error, items } = await runStora({ parameters: SITES, credentials: limited('domains', 'example.com'), items: [{}, {}], continueOnFail: true });
		expect(error).toBeUndefined();
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		items.forEach((item) => refusedHere(item.json.error));
		expect(await apiRequests()).toEqual([]);
	});

	it('the tool path (n8n’s RoutingNode runs the node) is refused the same way', async () => {
		const { error } = await runStora({ parameters: SITES, credentials: limited('domains', 'example.com'), nodeClass: runByRoutingNode(asLoadedByN8n(new Stora()).description) });
		refusedHere(error?.message);
		expect(await apiRequests()).toEqual([]);
	});

	it('a redirect to a host the list leaves out is not followed (an image download: the API is allowed, its files host is not)', async () => {
		const [site] = await fixture.client.state('sites');
		const original = String(((site.images as IDataObject).default as IDataObject).original);
		const [, , , token, fileName] = new URL(original).pathname.split('/');
		const viaLocalhost = fixture.sandbox.url.replace('127.0.0.1', 'localhost');
		const parameters = { resource: 'image', operation: 'download', source: 'token', imageKey: token, fileName: decodeURIComponent(fileName) };
		const allowed = await runStora({ parameters, credentials: limited('domains', 'localhost, 127.0.0.1', viaLocalhost) });
		expect(allowed.error).toBeUndefined();
		const { error } = await runStora({ parameters, credentials: limited('domains', 'localhost', viaLocalhost) });
		refusedHere(error?.message);
		// The API answered with its redirect; the files host was never asked.
		expect((await apiRequests()).map((request) => request.status)).toEqual([302, 302]);
	});

	it('list searches and dropdowns in the editor are refused too', async () => {
		const credentials = limited('domains', 'example.com');
		await expect(searchSites.call(loadOptionsContext(credentials, { resource: 'site', operation: 'get' }, 'parameters.siteId'))).rejects.toThrow(
			/Allowed HTTP Request Domains do not include 127\.0\.0\.1/,
		);
		await expect(getSites.call(loadOptionsContext(credentials, { resource: 'unit', operation: 'getAll' }))).rejects.toThrow(
			/Allowed HTTP Request Domains do not include 127\.0\.0\.1/,
		);
		expect(await apiRequests()).toEqual([]);
	});

	it('the Stora Trigger registers no endpoint, and the Stora Polling Trigger does not poll', async () => {
		const credentials = limited('domains', 'example.com');
		const trigger = await new TriggerHarness(credentials, { events: ['contact.created'] }).start();
		try {
			await expect(trigger.activate()).rejects.toThrow(/Allowed HTTP Request Domains do not include 127\.0\.0\.1/);
		} finally {
			await trigger.close();
		}
		await expect(new PollHarness(credentials, { resource: 'contact', event: 'created' }).poll()).rejects.toThrow(
			/Allowed HTTP Request Domains do not include 127\.0\.0\.1/,
		);
		expect(await apiRequests()).toEqual([]);
	});

	it('the credential test says so instead of testing the token', async () => {
		const test = async (data: IDataObject) =>
			await storaApiConnectionTest.call(new CredentialTestContext(additionalDataFor({}, 'credential-test')) as ICredentialTestFunctions, {
				id: '1',
				name: 'Stora',
				type: 'storaApi',
				data: { baseUrl: fixture.sandbox.url, accessToken: fixture.sandbox.token, ...data } as ICredentialDataDecryptedObject,
			});
		const refused = await test({ allowedHttpRequestDomains: 'domains', allowedDomains: 'public-api.stora.co' });
		expect(refused.status).toBe('Error');
		refusedHere(refused.message);
		expect(await apiRequests()).toEqual([]);
		expect((await test({ allowedHttpRequestDomains: 'domains', allowedDomains: '127.0.0.1' })).status).toBe('OK');
	});

	it('matches hosts as n8n does (exact host, `*.` for subdomains only, case and a trailing dot ignored)', () => {
		const lists = ['stora.co', '*.stora.co', 'Public-API.stora.co.', ' a.example , *.b.example ', '127.0.0.1', ''];
		const urls = ['https://stora.co/x', 'https://public-api.stora.co', 'https://PUBLIC-API.STORA.CO./2025-09', 'http://a.example:8080', 'https://c.b.example', 'https://b.example', 'http://127.0.0.1:4010', 'not a url'];
		for (const list of lists.filter(Boolean)) {
			for (const url of urls) expect([list, url, isAllowedDomain(url, list)]).toEqual([list, url, isDomainAllowed({ url, allowedDomains: list })]);
		}
	});
});
