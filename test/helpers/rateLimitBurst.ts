/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test helper under test/, never published */
/**
 * Bursts through the rate-limit budget (nodes/Stora/transport/rateLimit/) against the sandbox's real rate limiter over
 * HTTP, for the rate-limit suites (test/nodes/rateLimitPacing.test.ts, rateLimitRecovery.test.ts): plain `fetch`
 * calls go through the budget, the sandbox's request log says what the server saw.
 */
import type { RateLimitRegistry } from '../../nodes/Stora/transport/rateLimit/registry';
import type { RateLimitWindow } from '../../nodes/Stora/transport/rateLimit/settings';

export interface Outcome {
	index: number;
	status: number;
	/** Epoch ms of each attempt's start (the first is the grant of the first attempt). */
	attempts: number[];
	/** Epoch ms each attempt's answer arrived: the budget hears it right after, before the next attempt starts. */
	answers: number[];
	body: unknown;
}

export interface Batch {
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
export async function burst(
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
export const floorMs = (count: number, limit: number, windowMs: number) => Math.ceil(count / limit - 1) * windowMs;

/** One process of a shared account: its own registry, keeping `concurrency` requests waiting from `from` to `until`. */
export interface Process {
	name: string;
	registry: RateLimitRegistry;
	/** Epoch ms: when it starts asking, and after which it asks for nothing new. */
	from: number;
	until: number;
	concurrency: number;
}

/**
 * Runs every process at once against one account (`key`), each loop sending its next request through its process's
 * registry as soon as the last one is done, as a worker with a backlog does. `send(name)` makes one request (tagged
 * with the process's name, so the sandbox's log tells the processes apart). Resolves to each process's outcomes.
 */
export async function shareAccount(
	processes: Process[],
	key: string,
	send: (name: string) => Promise<Response>,
	options: { limits?: readonly RateLimitWindow[] } = {},
): Promise<Map<string, Outcome[]>> {
	const results = await Promise.all(
		processes.map(async (process) => {
			const wait = process.from - Date.now();
			if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
			const outcomes: Outcome[] = [];
			await Promise.all(
				Array.from({ length: process.concurrency }, async () => {
					while (Date.now() < process.until) {
						const batch = await burst(process.registry, key, 1, async () => await send(process.name), options);
						outcomes.push(...batch.outcomes);
					}
				}),
			);
			return [process.name, outcomes] as const;
		}),
	);
	return new Map(results);
}
