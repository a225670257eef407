/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test helper under test/, never published */
/**
 * The rate-limit budget on a clock the test controls (jest's fake timers), for test/nodes/transport/rateLimit*.test.ts:
 * requests through a registry to a server the test answers for, a fixed latency each way on that clock.
 */
import type { HeaderSource } from '../../nodes/Stora/transport/rateLimit/headers';
import type { RateLimitWindow } from '../../nodes/Stora/transport/rateLimit/policy';
import type { RateLimitRegistry } from '../../nodes/Stora/transport/rateLimit/registry';

/** The test's clock starts on a whole minute, as the sandbox's fixed windows do. */
export const T0 = Date.UTC(2030, 0, 7, 9, 0, 0);
/** Each way between the node and the server on the test's clock. */
export const LATENCY_MS = 10;

/** Fake timers from T0 for the enclosing file. */
export function useTestClock() {
	beforeEach(() => jest.useFakeTimers({ now: T0 }));
	afterEach(() => jest.useRealTimers());
}

const delay = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms));

export interface Answer {
	statusCode: number;
	headers?: HeaderSource;
}

/** What the server saw: each request's arrival (epoch ms) and its status. */
export interface Seen {
	at: number;
	status: number;
	process: string;
}

/**
 * A request through `registry` to a server that answers `respond(arrival)`, LATENCY_MS each way. Resolves to the
 * status the caller got (after the budget's retries).
 */
export async function request(
	registry: RateLimitRegistry,
	respond: (at: number) => Answer,
	options: { limits?: readonly RateLimitWindow[]; maxRetryWaitMs?: number; key?: string } = {},
) {
	const answer = await registry.send(
		options.key ?? 'k',
		async () => {
			await delay(LATENCY_MS);
			const answer = respond(Date.now());
			await delay(LATENCY_MS);
			return answer;
		},
		(answer) => answer,
		options,
	);
	return answer.statusCode;
}

/** Runs `work` to its end, moving the clock on; fails past `limitMs` of the test's clock. */
export async function runFor<T>(work: Promise<T>, limitMs = 30 * 60_000): Promise<T> {
	let done = false;
	const finished = work.finally(() => (done = true));
	const until = Date.now() + limitMs;
	while (!done && Date.now() < until) await jest.advanceTimersByTimeAsync(100);
	if (!done) throw new Error(`not done after ${limitMs} ms of the test's clock`);
	return await finished;
}

/** A server that answers 200 and logs arrivals; `then` answers in order first. */
export function server(then: Answer[] = []) {
	const seen: Seen[] = [];
	const respond = (at: number) => {
		const answer = then.shift() ?? { statusCode: 200 };
		seen.push({ at, status: answer.statusCode, process: '' });
		return answer;
	};
	return { seen, respond, arrivals: () => seen.map((s) => s.at) };
}

/** The most arrivals within any `windowMs` (sliding). */
export function busiest(arrivals: number[], windowMs: number): number {
	const sorted = [...arrivals].sort((a, b) => a - b);
	let most = 0;
	for (let i = 0, j = 0; i < sorted.length; i++) {
		while (sorted[i] - sorted[j] >= windowMs) j++;
		most = Math.max(most, i - j + 1);
	}
	return most;
}

export const resetHeaders = (limit: number, resetAt: number) => ({
	'RateLimit-Limit': String(limit),
	'RateLimit-Reset': String(Math.ceil(resetAt / 1000)),
});
