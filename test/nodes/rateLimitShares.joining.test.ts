/**
 * Processes on one Stora account that come and go (issue 54): a third joining for a while and leaving (room made for
 * it, and taken back after), and one starting late in the first second (who came first does not last). Each process
 * has a budget of its own; the processes and figures: test/helpers/rateLimitShares.ts. Shares among processes that
 * stay: rateLimitShares.test.ts.
 */
import { describeFigures, figures, nextWindowStart, processes, runProcesses, useAccount } from '../helpers/rateLimitShares';
import { printFigure } from '../helpers/figures';

describe('a process joining a long window, 20 per 4 s (and 10 a second), and leaving', () => {
	const account = useAccount(10, 20, 4000);

	it('adapts when a third process joins for 6 windows and leaves: room made for it, and taken back after it left', async () => {
		const from = nextWindowStart(4000);
		const [joins, leaves, to] = [from + 3 * 4000, from + 9 * 4000, from + 29 * 4000];
		const [first, second, third] = processes(3, account.limits, from, to);
		third.from = joins;
		third.until = leaves;
		const { result: whole, failed } = await runProcesses(account, [first, second, third], from, to, 29 * 20);
		expect(failed.filter((each) => each.failed > 0)).toEqual([]);
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

describe('processes sharing 400 per 20 s (and 40 a second), one of them starting late in the first second', () => {
	const account = useAccount(40, 400, 20_000);

	it('each of 4 gets at least half its part in every window, the late one too, and three quarters from the second window on', async () => {
		const from = nextWindowStart(20_000);
		const windows = 4;
		const to = from + windows * 20_000;
		const list = processes(4, account.limits, from, to);
		// The others fill the first second in about a third of it: p4 comes when it is full.
		list[3].from = from + 600;
		const { failed } = await runProcesses(account, list, from, to, windows * 400);
		expect(failed.filter((each) => each.failed > 0)).toEqual([]);
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
