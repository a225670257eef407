/**
 * Several processes on one Stora account, each with a budget of its own and none told about the others (issue 54):
 * with a long window and with a per-second limit, 2 and 4 of them together reach the limit with few 429s and each gets
 * at least half its part, also beside a process with many requests at once. A process joining, leaving or starting
 * late: rateLimitShares.joining.test.ts. The processes and figures: test/helpers/rateLimitShares.ts; how a share
 * behaves: nodes/Stora/transport/rateLimit/share.ts; real n8n in queue mode: test/queue.
 */
import { nextWindowStart, processes, runProcesses, useAccount, type Account } from '../helpers/rateLimitShares';

/**
 * `count` processes over `windows` windows of `windowMs` allowing `limit`: together at least 0.85 of the limit, at
 * most 5% of the requests answered 429, no 429 reaching a caller, and each process at least half of its equal part.
 */
async function shareEvenly(account: Account, count: number, windowMs: number, windows: number, limit: number) {
	const from = nextWindowStart(windowMs);
	const to = from + windows * windowMs;
	const { result, failed } = await runProcesses(account, processes(count, account.limits, from, to), from, to, windows * limit);
	expect(failed.filter((each) => each.failed > 0)).toEqual([]);
	expect(result.throughput).toBeGreaterThanOrEqual(0.85);
	expect(result.limited).toBeLessThanOrEqual(0.05);
	expect(result.byProcess.size).toBe(count);
	for (const name of result.byProcess.keys()) expect(result.byProcess.get(name)).toBeGreaterThanOrEqual((0.5 * windows * limit) / count);
}

describe('processes sharing a long window: 20 per 4 s (and 10 a second)', () => {
	const account = useAccount(10, 20, 4000);

	it.each([2, 4])(
		'%i processes together get at least 0.85 of the limit over 12 windows, at most 5%% answered 429, each at least half its part',
		async (count) => await shareEvenly(account, count, 4000, 12, 20),
		120_000,
	);
});

describe('processes sharing a per-second limit: 10 a second', () => {
	const account = useAccount(10, 100_000, 60_000);

	it.each([2, 4])(
		'%i processes together get at least 0.85 of the limit over 40 s, at most 5%% answered 429, each at least half its part',
		async (count) => await shareEvenly(account, count, 1000, 40, 10),
		120_000,
	);

	it('a process with many requests at once (parallel Return All windows) leaves the other at least half its part', async () => {
		const from = nextWindowStart(1000);
		const to = from + 30_000;
		const [busy, other] = processes(2, account.limits, from, to);
		busy.concurrency = 16;
		const { result, failed } = await runProcesses(account, [busy, other], from, to, 30 * 10);
		expect(failed.filter((each) => each.failed > 0)).toEqual([]);
		expect(result.byProcess.get('p2')).toBeGreaterThanOrEqual(0.5 * ((30 * 10) / 2));
		expect(result.limited).toBeLessThanOrEqual(0.05);
	}, 120_000);
});
