/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test under test/, never published */
/**
 * The rate-limit budget (nodes/Stora/transport/rateLimit/) over real HTTP against the sandbox's rate limiter: bursts
 * at the documented limits with zero 429s, and lower limits kept to from the documented headers. The policy itself,
 * on a clock the test controls, is in rateLimit.test.ts.
 */
import { useSandboxForNode } from '../../helpers/sandboxFixture';
import { rateLimitKey } from '../../../nodes/Stora/transport/credentialRateLimit';
import { rateLimits } from '../../../nodes/Stora/transport/rateLimit/instance';
import type { RateLimitRegistry } from '../../../nodes/Stora/transport/rateLimit/registry';

interface Outcome {
	status: number;
	attempts: number;
}

/**
 * Sends `count` requests at once through `registry`, each with `send(index)`, as the transport does with n8n's request
 * helper. Returns each outcome, the order the first attempts were granted in, and first attempt to last answer in ms.
 */
async function burst(
	registry: RateLimitRegistry,
	key: string,
	count: number,
	send: (index: number) => Promise<Response>,
) {
	const grantOrder: number[] = [];
	const starts: number[] = [];
	const outcomes: Outcome[] = await Promise.all(
		Array.from({ length: count }, async (_, index) => {
			let attempts = 0;
			const result = await registry.send(
				key,
				async () => {
					if (attempts++ === 0) {
						grantOrder.push(index);
						starts.push(Date.now());
					}
					const response = await send(index);
					await response.text();
					return response;
				},
				(response) => ({ statusCode: response.status, headers: response.headers }),
			);
			return { status: result.status, attempts };
		}),
	);
	return { outcomes, grantOrder, elapsedMs: Date.now() - Math.min(...starts) };
}

/** The floor for `count` requests under one window of `limit` per `windowMs` starting empty. */
const floorMs = (count: number, limit: number, windowMs: number) =>
	Math.ceil(count / limit - 1) * windowMs;

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
			const key = rateLimitKey(url, token);
			const seen = new Set<string>();
			const batch = await burst(rateLimits, key, 60, async (index) => {
				const response = await fetch(
					`${url}/2025-09/contacts/${contacts[index % contacts.length].id}`,
					{
						method: 'PATCH',
						headers: {
							Authorization: `Bearer ${token}`,
							'Content-Type': 'application/json',
							Accept: 'application/json',
						},
						body: JSON.stringify({ metadata: { [`rl_${index}`]: String(index) } }),
					},
				);
				for (const name of response.headers.keys())
					if (name.startsWith('ratelimit') || name === 'retry-after') seen.add(name);
				return response;
			});

			const log = await fixture.client.requests();
			expect(log.filter((r) => r.status === 429)).toHaveLength(0);
			expect(log).toHaveLength(60);
			expect(batch.outcomes.every((o) => o.status === 200 && o.attempts === 1)).toBe(true);
			// Every update applied: each contact carries the metadata of its requests.
			const stored = new Map(
				(await fixture.client.state('contacts')).map((c) => [
					c.id,
					c.metadata as Record<string, string>,
				]),
			);
			for (let index = 0; index < 60; index++) {
				expect(stored.get(contacts[index % contacts.length].id)).toMatchObject({
					[`rl_${index}`]: String(index),
				});
			}
			// FIFO: requests got their turn in the order they asked for it.
			expect(batch.grantOrder).toEqual(Array.from({ length: 60 }, (_, i) => i));
			const floor = floorMs(60, 10, 1000);
			expect(batch.elapsedMs).toBeGreaterThanOrEqual(floor);
			expect(batch.elapsedMs).toBeLessThanOrEqual(floor * 1.5);
			if (headers === 'documented')
				expect([...seen].sort()).toEqual(['ratelimit-limit', 'ratelimit-reset']);
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
	const fixture = useSandboxForNode({
		rateLimit: { perSecond: 5, perMinute: 20 },
		headers: 'documented',
	});
	beforeEach(() => rateLimits.reset());
	afterAll(() => rateLimits.reset());

	it('learns both lower limits from the headers and holds the 21st request back as the server would', async () => {
		await freshMinute();
		const { url, token } = fixture.sandbox;
		const key = rateLimitKey(url, token);
		const get = async () =>
			await fetch(`${url}/2025-09/sites?limit=1`, {
				headers: { Authorization: `Bearer ${token}` },
			});

		// One request teaches the per-second limit before the burst.
		const probe = await burst(rateLimits, key, 1, get);
		expect(probe.outcomes[0].status).toBe(200);
		expect(
			rateLimits.snapshot(key).windows.map(({ limit, windowMs }) => ({ limit, windowMs })),
		).toEqual([
			{ limit: 5, windowMs: 1000 },
			{ limit: 60, windowMs: 60000 },
		]);

		const batch = await burst(rateLimits, key, 19, get);
		const log = await fixture.client.requests();
		expect(log.filter((r) => r.status === 429)).toHaveLength(0);
		expect(batch.outcomes.every((o) => o.status === 200)).toBe(true);
		expect(
			rateLimits.snapshot(key).windows.map(({ limit, windowMs }) => ({ limit, windowMs })),
		).toEqual([
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
