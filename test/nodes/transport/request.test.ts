/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test under test/, never published */
/**
 * transport/request.ts, one call to the Stora API. Settings → Request Options, which n8n adds to the Stora node when it loads the package (test/helpers/n8n.ts loads
 * the node the same way), applied by n8n's RoutingNode and the transport: Timeout per attempt, Batching, a Proxy that
 * is not a URL refused before any request, and one that cannot be reached named as the proxy. Over real HTTP against the sandbox. Proxy and Ignore SSL
 * Issues on the wire are proven in real n8n (test/e2e/), with a forward proxy and an https sandbox.
 *
 * A credential's Allowed HTTP Request Domains, applied by n8n's HTTP client to the Stora nodes' requests: a host the
 * list leaves out is refused before anything is sent, with an error whose message names the setting and the host
 * (publishing a trigger shows the message alone).
 *
 * Retries: a 429 after the rate limit's wait, a 5xx or a dropped connection on a read; a 429 that outlasts the
 * waiting bound reaches the user with what to do.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { rateLimits } from '../../../nodes/Stora/transport/rateLimit/instance';
import { useSandboxForNode } from '../../helpers/sandboxFixture';
import { runStora, type CredentialStore } from '../../helpers/n8n';
import { PollHarness } from '../../helpers/poll';

jest.setTimeout(30_000);

const getSites = (requestOptions: IDataObject): INodeParameters => ({
	resource: 'site',
	operation: 'getAll',
	returnAll: false,
	limit: 1,
	requestOptions: requestOptions as INodeParameters,
});

describe('Settings → Request Options', () => {
	const fixture = useSandboxForNode();

	it('Timeout: an attempt that waits longer fails, retried as a GET is, with an error naming the setting', async () => {
		await fixture.client.call('POST', '/__sandbox/config', { latency_ms: 3000 });
		try {
			const { error } = await fixture.run(getSites({ timeout: 300 }));
			expect(error?.message).toBe('Stora did not answer within the timeout of 0.3 s (3 attempts)');
			expect(String((error as { description?: string }).description)).toContain(
				'Timeout under Settings → Request Options',
			);
			const attempts = (await fixture.client.requests()).filter(
				(request) => request.path === '/2025-09/sites',
			);
			expect(attempts).toHaveLength(3);
		} finally {
			await fixture.client.call('POST', '/__sandbox/config', { latency_ms: 0 });
		}
	});

	it('Timeout: an answer within it is taken', async () => {
		await fixture.client.call('POST', '/__sandbox/config', { latency_ms: 200 });
		try {
			const { error, items } = await fixture.run(getSites({ timeout: 10_000 }));
			expect(error).toBeUndefined();
			expect(items).toHaveLength(1);
		} finally {
			await fixture.client.call('POST', '/__sandbox/config', { latency_ms: 0 });
		}
	});

	it.each([
		[2, 4, [1]],
		[1, 3, [0, 1]],
	])(
		'Batching: %i item(s) per batch over %i items, each batch at least the interval after the one before',
		async (size, count, gapsAfter) => {
			const interval = 500;
			// When each request leaves for n8n's HTTP client (its arrival at the sandbox adds delays a loaded machine stretches).
			const left: number[] = [];
			const send = rateLimits.send.bind(rateLimits);
			const spy = jest.spyOn(rateLimits, 'send').mockImplementation(
				async (key, attempt, ...rest) =>
					await send(
						key,
						async () => {
							left.push(performance.now());
							return await attempt();
						},
						...rest,
					),
			);
			try {
				const { error, items } = await fixture.run(
					getSites({ batching: { batch: { batchSize: size, batchInterval: interval } } }),
					{
						items: Array.from({ length: count }, (_, n) => ({ n })),
					},
				);
				expect(error).toBeUndefined();
				expect(items).toHaveLength(count);
			} finally {
				spy.mockRestore();
			}
			expect(left).toHaveLength(count);
			// Between batches the run slept the interval: a batch's first request leaves at least that long after the last
			// request before it, less the moment that request took to leave once the sleep had begun.
			for (const index of gapsAfter)
				expect(left[index + 1] - left[index]).toBeGreaterThanOrEqual(interval * 0.9);
			// Within a batch nothing waits.
			if (size > 1) expect(left[1] - left[0]).toBeLessThan(interval / 2);
		},
	);

	it('Proxy: a value that is not a URL with a host and a port fails every item before any request, naming the setting', async () => {
		const { error } = await fixture.run(getSites({ proxy: 'http://user:secret@myproxy' }), {
			items: [{ n: 1 }, { n: 2 }],
		});
		expect(error?.message).toBe('The proxy is not valid');
		const description = String((error as { description?: string }).description);
		expect(description).toContain('proxy URL');
		// The password in the proxy URL is not repeated in the error.
		expect(description).not.toContain('secret');
		expect(await fixture.client.requests()).toEqual([]);
	});

	it("Proxy that cannot be reached: the error names the proxy and its setting, not the credential's Base URL", async () => {
		// A port nothing listens on: taken from the system, then freed.
		const closed = createServer();
		await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
		const { port } = closed.address() as AddressInfo;
		await new Promise((resolve) => closed.close(resolve));
		const { error } = await fixture.run(getSites({ proxy: `http://127.0.0.1:${port}` }));
		expect(error?.message).toMatch(
			new RegExp(`^Could not reach the proxy http://127\\.0\\.0\\.1:${port}`),
		);
		const description = String((error as { description?: string }).description);
		expect(description).toContain('Settings → Request Options → Proxy');
		expect(description).not.toContain('Base URL');
		expect(await fixture.client.requests()).toEqual([]);
	});

	it('Proxy not valid, with On Error → Continue: each item carries the error, linked to its input item', async () => {
		const { error, items } = await fixture.run(getSites({ proxy: 'not a url' }), {
			items: [{ n: 1 }, { n: 2 }],
			continueOnFail: true,
		});
		expect(error).toBeUndefined();
		expect(items.map((item) => [item.json.error, item.pairedItem])).toEqual([
			['The proxy is not valid', { item: 0 }],
			['The proxy is not valid', { item: 1 }],
		]);
	});
});

describe('Allowed HTTP Request Domains', () => {
	const fixture = useSandboxForNode();

	/** The sandbox's credential, limited to Stora's production host. */
	function limited(): CredentialStore {
		const store = fixture.credentials();
		return {
			...store,
			storaApi: {
				...store.storaApi,
				allowedHttpRequestDomains: 'domains',
				allowedDomains: 'public-api.stora.co',
			},
		};
	}

	it('refuses the Stora node a host the list leaves out, naming the setting and the host, sending nothing', async () => {
		const { error } = await runStora({
			credentials: limited(),
			parameters: { resource: 'site', operation: 'getAll', returnAll: false, limit: 1 },
		});
		expect(error?.message).toMatch(
			/^Domain not allowed by the Stora credential's Allowed HTTP Request Domains: .*127\.0\.0\.1/,
		);
		expect(String(error?.description)).toContain('Nothing was sent.');
		expect(await fixture.client.requests()).toEqual([]);
	});

	it('refuses the Polling Trigger the same way, in the message', async () => {
		const poller = new PollHarness(limited(), { pollResource: 'site', event: 'created' });
		await expect(poller.poll('manual')).rejects.toThrow(
			/^Domain not allowed by the Stora credential's Allowed HTTP Request Domains: .*127\.0\.0\.1/,
		);
		expect(await fixture.client.requests()).toEqual([]);
	});
});

describe('Stora node: retries', () => {
	const fixture = useSandboxForNode();
	const client = () => fixture.client;
	const credentials = () => fixture.credentials();
	const getSites = { resource: 'site', operation: 'getAll', returnAll: false, limit: 3 };

	describe('retries', () => {
		it('waits for Retry-After on 429 and retries', async () => {
			await client().fault({ method: 'GET', path: '/2025-09/sites' }, [
				{
					status: 429,
					headers: { 'Retry-After': '0' },
					body: { error: { code: 'too_many_requests', message: 'Slow down' } },
				},
				{
					status: 429,
					headers: { 'Retry-After': '0' },
					body: { error: { code: 'too_many_requests', message: 'Slow down' } },
				},
			]);
			const result = await runStora({ credentials: credentials(), parameters: getSites });
			expect(result.error).toBeUndefined();
			expect(result.items).toHaveLength(3);
			expect((await client().requests()).map((request) => request.status)).toEqual([429, 429, 200]);
		});

		it('keeps retrying 429s while they stop within the waiting bound, however many there are', async () => {
			const tooMany = {
				status: 429,
				headers: { 'Retry-After': '0' },
				body: { error: { code: 'too_many_requests', message: 'Too many requests' } },
			};
			await client().fault({ method: 'GET', path: '/2025-09/sites' }, Array(8).fill(tooMany));
			const result = await runStora({ credentials: credentials(), parameters: getSites });
			expect(result.error).toBeUndefined();
			expect(result.items).toHaveLength(3);
			expect((await client().requests()).map((request) => request.status)).toEqual([
				...Array(8).fill(429),
				200,
			]);
		});

		it('gives up on 429 once the total waiting bound is spent, with a message about rate limits', async () => {
			rateLimits.configure({ maxRetryWaitMs: 1500 });
			const tooMany = {
				status: 429,
				headers: { 'Retry-After': '1' },
				body: { error: { code: 'too_many_requests', message: 'Too many requests' } },
			};
			await client().fault({ method: 'GET', path: '/2025-09/sites' }, Array(20).fill(tooMany));
			const result = await runStora({ credentials: credentials(), parameters: getSites });
			expect(result.error?.message).toBe('Too many requests [too_many_requests]');
			expect(result.error?.description).toContain('10 per second');
			// What to do points at settings the node shows.
			expect(result.error?.description).toContain('Settings → Request Options → Batching');
			// Each wait is a second: the bound lets one or two retries through, never the twenty queued 429s.
			const statuses = (await client().requests()).map((request) => request.status);
			expect(statuses.length).toBeGreaterThanOrEqual(2);
			expect(statuses.length).toBeLessThanOrEqual(3);
			expect(new Set(statuses)).toEqual(new Set([429]));
		});

		it('retries a dropped connection and a 500 on a read', async () => {
			await client().fault({ method: 'GET', path: '/2025-09/sites' }, [
				{ reset: true },
				{ status: 500 },
			]);
			const result = await runStora({ credentials: credentials(), parameters: getSites });
			expect(result.error).toBeUndefined();
			expect(result.items).toHaveLength(3);
		});
	});
});
