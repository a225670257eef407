/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test under test/, never published */
import { useSandboxForNode } from '../helpers/sandboxFixture';
import { budgetKey } from '../../nodes/Stora/transport/account';
import { parseRateLimitHeader, resetAtFromResponse, resetAtMs, retryAfterAtMs } from '../../nodes/Stora/transport/rateLimit/headers';
import { rateLimits } from '../../nodes/Stora/transport/rateLimit/instance';
import { RateLimitRegistry, type RateLimitSlot, type RateLimitSnapshot } from '../../nodes/Stora/transport/rateLimit/registry';
import { DOCUMENTED_LIMITS, type RateLimitWindow } from '../../nodes/Stora/transport/rateLimit/settings';

/**
 * The rate-limit budget (nodes/Stora/transport/rateLimit/) against the sandbox's real rate limiter over HTTP: plain
 * `fetch` calls go through the budget, the sandbox's request log says what the server saw.
 */

interface Outcome {
	index: number;
	status: number;
	/** Epoch ms of each attempt's start (the first is the grant of the first attempt). */
	attempts: number[];
	/** Epoch ms each attempt's answer arrived: the budget hears it right after, before the next attempt starts. */
	answers: number[];
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
	options: { maxRetryWaitMs?: number; signal?: AbortSignal; limits?: readonly RateLimitWindow[] } = {},
): Promise<Batch> {
	const grantOrder: number[] = [];
	const started = Date.now();
	const outcomes = await Promise.all(
		Array.from({ length: count }, async (_, index) => {
			const attempts: number[] = [];
			const answers: number[] = [];
			const result = await registry.send(
				key,
				async () => {
					if (attempts.length === 0) grantOrder.push(index);
					attempts.push(Date.now());
					const response = await send(index);
					const text = await response.text();
					answers.push(Date.now());
					return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
				},
				(response) => ({ statusCode: response.status, headers: response.headers }),
				options,
			);
			return { index, status: result.status, attempts, answers, body: result.body };
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
		let copy: typeof import('../../nodes/Stora/transport/rateLimit/instance') | undefined;
		let copyRegistry: typeof import('../../nodes/Stora/transport/rateLimit/registry') | undefined;
		jest.isolateModules(() => {
			copy = jest.requireActual<typeof import('../../nodes/Stora/transport/rateLimit/instance')>('../../nodes/Stora/transport/rateLimit/instance');
			copyRegistry = jest.requireActual<typeof import('../../nodes/Stora/transport/rateLimit/registry')>('../../nodes/Stora/transport/rateLimit/registry');
		});
		expect(copyRegistry!.RateLimitRegistry).not.toBe(RateLimitRegistry);
		expect(copy!.rateLimits).toBe(rateLimits);
		const key = budgetKey('http://127.0.0.1:1', 'token');
		const slot = await copy!.rateLimits.acquire(key);
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
	const fixture = useSandboxForNode({ rateLimit: 'default' });
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
	const fixture = useSandboxForNode({ rateLimit: { perSecond: 5, perMinute: 20 }, headers: 'documented' });
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
	const fixture = useSandboxForNode({ rateLimit: { perSecond: 5, perMinute: 1000 } });
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

/** Waits until the clock reads `at` (epoch ms): time that must pass for a lesson to fade, not an ordering. */
async function until(at: number): Promise<void> {
	while (Date.now() < at) await new Promise((resolve) => setTimeout(resolve, at - Date.now()));
}

/** A snapshot's windows without their effective limits. */
const windowsOf = (snapshot: RateLimitSnapshot) => snapshot.windows.map(({ limit, windowMs }) => ({ limit, windowMs }));

describe('rate limit: what a 429 or a header taught fades once its evidence stops', () => {
	// No limits and no rate-limit headers of its own: every 429 and RateLimit-* header here is an injected answer, and
	// the budget hears each between the attempt's answer and the next attempt (or the end of the batch).
	const fixture = useSandboxForNode({ rateLimit: 'off' });
	/** The production default fade (`recoveryMs`): snapshots at computed times check it without waiting. */
	const FADE_MS = 2 * 60_000;
	const SITES = { method: 'GET', path: '/2025-09/sites' };
	const sites = (url: string, token: string) => async () =>
		await fetch(`${url}/2025-09/sites?limit=1`, { headers: { Authorization: `Bearer ${token}` } });
	const one = async (key: string, limits: readonly RateLimitWindow[]) => {
		const { url, token } = fixture.sandbox;
		const [outcome] = (await burst(rateLimits, key, 1, sites(url, token), { limits })).outcomes;
		return { ...outcome, done: Date.now() };
	};

	it('Custom 0/0: one 429 is waited out to its reset, then paces by the documented limits for 2 minutes, no longer', async () => {
		const key = budgetKey(fixture.sandbox.url, fixture.sandbox.token);
		const resetEpoch = Math.ceil(Date.now() / 1000) + 1;
		await fixture.client.fault(SITES, [{ status: 429, headers: { 'RateLimit-Limit': '60', 'RateLimit-Reset': String(resetEpoch) } }]);
		const outcome = await one(key, []);
		expect(outcome.status).toBe(200);
		expect(outcome.attempts).toHaveLength(2);
		expect(outcome.attempts[1]).toBeGreaterThanOrEqual(resetEpoch * 1000);
		const [heard, retried] = [outcome.answers[0], outcome.attempts[1]];
		const late = rateLimits.snapshot(key, heard + FADE_MS - 1);
		expect(windowsOf(late)).toEqual(DOCUMENTED_LIMITS);
		expect(late.factor).toBeLessThan(1);
		expect(rateLimits.snapshot(key, retried + FADE_MS)).toMatchObject({ windows: [], factor: 1 });
	});

	it('Custom 0/0: once a 429 has faded the budget sends unpaced again, more than the documented 60 in a minute', async () => {
		rateLimits.configure({ recoveryMs: 1_000 });
		const { url, token } = fixture.sandbox;
		const key = budgetKey(url, token);
		await fixture.client.fault(SITES, [{ status: 429, headers: { 'Retry-After': '1' } }]);
		const outcome = await one(key, []);
		expect(outcome.attempts).toHaveLength(2);

		// The lesson of the 429 (the documented limits, as the first test shows) was confirmed before the retry.
		await until(outcome.attempts[1] + 1_000);
		expect(rateLimits.snapshot(key)).toMatchObject({ windows: [], factor: 1 });
		await fixture.client.clearRequests();
		const batch = await burst(rateLimits, key, 70, sites(url, token), { limits: [] });
		expect(batch.outcomes.every((o) => o.status === 200 && o.attempts.length === 1)).toBe(true);
		const arrivals = (await fixture.client.requests()).map((request) => Date.parse(request.at));
		expect(arrivals).toHaveLength(70);
		// Paced by the documented 60 per minute, the 61st could not have arrived within the minute.
		expect(Math.max(...arrivals) - Math.min(...arrivals)).toBeLessThan(60_000);
	});

	it('Custom 0/0: stays paced while 429s keep coming, and is unpaced 2 minutes after the last', async () => {
		const key = budgetKey(fixture.sandbox.url, fixture.sandbox.token);
		const limited = { status: 429, headers: { 'Retry-After': '1' } };
		await fixture.client.fault(SITES, [limited]);
		const first = await one(key, []);
		await until(first.attempts[1] + 1);
		await fixture.client.fault(SITES, [limited]);
		const second = await one(key, []);
		expect([first.attempts.length, second.attempts.length]).toEqual([2, 2]);
		// When the first 429 alone would have faded, the second (heard later) still holds the pacing, and shrank the
		// allowance again (it came after the first one's pause).
		const renewed = rateLimits.snapshot(key, first.attempts[1] + FADE_MS);
		expect(windowsOf(renewed)).toEqual(DOCUMENTED_LIMITS);
		expect(renewed.factor).toBeLessThan(1);
		expect(rateLimits.snapshot(key, second.attempts[1] + FADE_MS)).toMatchObject({ windows: [], factor: 1 });
	});

	it('Custom 5/s: a 429 halves the allowance, which is whole again 2 minutes after the 429 (not after its pause)', async () => {
		const key = budgetKey(fixture.sandbox.url, fixture.sandbox.token);
		const limits = [{ limit: 5, windowMs: 1000 }];
		await fixture.client.fault(SITES, [{ status: 429, headers: { 'Retry-After': '2' } }]);
		const outcome = await one(key, limits);
		expect(outcome.attempts).toHaveLength(2);
		const atFirst = rateLimits.snapshot(key, outcome.answers[0]);
		expect(atFirst.factor).toBe(0.5);
		// Retry-After: 2 paused the budget for 2 s from the moment it heard the 429.
		const heard = atFirst.pausedUntil - 2_000;
		expect(heard).toBeGreaterThanOrEqual(outcome.answers[0]);
		expect(outcome.attempts[1]).toBeGreaterThanOrEqual(atFirst.pausedUntil);
		expect(rateLimits.snapshot(key, heard + FADE_MS - 1).factor).toBeLessThan(1);
		expect(rateLimits.snapshot(key, heard + FADE_MS)).toMatchObject({
			windows: [{ limit: 5, windowMs: 1000, effective: 5 }],
			factor: 1,
		});
	});

	it('Custom 20/s lowered to 5/s by RateLimit-Limit: held while the header repeats, 20/s again once it stops', async () => {
		rateLimits.configure({ recoveryMs: 1_000 });
		const key = budgetKey(fixture.sandbox.url, fixture.sandbox.token);
		const limits = [{ limit: 20, windowMs: 1000 }];
		// The documented form: a bare limit and the end of the current second.
		const lower = { status: 200, headers: { 'RateLimit-Limit': '5', 'RateLimit-Reset': String(Math.ceil(Date.now() / 1000)) } };
		await fixture.client.fault(SITES, [lower, lower]);
		const first = await one(key, limits);
		expect(windowsOf(rateLimits.snapshot(key, first.answers[0]))).toEqual([{ limit: 5, windowMs: 1000 }]);
		await until(first.done + 1);
		const second = await one(key, limits);
		// Heard again after the first: still 5/s when the first header alone would have faded.
		expect(second.answers[0]).toBeGreaterThan(first.done);
		expect(windowsOf(rateLimits.snapshot(key, first.done + 1_000))).toEqual([{ limit: 5, windowMs: 1000 }]);
		// The injected answers are used up: this one says nothing, so nothing renews the lesson.
		await one(key, limits);
		expect(windowsOf(rateLimits.snapshot(key, second.done + 1_000))).toEqual(limits);

		// In real time, once it has faded: 6 requests at once all go (at 5/s the 6th would wait for an answer).
		await until(second.done + 1_000);
		const slots: RateLimitSlot[] = [];
		const granted = Array.from({ length: 6 }, async () => slots.push(await rateLimits.acquire(key, { limits })));
		await new Promise((resolve) => setImmediate(resolve));
		expect(slots).toHaveLength(6);
		for (const slot of slots) rateLimits.record(slot, undefined);
		await Promise.all(granted);
	});
});

describe('rate limit: documented limits in the budget', () => {
	it('starts from 10 per second and 60 per minute', () => {
		expect(DOCUMENTED_LIMITS).toEqual([
			{ limit: 10, windowMs: 1000 },
			{ limit: 60, windowMs: 60000 },
		]);
	});
});
