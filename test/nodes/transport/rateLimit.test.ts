/**
 * The rate-limit budget (nodes/Stora/transport/rateLimit/, its policy in policy.ts) on a clock the test controls
 * (jest's fake timers): what waits and for how long, what a 429 pauses and what is retried. Several processes on one
 * account: rateLimit.sharedAccount.test.ts. Over real HTTP: rateLimit.pacing.test.ts, credentialRateLimit.test.ts and
 * reliability.test.ts; in real n8n queue mode: test/queue (checks/sharedAccount.mjs).
 */
import { rateLimitKey } from '../../../nodes/Stora/transport/credentialRateLimit';
import {
	parseRateLimitHeader,
	resetAtFromResponse,
	resetAtMs,
	retryAfterAtMs,
} from '../../../nodes/Stora/transport/rateLimit/headers';
import {
	DEFAULT_SETTINGS,
	DOCUMENTED_LIMITS,
	UNPACED_IN_FLIGHT,
	type RateLimitWindow,
} from '../../../nodes/Stora/transport/rateLimit/policy';
import { RateLimitRegistry } from '../../../nodes/Stora/transport/rateLimit/registry';
import {
	busiest,
	LATENCY_MS,
	request,
	resetHeaders,
	runFor,
	server,
	T0,
	useTestClock,
} from '../../helpers/rateLimitClock';

useTestClock();

describe('rate limit: header parsing', () => {
	it.each([
		['60', { limit: 60, windows: [] }],
		[' 10 ', { limit: 10, windows: [] }],
		[
			'10, 10;w=1, 60;w=60',
			{
				limit: 10,
				windows: [
					{ limit: 10, windowMs: 1000 },
					{ limit: 60, windowMs: 60000 },
				],
			},
		],
		['limit=60, remaining=5, reset=30', { limit: 60, remaining: 5, reset: 30, windows: [] }],
		['"default";q=100;w=60', { windows: [{ limit: 100, windowMs: 60000 }] }],
		['"default";r=0;t=12', { remaining: 0, reset: 12, windows: [] }],
		['', { windows: [] }],
		['soon', { windows: [] }],
	])('parses %j', (value, expected) => {
		expect(parseRateLimitHeader(value)).toEqual(expected);
	});

	it('reads RateLimit-Reset as epoch seconds when it is one (the documented form), else as seconds from now', () => {
		const now = 1_760_000_000_500;
		expect(resetAtMs(1_760_000_002, now)).toBe(1_760_000_002_000);
		expect(resetAtMs(2, now)).toBe(now + 2000);
		expect(retryAfterAtMs('3', now)).toBe(now + 3000);
		expect(retryAfterAtMs('Wed, 21 Oct 2015 07:28:00 GMT', now)).toBe(
			Date.parse('Wed, 21 Oct 2015 07:28:00 GMT'),
		);
		expect(retryAfterAtMs(undefined, now)).toBeUndefined();
		expect(retryAfterAtMs('later', now)).toBeUndefined();
		// A server clock 5 s ahead: its Date says how far the reset really is (within its one-second resolution).
		const at = resetAtFromResponse(
			Math.floor((now + 5000) / 1000) + 1,
			new Date(now + 5000).toUTCString(),
			now,
		);
		expect(at - now).toBeGreaterThan(0);
		expect(at - now).toBeLessThanOrEqual(1000);
		expect(resetAtFromResponse(1_760_000_001, new Date(now).toUTCString(), now)).toBe(
			1_760_000_001_000,
		);
	});

	it('keys a budget by base URL and credential without holding the secret in clear', () => {
		const key = rateLimitKey('https://public-api.stora.co/', 'secret-token-123');
		expect(key).toMatch(/^stora:[0-9a-f]{64}$/);
		expect(key).not.toContain('secret');
		expect(rateLimitKey('https://public-api.stora.co', 'secret-token-123')).toBe(key);
		expect(rateLimitKey('https://public-api.stora.co', 'other-token')).not.toBe(key);
		expect(rateLimitKey('http://127.0.0.1:4010', 'secret-token-123')).not.toBe(key);
	});
});

describe('rate limit: what waits, and how long', () => {
	it('starts from the documented 10 per second and 60 per minute', () => {
		expect(DOCUMENTED_LIMITS).toEqual([
			{ limit: 10, windowMs: 1000 },
			{ limit: 60, windowMs: 60000 },
		]);
		expect(DEFAULT_SETTINGS.limits).toEqual(DOCUMENTED_LIMITS);
	});

	it('sends 70 requests in the order they asked, at the even pace of 10 a second, the 61st after the minute', async () => {
		const registry = new RateLimitRegistry();
		const { seen, respond, arrivals } = server();
		const order: number[] = [];
		const all = Promise.all(
			Array.from({ length: 70 }, async (_, index) => {
				const status = await request(registry, (at) => (order.push(index), respond(at)));
				return status;
			}),
		);
		expect(await runFor(all)).toEqual(Array(70).fill(200));
		expect(order).toEqual(Array.from({ length: 70 }, (_, i) => i));
		const at = arrivals().map((time) => time - T0);
		// No burst: 100 ms apart at least (each second's first also waits for the answer a second before it), so no
		// second sees more than 10 and 60 go within about 6 s.
		expect(
			at
				.slice(1)
				.map((time, i) => time - at[i])
				.every((gap) => gap >= 100),
		).toBe(true);
		expect(at[59]).toBeLessThanOrEqual(6_200);
		expect(busiest(arrivals(), 1000)).toBe(10);
		// The first request's place in the minute is held from its sending until its answer, then a minute.
		expect(at[60]).toBe(2 * LATENCY_MS + 60_000 + LATENCY_MS);
		expect(busiest(arrivals(), 60_000)).toBe(60);
		expect(seen.every((s) => s.status === 200)).toBe(true);
	});

	it("keeps to the credential's Custom limits: 5 per second, none per minute", async () => {
		const registry = new RateLimitRegistry();
		const { respond, arrivals } = server();
		const limits = [{ limit: 5, windowMs: 1000 }];
		await runFor(
			Promise.all(
				Array.from({ length: 30 }, async () => await request(registry, respond, { limits })),
			),
		);
		expect(busiest(arrivals(), 1000)).toBe(5);
		expect(Math.max(...arrivals()) - T0).toBeLessThan(6_500);
	});

	it('keeps to a lower RateLimit-Limit while the answers say it, and to the credential again once they stop', async () => {
		const registry = new RateLimitRegistry();
		// The documented form: a bare limit and the end of the current second.
		const lower = (at: number) => ({
			statusCode: 200,
			headers: resetHeaders(5, Math.floor(at / 1000) * 1000 + 1000),
		});
		const arrivals: number[] = [];
		await runFor(
			Promise.all(
				Array.from(
					{ length: 20 },
					async () => await request(registry, (at) => (arrivals.push(at), lower(at))),
				),
			),
		);
		expect(busiest(arrivals, 1000)).toBe(5);
		expect(registry.snapshot('k').windows).toEqual([
			{ limit: 5, windowMs: 1000 },
			{ limit: 60, windowMs: 60000 },
		]);
		// Not heard again for the time an announced limit holds: the credential's windows are back.
		await jest.advanceTimersByTimeAsync(DEFAULT_SETTINGS.announcedForMs);
		expect(registry.snapshot('k').windows).toEqual(DOCUMENTED_LIMITS);
	});

	it('takes a lower per-minute RateLimit-Limit as the minute, by its reset, and never a higher one', async () => {
		const registry = new RateLimitRegistry();
		await runFor(
			request(registry, () => ({ statusCode: 200, headers: resetHeaders(20, T0 + 60_000) })),
		);
		expect(registry.snapshot('k').windows).toEqual([
			{ limit: 10, windowMs: 1000 },
			{ limit: 20, windowMs: 60000 },
		]);
		await runFor(
			request(registry, () => ({ statusCode: 200, headers: resetHeaders(600, T0 + 60_000) })),
		);
		expect(registry.snapshot('k').windows[1]).toEqual({ limit: 20, windowMs: 60000 });
	});

	it("keeps a Custom limit set below Stora's: the per-second RateLimit-Limit lowers no other window", async () => {
		const registry = new RateLimitRegistry();
		const limits = [
			{ limit: 5, windowMs: 1000 },
			{ limit: 300, windowMs: 60_000 },
		];
		const second = (at: number) => ({
			statusCode: 200,
			headers: resetHeaders(10, Math.floor(at / 1000) * 1000 + 1000),
		});
		await runFor(
			Promise.all(
				Array.from({ length: 12 }, async () => await request(registry, second, { limits })),
			),
		);
		expect(registry.snapshot('k').windows).toEqual(limits);
	});

	it('stops waiting when the signal aborts, and the queue moves on', async () => {
		const registry = new RateLimitRegistry();
		registry.configure({ limits: [{ limit: 1, windowMs: 60_000 }] });
		const first = await registry.acquire('k');
		const controller = new AbortController();
		const second = registry.acquire('k', { signal: controller.signal });
		controller.abort(new Error('cancelled'));
		await expect(second).rejects.toThrow('cancelled');
		expect(registry.snapshot('k')).toMatchObject({ queued: 0, inFlight: 1 });
		registry.record(first, 200, {});
	});

	it(`Custom 0 and 0: ${UNPACED_IN_FLIGHT} in flight at once; after a 429 the documented limits, until 429s stop for a while`, async () => {
		const registry = new RateLimitRegistry();
		const limits: RateLimitWindow[] = [];
		const { respond, arrivals } = server([{ statusCode: 429, headers: { 'Retry-After': '1' } }]);
		// Answers take 10 ms each way: unpaced, 30 requests go 8 at a time.
		expect(
			await runFor(
				Promise.all(
					Array.from({ length: 30 }, async () => await request(registry, respond, { limits })),
				),
			),
		).toEqual(Array(30).fill(200));
		expect(registry.snapshot('k').windows).toEqual(DOCUMENTED_LIMITS);
		expect(busiest(arrivals(), 1000)).toBeLessThanOrEqual(UNPACED_IN_FLIGHT + 10);
		await jest.advanceTimersByTimeAsync(DEFAULT_SETTINGS.announcedForMs);
		expect(registry.snapshot('k').windows).toEqual([]);
		const before = arrivals().length;
		await runFor(
			Promise.all(
				Array.from({ length: 70 }, async () => await request(registry, respond, { limits })),
			),
		);
		// Unpaced again: 70 within a second, more than the documented 60 a minute.
		expect(
			Math.max(...arrivals().slice(before)) - Math.min(...arrivals().slice(before)),
		).toBeLessThan(1000);
	});
});

describe('rate limit: a 429 pauses the budget, and what is retried', () => {
	it('pauses every request until RateLimit-Reset, then at most the jitter more, the retry first', async () => {
		const registry = new RateLimitRegistry();
		const resetAt = T0 + 3_000;
		// Another app used up the minute, which ends in three seconds.
		const { seen, respond } = server([{ statusCode: 429, headers: resetHeaders(60, resetAt) }]);
		const statuses = await runFor(
			Promise.all(Array.from({ length: 5 }, async () => await request(registry, respond))),
		);
		expect(statuses).toEqual(Array(5).fill(200));
		expect(seen.map((s) => s.status)).toEqual([429, 200, 200, 200, 200, 200]);
		// The one answered 429 was answered before the second request's turn: nothing else went before the reset.
		const after = seen.slice(1).map((s) => s.at);
		expect(Math.min(...after)).toBeGreaterThanOrEqual(resetAt + LATENCY_MS);
		expect(Math.min(...after)).toBeLessThanOrEqual(
			resetAt + DEFAULT_SETTINGS.jitterMs + LATENCY_MS,
		);
	});

	it('processes paused by one reset resume at different moments (the jitter)', async () => {
		const resetAt = T0 + 2_000;
		const resumed = await runFor(
			Promise.all(
				Array.from({ length: 8 }, async () => {
					const registry = new RateLimitRegistry();
					const { seen, respond } = server([
						{ statusCode: 429, headers: resetHeaders(10, resetAt) },
					]);
					await request(registry, respond);
					return seen[1].at;
				}),
			),
		);
		expect(new Set(resumed).size).toBeGreaterThan(1);
		for (const at of resumed)
			expect(at - resetAt).toBeLessThanOrEqual(DEFAULT_SETTINGS.jitterMs + LATENCY_MS);
	});

	it('waits out a longer Retry-After; without any header, the rest of the second, then the rest of the minute', async () => {
		const registry = new RateLimitRegistry();
		const { seen, respond } = server([
			{ statusCode: 429, headers: { ...resetHeaders(10, T0 + 1000), 'Retry-After': '5' } },
			{ statusCode: 429 },
			{ statusCode: 429 },
		]);
		expect(await runFor(request(registry, respond))).toBe(200);
		const [first, second, third, fourth] = seen.map((s) => s.at - T0);
		expect(second - first).toBeGreaterThanOrEqual(5_000);
		// No reset named: the next whole second (fixed windows start on the clock)...
		expect(Math.floor((T0 + third) / 1000)).toBe(Math.floor((T0 + second) / 1000) + 1);
		// ...and a second such 429 in a row: the next whole minute.
		expect((T0 + fourth - LATENCY_MS) % 60_000).toBeLessThanOrEqual(DEFAULT_SETTINGS.jitterMs);
		expect(fourth).toBeGreaterThan(55_000);
	});

	it('gives up after the total wait, not after a count of retries, and answers with the last 429', async () => {
		const registry = new RateLimitRegistry();
		const { seen, respond } = server(
			Array.from({ length: 50 }, () => ({ statusCode: 429, headers: { 'Retry-After': '1' } })),
		);
		expect(await runFor(request(registry, respond, { maxRetryWaitMs: 2_500 }))).toBe(429);
		// A wait of a second (and the jitter) each: attempts at about 0, 1 and 2 s; a third wait would end past 2.5 s.
		expect(seen).toHaveLength(3);
		expect(registry.snapshot('k').queued).toBe(0);
	});

	it('retries 429s by default for 5 minutes', () => {
		expect(DEFAULT_SETTINGS.maxRetryWaitMs).toBe(5 * 60_000);
	});
});
