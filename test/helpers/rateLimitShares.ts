/**
 * Several processes on one Stora account (issue 54), for test/nodes/rateLimitShares*.test.ts: each process has a
 * registry of its own, as n8n's main, workers and webhook processors each have theirs, all with the same limits and
 * none told about the others, against one sandbox over real HTTP that sends only the documented rate-limit headers
 * (RateLimit-Limit, RateLimit-Reset). The sandbox's request log (arrival times, each request tagged with its process)
 * gives the figures: what the processes got through together against the limit, the part of the requests answered
 * 429, each process's part.
 */
import { budgetKey } from '../../nodes/Stora/transport/account';
import { RateLimitRegistry } from '../../nodes/Stora/transport/rateLimit/registry';
import type { RateLimitWindow } from '../../nodes/Stora/transport/rateLimit/settings';
import type { RequestLogEntry } from '../../sandbox/client';
import { useSandboxWithClients } from '../../sandbox/test/fixture';
import { printFigure } from './figures';
import { shareAccount, type Process } from './rateLimitBurst';

/** Each process keeps this many requests waiting, as a worker running several executions does. */
const CONCURRENCY = 3;

export interface Figures {
	/** Requests answered 200 within the measured windows, against what the limit allows in them. */
	throughput: number;
	/** Requests answered 429, of all requests, over the whole run. */
	limited: number;
	/** Requests answered 200 within the measured windows, by process. */
	byProcess: Map<string, number>;
	accepted: number;
}

export function figures(log: RequestLogEntry[], from: number, to: number, allowed: number): Figures {
	const tagged = log.filter((request) => request.headers['x-process'] !== undefined);
	const within = tagged.filter((request) => request.status === 200 && Date.parse(request.at) >= from && Date.parse(request.at) < to);
	const byProcess = new Map<string, number>();
	for (const request of within) byProcess.set(request.headers['x-process'], (byProcess.get(request.headers['x-process']) ?? 0) + 1);
	return {
		throughput: within.length / allowed,
		limited: tagged.filter((request) => request.status === 429).length / tagged.length,
		byProcess,
		accepted: within.length,
	};
}

export const describeFigures = (f: Figures) =>
	`throughput ${f.throughput.toFixed(3)} of the limit, ${(100 * f.limited).toFixed(1)}% answered 429, by process ${[...f.byProcess].map(([n, c]) => `${n} ${c}`).join(', ')}`;

/** The next start of a fixed window of `windowMs` (the sandbox's windows start on the clock), a moment after it. */
export const nextWindowStart = (windowMs: number) => Math.ceil((Date.now() + 200) / windowMs) * windowMs + 20;

/** `count` processes with registries of their own, each starting from `limits`. */
export function processes(count: number, limits: RateLimitWindow[], from: number, until: number): Process[] {
	return Array.from({ length: count }, (_, index) => {
		const registry = new RateLimitRegistry();
		registry.configure({ limits });
		return { name: `p${index + 1}`, registry, from, until, concurrency: CONCURRENCY };
	});
}

/**
 * A sandbox account with these limits, for the enclosing describe block; `limits`: the same as windows, as each
 * process starts from them.
 */
export function useAccount(perSecond: number, perMinute: number, minuteMs: number) {
	const fixture = useSandboxWithClients({ seed: 'demo', rateLimit: { perSecond, perMinute, minuteMs }, headers: 'documented' });
	const send = (name: string) =>
		fetch(`${fixture.sandbox.url}/2025-09/sites?limit=1`, { headers: { Authorization: `Bearer ${fixture.sandbox.token}`, 'X-Process': name } });
	const limits: RateLimitWindow[] = [
		{ limit: perSecond, windowMs: 1000 },
		{ limit: perMinute, windowMs: minuteMs },
	];
	return { fixture, send, limits, key: () => budgetKey(fixture.sandbox.url, fixture.sandbox.token) };
}

export type Account = ReturnType<typeof useAccount>;

/**
 * Runs `list` to `until` and prints the figures. `failed`: per process, its requests that did not end in a 200 (a
 * 429 that reached the caller); the suites expect none.
 */
export async function runProcesses(account: Account, list: Process[], from: number, to: number, allowed: number) {
	const outcomes = await shareAccount(list, account.key(), account.send);
	for (const each of list) each.registry.reset();
	const failed = [...outcomes].map(([name, done]) => ({ name, failed: done.filter((o) => o.status !== 200).length }));
	const result = figures(await account.fixture.control.requests(), from, to, allowed);
	printFigure(`${list.length} processes: ${describeFigures(result)}`);
	return { result, failed };
}
