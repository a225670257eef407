/**
 * Several processes on one Stora account, each with a rate-limit budget of its own (n8n's main, workers and webhook
 * processors each have theirs), on a clock the test controls, against the sandbox's own rate limiter
 * (sandbox/core/ratelimit.ts) answering with the documented headers only. The same in real n8n queue mode:
 * test/queue (checks/sharedAccount.mjs).
 */
import type { RateLimitWindow } from '../../../nodes/Stora/transport/rateLimit/policy';
import { RateLimitRegistry } from '../../../nodes/Stora/transport/rateLimit/registry';
import { RateLimiter } from '../../../sandbox/core/ratelimit';
import { printFigure } from '../../helpers/figures';
import {
	request,
	runFor,
	T0,
	useTestClock,
	type Answer,
	type Seen,
} from '../../helpers/rateLimitClock';

useTestClock();

/** An account on the sandbox's rate limiter, on the test's clock, answering with the documented headers only. */
function account(limits: { perSecond: number; perMinute: number }) {
	const limiter = new RateLimiter(limits);
	limiter.startMinutesAt(T0);
	const seen: Seen[] = [];
	const respond = (process: string) => (at: number) => {
		const decision = limiter.hit('token', at);
		seen.push({ at, status: decision.allowed ? 200 : 429, process });
		const { 'RateLimit-Limit': limit, 'RateLimit-Reset': reset } = decision.headers;
		return {
			statusCode: decision.allowed ? 200 : 429,
			headers: { 'RateLimit-Limit': limit, 'RateLimit-Reset': reset },
		};
	};
	return { seen, respond };
}

/**
 * `processes` processes with budgets of their own, each keeping 10 requests going (a worker's concurrency) until
 * `writes` requests are done between them all. Resolves to the statuses the callers got.
 */
async function writeTogether(
	respond: (process: string) => (at: number) => Answer,
	processes: number,
	writes: number,
	limits?: RateLimitWindow[],
) {
	let left = writes;
	const statuses: number[] = [];
	await Promise.all(
		Array.from({ length: processes }, async (_, p) => {
			const registry = new RateLimitRegistry();
			await Promise.all(
				Array.from({ length: 10 }, async () => {
					while (left > 0) {
						left--;
						statuses.push(await request(registry, respond(`p${p + 1}`), { limits }));
					}
				}),
			);
		}),
	);
	return statuses;
}

/** The fewest ms from the first arrival to the last that the account's windows allow for `count` requests. */
function floorMs(
	count: number,
	{ perSecond, perMinute }: { perSecond: number; perMinute: number },
): number {
	const minutes = Math.floor((count - 1) / perMinute);
	const inLast = count - minutes * perMinute;
	return minutes * 60_000 + Math.floor((inLast - 1) / perSecond) * 1000;
}

/** The credential's Rate Limit for an account: the default (the documented limits) or Custom at the plan's limits. */
const windowsOf = ({ perSecond, perMinute }: { perSecond: number; perMinute: number }) => [
	{ limit: perSecond, windowMs: 1000 },
	{ limit: perMinute, windowMs: 60_000 },
];

describe('rate limit: several processes on one account, each with its own budget', () => {
	const DOCUMENTED = { perSecond: 10, perMinute: 60 };
	const PLAN = { perSecond: 10, perMinute: 600 };

	it.each([
		[2, DOCUMENTED, 90],
		[4, DOCUMENTED, 92],
		[2, PLAN, 1800],
		[4, PLAN, 1800],
	])(
		'%i processes, %j (the credential at that limit), %i writes: at least 0.9 of the limit, at most one in three answered 429, none reaching a caller',
		async (processes, limit, writes) => {
			const { seen, respond } = account(limit);
			// The documented limits are the default Rate Limit; a plan's, Custom limits set to it.
			const statuses = await runFor(
				writeTogether(
					respond,
					processes,
					writes,
					limit === DOCUMENTED ? undefined : windowsOf(limit),
				),
			);
			expect(statuses).toEqual(Array(writes).fill(200));
			const accepted = seen.filter((s) => s.status === 200).map((s) => s.at);
			expect(accepted).toHaveLength(writes);
			const span = Math.max(...accepted) - Math.min(...accepted);
			const limited = seen.filter((s) => s.status === 429).length / seen.length;
			printFigure(
				`${processes} processes, ${writes} writes on ${limit.perSecond}/s and ${limit.perMinute}/min: ${(floorMs(writes, limit) / span).toFixed(2)} of the limit, ${(100 * limited).toFixed(1)} per 100 answered 429`,
			);
			expect(floorMs(writes, limit) / span).toBeGreaterThanOrEqual(0.9);
			expect(limited).toBeLessThanOrEqual(1 / 3);
			// Every process got work through.
			expect(new Set(seen.filter((s) => s.status === 200).map((s) => s.process)).size).toBe(
				processes,
			);
		},
	);

	it.each([2, 4])(
		'%i processes with Custom limits of the account ÷ processes: no 429 at all',
		async (processes) => {
			const { seen, respond } = account(PLAN);
			const limits = windowsOf({
				perSecond: Math.floor(PLAN.perSecond / processes),
				perMinute: Math.floor(PLAN.perMinute / processes),
			});
			expect(await runFor(writeTogether(respond, processes, 300, limits))).toEqual(
				Array(300).fill(200),
			);
			expect(seen.filter((s) => s.status === 429)).toEqual([]);
		},
	);
});
