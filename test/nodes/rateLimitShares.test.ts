/**
 * Several processes on one Stora account (issue 54): each with a registry of its own, as n8n's main, workers and
 * webhook processors each have theirs, all with the same limits and none told about the others, against one sandbox
 * over real HTTP that sends only the documented rate-limit headers (RateLimit-Limit, RateLimit-Reset). The sandbox's
 * request log (arrival times, each request tagged with its process) gives the figures: what the processes got
 * through together against the limit, the part of the requests answered 429, each process's part. How a share
 * behaves is in nodes/Stora/transport/rateLimit/share.ts; real n8n in queue mode is measured by test/queue.
 */
import { budgetKey } from '../../nodes/Stora/transport/account';
import { RateLimitRegistry } from '../../nodes/Stora/transport/rateLimit/registry';
import type { RateLimitWindow } from '../../nodes/Stora/transport/rateLimit/settings';
import type { RequestLogEntry } from '../../sandbox/client';
import { useSandboxWithClients } from '../../sandbox/test/fixture';
import { printFigure } from '../helpers/figures';
import { shareAccount, type Process } from '../helpers/rateLimitBurst';

/** Each process keeps this many requests waiting, as a worker running several executions does. */
const CONCURRENCY = 3;

interface Figures {
	/** Requests answered 200 within the measured windows, against what the limit allows in them. */
	throughput: number;
	/** Requests answered 429, of all requests, over the whole run. */
	limited: number;
	/** Requests answered 200 within the measured windows, by process. */
	byProcess: Map<string, number>;
	accepted: number;
}

function figures(log: RequestLogEntry[], from: number, to: number, allowed: number): Figures {
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

const describeFigures = (f: Figures) =>
	`throughput ${f.throughput.toFixed(3)} of the limit, ${(100 * f.limited).toFixed(1)}% answered 429, by process ${[...f.byProcess].map(([n, c]) => `${n} ${c}`).join(', ')}`;

/** The next start of a fixed window of `windowMs` (the sandbox's windows start on the clock), a moment after it. */
const nextWindowStart = (windowMs: number) => Math.ceil((Date.now() + 200) / windowMs) * windowMs + 20;

/** `count` processes with registries of their own, each starting from `limits`. */
function processes(count: number, limits: RateLimitWindow[], from: number, until: number): Process[] {
	return Array.from({ length: count }, (_, index) => {
		const registry = new RateLimitRegistry();
		registry.configure({ limits });
		return { name: `p${index + 1}`, registry, from, until, concurrency: CONCURRENCY };
	});
}

function useAccount(perSecond: number, perMinute: number, minuteMs: number) {
	const fixture = useSandboxWithClients({ seed: 'demo', rateLimit: { perSecond, perMinute, minuteMs }, headers: 'documented' });
	const send = (name: string) =>
		fetch(`${fixture.sandbox.url}/2025-09/sites?limit=1`, { headers: { Authorization: `Bearer ${fixture.sandbox.token}`, 'X-Process': name } });
	return { fixture, send, key: () => budgetKey(fixture.sandbox.url, fixture.sandbox.token) };
}

/** Runs `list` to `until`, then checks every request ended in a 200 (no 429 reached a caller) and returns the figures. */
async function run(account: ReturnType<typeof useAccount>, list: Process[], from: number, to: number, allowed: number) {
	const outcomes = await shareAccount(list, account.key(), account.send);
	for (const each of list) each.registry.reset();
	for (const [name, done] of outcomes) expect({ name, failed: done.filter((o) => o.status !== 200).length }).toEqual({ name, failed: 0 });
	const result = figures(await account.fixture.control.requests(), from, to, allowed);
	printFigure(`${list.length} processes: ${describeFigures(result)}`);
	return result;
}

/**
 * `count` processes over `windows` windows of `windowMs` allowing `limit`: together at least 0.85 of the limit, at
 * most 5% of the requests answered 429, and each process at least half of its equal part.
 */
async function shareEvenly(account: ReturnType<typeof useAccount>, limits: RateLimitWindow[], count: number, windowMs: number, windows: number, limit: number) {
	const from = nextWindowStart(windowMs);
	const to = from + windows * windowMs;
	const result = await run(account, processes(count, limits, from, to), from, to, windows * limit);
	expect(result.throughput).toBeGreaterThanOrEqual(0.85);
	expect(result.limited).toBeLessThanOrEqual(0.05);
	expect(result.byProcess.size).toBe(count);
	for (const name of result.byProcess.keys()) expect(result.byProcess.get(name)).toBeGreaterThanOrEqual((0.5 * windows * limit) / count);
}

describe('processes sharing a long window: 20 per 4 s (and 10 a second)', () => {
	const account = useAccount(10, 20, 4000);
	const limits = [
		{ limit: 10, windowMs: 1000 },
		{ limit: 20, windowMs: 4000 },
	];

	it.each([2, 4])(
		'%i processes together get at least 0.85 of the limit over 12 windows, at most 5%% answered 429, each at least half its part',
		async (count) => await shareEvenly(account, limits, count, 4000, 12, 20),
		120_000,
	);

	it('adapts when a third process joins for 6 windows and leaves: room made for it, and taken back after it left', async () => {
		const from = nextWindowStart(4000);
		const [joins, leaves, to] = [from + 3 * 4000, from + 9 * 4000, from + 29 * 4000];
		const [first, second, third] = processes(3, limits, from, to);
		third.from = joins;
		third.until = leaves;
		const whole = await run(account, [first, second, third], from, to, 29 * 20);
		expect(whole.limited).toBeLessThanOrEqual(0.05);
		const log = await account.fixture.control.requests();
		// While it is there it gets at least half of its third, and the three together the limit.
		const during = figures(log, joins, leaves, 6 * 20);
		printFigure(`while p3 was there: ${describeFigures(during)}`);
		expect(during.byProcess.get('p3')).toBeGreaterThanOrEqual((0.5 * 6 * 20) / 3);
		expect(during.throughput).toBeGreaterThanOrEqual(0.85);
		// After it left, the two probe for the room it left (a probe waits a hold of 60 of their own requests).
		const after = figures(log, to - 6 * 4000, to, 6 * 20);
		printFigure(`the last 6 windows, 14 to 20 after p3 left: ${describeFigures(after)}`);
		expect(after.throughput).toBeGreaterThanOrEqual(0.85);
	}, 180_000);
});

describe('processes sharing a per-second limit: 10 a second', () => {
	const account = useAccount(10, 100_000, 60_000);
	const limits = [
		{ limit: 10, windowMs: 1000 },
		{ limit: 100_000, windowMs: 60_000 },
	];

	it.each([2, 4])(
		'%i processes together get at least 0.85 of the limit over 40 s, at most 5%% answered 429, each at least half its part',
		async (count) => await shareEvenly(account, limits, count, 1000, 40, 10),
		120_000,
	);

	it('a process with many requests at once (parallel Return All windows) leaves the other at least half its part', async () => {
		const from = nextWindowStart(1000);
		const to = from + 30_000;
		const [busy, other] = processes(2, limits, from, to);
		busy.concurrency = 16;
		const result = await run(account, [busy, other], from, to, 30 * 10);
		expect(result.byProcess.get('p2')).toBeGreaterThanOrEqual(0.5 * ((30 * 10) / 2));
		expect(result.limited).toBeLessThanOrEqual(0.05);
	}, 120_000);
});

describe('processes sharing 400 per 20 s (and 40 a second), one of them starting late in the first second', () => {
	const account = useAccount(40, 400, 20_000);
	const limits = [
		{ limit: 40, windowMs: 1000 },
		{ limit: 400, windowMs: 20_000 },
	];

	it('each of 4 gets at least half its part in every window, the late one too, and three quarters from the second window on', async () => {
		const from = nextWindowStart(20_000);
		const windows = 4;
		const to = from + windows * 20_000;
		const list = processes(4, limits, from, to);
		// The others fill the first second in about a third of it: p4 comes when it is full.
		list[3].from = from + 600;
		await run(account, list, from, to, windows * 400);
		const log = await account.fixture.control.requests();
		for (let window = 0; window < windows; window++) {
			const start = from - 20 + window * 20_000;
			const each = figures(log, start, start + 20_000, 400);
			printFigure(`window ${window + 1}: ${describeFigures(each)}`);
			// After the first window, who came first in the first second does not last (share.ts, allowance.ts).
			const part = window === 0 ? 0.5 : 0.75;
			for (const name of ['p1', 'p2', 'p3', 'p4']) expect({ window: window + 1, name, part, got: (each.byProcess.get(name) ?? 0) >= (part * 400) / 4 }).toEqual({ window: window + 1, name, part, got: true });
		}
	}, 150_000);
});
