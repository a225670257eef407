/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test under test/, never published */
import { useSandbox } from '../helpers/sandboxFixture';
import {
	budgetKey,
	DOCUMENTED_LIMITS,
	parseRateLimitHeader,
	RateLimitRegistry,
	rateLimits,
	resetAtFromResponse,
	resetAtMs,
	retryAfterAtMs,
} from '../../nodes/Stora/transport/rateLimit';

/**
 * The rate-limit budget (nodes/Stora/transport/rateLimit.ts) against the sandbox's real rate limiter over HTTP: plain
 * `fetch` calls go through the budget, the sandbox's request log says what the server saw.
 */

interface Outcome {
	index: number;
	status: number;
	/** Epoch ms of each attempt's start (the first is the grant of the first attempt). */
	attempts: number[];
	body: unknown;
}

interface Batch {
	outcomes: Outcome[];
	/** First attempt to last response, ms. */
	elapsedMs: number;
	/** Index of each request in the order its first attempt was granted. */
	grantOrder: number[];
}

/**
 * Sends `count` requests at once through `registry`, each with `send(index)`. What the transport will do, with fetch
 * in place of n8n's request helper.
 */
async function burst(
	registry: RateLimitRegistry,
	key: string,
	count: number,
	send: (index: number) => Promise<Response>,
	options: { maxRetryWaitMs?: number; signal?: AbortSignal } = {},
): Promise<Batch> {
	const grantOrder: number[] = [];
	const started = Date.now();
	const outcomes = await Promise.all(
		Array.from({ length: count }, async (_, index) => {
			const attempts: number[] = [];
			const result = await registry.send(
				key,
				async () => {
					if (attempts.length === 0) grantOrder.push(index);
					attempts.push(Date.now());
					const response = await send(index);
					const text = await response.text();
					return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
				},
				(response) => ({ statusCode: response.status, headers: response.headers }),
				options,
			);
			return { index, status: result.status, attempts, body: result.body };
		}),
	);
	const firstAttempt = Math.min(...outcomes.map((o) => o.attempts[0]));
	return { outcomes, elapsedMs: Date.now() - Math.min(firstAttempt, started), grantOrder };
}

/** The floor for `count` requests under one window of `limit` per `windowMs` starting empty. */
const floorMs = (count: number, limit: number, windowMs: number) => Math.ceil(count / limit - 1) * windowMs;

describe('rate limit: header parsing', () => {
	it.each([
		['60', { limit: 60, windows: [] }],
		[' 10 ', { limit: 10, windows: [] }],
		['10, 10;w=1, 60;w=60', { limit: 10, windows: [{ limit: 10, windowMs: 1000 }, { limit: 60, windowMs: 60000 }] }],
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
		expect(retryAfterAtMs('Wed, 21 Oct 2015 07:28:00 GMT', now)).toBe(Date.parse('Wed, 21 Oct 2015 07:28:00 GMT'));
		expect(retryAfterAtMs(undefined, now)).toBeUndefined();
		// A server clock 5 s ahead: its Date says how far the reset really is (within its one-second resolution).
		const serverDate = new Date(now + 5000).toUTCString();
		const resetEpoch = Math.floor((now + 5000) / 1000) + 1;
		const at = resetAtFromResponse(resetEpoch, serverDate, now);
		expect(at - now).toBeGreaterThan(0);
		expect(at - now).toBeLessThanOrEqual(1000);
		// Clocks within the Date's resolution: the exact epoch is kept.
		expect(resetAtFromResponse(1_760_000_001, new Date(now).toUTCString(), now)).toBe(1_760_000_001_000);
		expect(retryAfterAtMs('later', now)).toBeUndefined();
	});
});

describe('rate limit: budget keys and the shared registry', () => {
	beforeEach(() => rateLimits.reset());

	it('keys a budget by base URL and credential without holding the secret in clear', () => {
		const key = budgetKey('https://public-api.stora.co/', 'secret-token-123');
		expect(key).toMatch(/^stora:[0-9a-f]{64}$/);
		expect(key).not.toContain('secret');
		expect(budgetKey('https://public-api.stora.co', 'secret-token-123')).toBe(key);
		expect(budgetKey('https://public-api.stora.co', 'other-token')).not.toBe(key);
		expect(budgetKey('http://127.0.0.1:4010', 'secret-token-123')).not.toBe(key);
	});

	it('is one registry for every copy of the module in the process', async () => {
		let copy: typeof import('../../nodes/Stora/transport/rateLimit') | undefined;
		jest.isolateModules(() => {
			copy = jest.requireActual<typeof import('../../nodes/Stora/transport/rateLimit')>('../../nodes/Stora/transport/rateLimit');
		});
		expect(copy!.RateLimitRegistry).not.toBe(RateLimitRegistry);
		expect(copy!.rateLimits).toBe(rateLimits);
		const key = budgetKey('http://127.0.0.1:1', 'token');
		const slot = await copy!.acquireSlot(key);
		expect(rateLimits.snapshot(key).inFlight).toBe(1);
		rateLimits.record(slot, 200, {});
		expect(copy!.rateLimits.snapshot(key).inFlight).toBe(0);
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
		registry.reset();
	});
});

describe('rate limit: sandbox at the documented limits (10/s, 60/min)', () => {
	const fixture = useSandbox({ rateLimit: 'default' });
	beforeEach(() => rateLimits.reset());
	afterAll(() => rateLimits.reset());

	it.each(['full', 'documented'] as const)(
		'updates 60 contacts at once with zero 429s, in order, close to the floor (%s headers)',
		async (headers) => {
			await fixture.client.configure({ headers });
			const { url, token } = fixture.sandbox;
			const contacts = await fixture.client.state('contacts');
			const key = budgetKey(url, token);
			const seen = new Set<string>();
			const batch = await burst(rateLimits, key, 60, async (index) => {
				const response = await fetch(`${url}/2025-09/contacts/${contacts[index % contacts.length].id}`, {
					method: 'PATCH',
					headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', Accept: 'application/json' },
					body: JSON.stringify({ metadata: { [`rl_${index}`]: String(index) } }),
				});
				for (const name of response.headers.keys()) if (name.startsWith('ratelimit') || name === 'retry-after') seen.add(name);
				return response;
			});

			const log = await fixture.client.requests();
			expect(log.filter((r) => r.status === 429)).toHaveLength(0);
			expect(log).toHaveLength(60);
			expect(batch.outcomes.every((o) => o.status === 200 && o.attempts.length === 1)).toBe(true);
			// Every update applied: each contact carries the metadata of its requests.
			const stored = new Map((await fixture.client.state('contacts')).map((c) => [c.id, c.metadata as Record<string, string>]));
			for (let index = 0; index < 60; index++) {
				expect(stored.get(contacts[index % contacts.length].id)).toMatchObject({ [`rl_${index}`]: String(index) });
			}
			// FIFO: requests got their turn in the order they asked for it.
			expect(batch.grantOrder).toEqual(Array.from({ length: 60 }, (_, i) => i));
			const floor = floorMs(60, 10, 1000);
			expect(batch.elapsedMs).toBeGreaterThanOrEqual(floor);
			expect(batch.elapsedMs).toBeLessThanOrEqual(floor * 1.5);
			if (headers === 'documented') expect([...seen].sort()).toEqual(['ratelimit-limit', 'ratelimit-reset']);
			else expect(seen).toContain('ratelimit-remaining');
		},
		20_000,
	);
});

/** Waits (at most 8 s) until the wall-clock minute, which the sandbox's minute window follows, has 8 s or more left. */
async function freshMinute(): Promise<void> {
	const left = 60_000 - (Date.now() % 60_000);
	if (left < 8_000) await new Promise((resolve) => setTimeout(resolve, left + 50));
}

describe('rate limit: sandbox at 5/s and 20/min, budget starting from the documented limits', () => {
	// Documented headers only (RateLimit-Limit and RateLimit-Reset): the limits are learned from the bare values.
	const fixture = useSandbox({ rateLimit: { perSecond: 5, perMinute: 20 }, headers: 'documented' });
	beforeEach(() => rateLimits.reset());
	afterAll(() => rateLimits.reset());

	it('learns both lower limits from the headers and holds the 21st request back as the server would', async () => {
		await freshMinute();
		const { url, token } = fixture.sandbox;
		const key = budgetKey(url, token);
		const get = async () => await fetch(`${url}/2025-09/sites?limit=1`, { headers: { Authorization: `Bearer ${token}` } });

		// One request teaches the per-second limit before the burst.
		const probe = await burst(rateLimits, key, 1, get);
		expect(probe.outcomes[0].status).toBe(200);
		expect(rateLimits.snapshot(key).windows.map(({ limit, windowMs }) => ({ limit, windowMs }))).toEqual([
			{ limit: 5, windowMs: 1000 },
			{ limit: 60, windowMs: 60000 },
		]);

		const batch = await burst(rateLimits, key, 19, get);
		const log = await fixture.client.requests();
		expect(log.filter((r) => r.status === 429)).toHaveLength(0);
		expect(batch.outcomes.every((o) => o.status === 200)).toBe(true);
		expect(rateLimits.snapshot(key).windows.map(({ limit, windowMs }) => ({ limit, windowMs }))).toEqual([
			{ limit: 5, windowMs: 1000 },
			{ limit: 20, windowMs: 60000 },
		]);
		expect(batch.elapsedMs).toBeGreaterThanOrEqual(floorMs(20, 5, 1000) - 1000);

		// The per-second window alone would let a 21st request go within a second; the minute window holds it.
		const controller = new AbortController();
		let granted = false;
		const waiting = rateLimits.acquire(key, { signal: controller.signal }).then((slot) => {
			granted = true;
			rateLimits.record(slot, undefined);
		});
		const raw = await get();
		expect(raw.status).toBe(429);
		await new Promise((resolve) => setTimeout(resolve, 1500));
		expect(granted).toBe(false);
		controller.abort(new Error('test over'));
		await expect(waiting).rejects.toThrow('test over');
	}, 30_000);
});

describe('rate limit: sandbox at 5/s, recovering from 429s', () => {
	const fixture = useSandbox({ rateLimit: { perSecond: 5, perMinute: 1000 } });
	const limits = [
		{ limit: 5, windowMs: 1000 },
		{ limit: 1000, windowMs: 60_000 },
	];
	beforeEach(() => {
		rateLimits.reset();
		rateLimits.configure({ limits });
	});
	afterAll(() => rateLimits.reset());
	const sites = (url: string, token: string) => async () =>
		await fetch(`${url}/2025-09/sites?limit=1`, { headers: { Authorization: `Bearer ${token}` } });

	it('pauses the whole account until RateLimit-Reset after an injected 429 with only the documented headers', async () => {
		const { url, token } = fixture.sandbox;
		const key = budgetKey(url, token);
		const resetEpoch = Math.ceil(Date.now() / 1000) + 2;
		await fixture.client.fault({ method: 'GET', path: '/2025-09/sites' }, [
			// Another app used up the minute, which ends in about two seconds.
			{ status: 429, headers: { 'RateLimit-Limit': '1000', 'RateLimit-Reset': String(resetEpoch) } },
		]);
		const started = Date.now();
		const batch = await burst(rateLimits, key, 20, sites(url, token));

		const log = await fixture.client.requests();
		expect(log.filter((r) => r.status === 429)).toHaveLength(1);
		expect(log.filter((r) => r.status === 200)).toHaveLength(20);
		expect(batch.outcomes.every((o) => o.status === 200)).toBe(true);
		const retried = batch.outcomes.find((o) => o.attempts.length === 2)!;
		expect(retried.attempts[1]).toBeGreaterThanOrEqual(resetEpoch * 1000);
		// Nothing went out between the 429 and the reset: every attempt is in the first burst or after the reset.
		const attempts = batch.outcomes.flatMap((o) => o.attempts);
		expect(attempts.filter((at) => at >= started + 200 && at < resetEpoch * 1000)).toEqual([]);
		// The allowance shrank and recovers later.
		expect(rateLimits.snapshot(key).factor).toBeLessThan(1);
		// Floor: the pause, then 15 to 19 requests at the shrunk rate; bounded well under the retry limit.
		// After the pause the shrunk allowance (factor 0.5: 2 of 5 per second) carries the rest.
		expect(batch.elapsedMs).toBeLessThanOrEqual(resetEpoch * 1000 - started + floorMs(20, 2, 1000) + 1000);
	}, 30_000);

	it('waits for the rest of the window after a 429 without any rate-limit header', async () => {
		const { url, token } = fixture.sandbox;
		const key = budgetKey(url, token);
		await fixture.client.fault({ method: 'GET', path: '/2025-09/sites' }, [{ status: 429 }]);
		const batch = await burst(rateLimits, key, 10, sites(url, token));
		expect(batch.outcomes.every((o) => o.status === 200)).toBe(true);
		const retried = batch.outcomes.find((o) => o.attempts.length === 2)!;
		// The next whole second (windows of fixed servers start on the clock).
		expect(Math.floor(retried.attempts[1] / 1000)).toBeGreaterThan(Math.floor(retried.attempts[0] / 1000));
		expect((await fixture.client.requests()).filter((r) => r.status === 429)).toHaveLength(1);
		expect(batch.elapsedMs).toBeLessThan(5000);
	}, 30_000);

	it('gives up after the total wait, not after a count of retries, and answers with the last 429', async () => {
		const { url, token } = fixture.sandbox;
		const key = budgetKey(url, token);
		await fixture.client.fault(
			{ method: 'GET', path: '/2025-09/sites' },
			Array.from({ length: 50 }, () => ({ status: 429, headers: { 'Retry-After': '1' } })),
		);
		const batch = await burst(rateLimits, key, 1, sites(url, token), { maxRetryWaitMs: 2500 });
		const [outcome] = batch.outcomes;
		expect(outcome.status).toBe(429);
		expect(outcome.body).toMatchObject({ error: { code: 'too_many_requests' } });
		// Retry-After 1 s each: attempts at 0, 1, 2 s; a third wait would end past 2.5 s.
		expect(outcome.attempts).toHaveLength(3);
		expect(batch.elapsedMs).toBeGreaterThanOrEqual(2000);
		expect(batch.elapsedMs).toBeLessThan(3500);
	}, 30_000);

	it.each(['full', 'documented'] as const)(
		'shares the account with a second process: every request succeeds, the 429s stay few (%s headers)',
		async (headers) => {
			await fixture.client.configure({ headers });
			const { url, token } = fixture.sandbox;
			const key = budgetKey(url, token);
			// Another process: its own registry, the same account, the same belief that it has all 5/s. The binding
			// window here is a second, not a minute: recovery scaled to match (the default takes two minutes).
			const other = new RateLimitRegistry();
			other.configure({ limits, recoveryMs: 10_000 });
			rateLimits.configure({ recoveryMs: 10_000 });
			try {
				const [mine, theirs] = await Promise.all([
					burst(rateLimits, key, 20, sites(url, token)),
					burst(other, key, 20, sites(url, token)),
				]);
				const log = await fixture.client.requests();
				const tooMany = log.filter((r) => r.status === 429).length;
				expect([...mine.outcomes, ...theirs.outcomes].filter((o) => o.status !== 200)).toEqual([]);
				expect(log.filter((r) => r.status === 200)).toHaveLength(40);
				expect(tooMany).toBeGreaterThan(0);
				expect(tooMany).toBeLessThanOrEqual(20);
				const elapsed = Math.max(mine.elapsedMs, theirs.elapsedMs);
				const floor = floorMs(40, 5, 1000);
				expect(elapsed).toBeGreaterThanOrEqual(floor);
				expect(elapsed).toBeLessThanOrEqual(floor * 2.5);
			} finally {
				other.reset();
			}
		},
		40_000,
	);
});

describe('rate limit: documented limits in the budget', () => {
	it('starts from 10 per second and 60 per minute', () => {
		expect(DOCUMENTED_LIMITS).toEqual([
			{ limit: 10, windowMs: 1000 },
			{ limit: 60, windowMs: 60000 },
		]);
	});
});
