/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test under test/, never published */
/**
 * The rate-limit budget pacing requests (nodes/Stora/transport/rateLimit/): the RateLimit headers it reads, the budget
 * shared by every copy of the module and keyed by account, the documented limits it starts from, and bursts against
 * the sandbox's real rate limiter at those limits and at lower ones it learns from the headers. What a 429 does, and how
 * long its lesson lasts, is in rateLimitRecovery.test.ts.
 */
import { useSandboxForNode } from '../helpers/sandboxFixture';
import { burst, floorMs } from '../helpers/rateLimitBurst';
import { budgetKey } from '../../nodes/Stora/transport/account';
import { parseRateLimitHeader, resetAtFromResponse, resetAtMs, retryAfterAtMs } from '../../nodes/Stora/transport/rateLimit/headers';
import { rateLimits } from '../../nodes/Stora/transport/rateLimit/instance';
import { RateLimitRegistry } from '../../nodes/Stora/transport/rateLimit/registry';
import { DOCUMENTED_LIMITS } from '../../nodes/Stora/transport/rateLimit/settings';

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

describe('rate limit: documented limits in the budget', () => {
	it('starts from 10 per second and 60 per minute', () => {
		expect(DOCUMENTED_LIMITS).toEqual([
			{ limit: 10, windowMs: 1000 },
			{ limit: 60, windowMs: 60000 },
		]);
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
