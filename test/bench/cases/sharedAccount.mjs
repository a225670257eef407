// Case 7: n8n in queue mode, several workers writing to one Stora account at the documented limits (10/s, 60/min), the
// credential's Rate Limit left at its default: what they get through together against the account's limit, and how
// many requests in 100 Stora answers 429. 2 and 4 workers, each also with one more joining part-way and leaving.
// No reference side: n8n's own nodes keep no budget to share (the HTTP Request node fails on a 429), so the measure
// is the account's limit itself. Each scenario runs once, over whole minutes of the account's windows
// (test/queue/sharedAccount.mjs, which the queue checks run too); the cluster (PostgreSQL, Redis, main, workers,
// webhook processor) is the one `npm run test:queue` starts, stopped by PID at the end.
import { setUp } from '../../queue/setup.mjs';
import { describeScenario, describeShared, runScenario, SCENARIOS } from '../../queue/sharedAccount.mjs';
import { doing, row, say, summary } from '../harness.mjs';
import { GOALS } from './common.mjs';

/** The scenarios in the order they run (workers only ever added), and their rows: throughput, then 429s per 100. */
export const SHARED_ROWS = [
	['documented-2', '7a', '7b'],
	['documented-2-joiner', '7c', '7d'],
	['documented-4', '7e', '7f'],
	['documented-4-joiner', '7g', '7h'],
];

export async function sharedAccountCase(cfg, cleanups) {
	doing('case 7: n8n in queue mode (PostgreSQL, Redis, main, 2 workers, webhook processor)');
	const timings = [];
	const timed = async (label, fn) => {
		const started = Date.now();
		const result = await fn();
		say(`case 7: ${label}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
		return result;
	};
	// Everything setUp starts registers its stop in `cleanups`, which the bench runs at its end (also on Ctrl-C).
	const log = (line) => say(`case 7: ${line}`);
	const { main, cluster, pg } = await setUp({ rateLimit: { perSecond: 10, perMinute: 60 }, timed, timings, cleanups, log });
	const ctx = { main, cluster, pg, workflows: [], secrets: new Set(), cleanups, log };
	for (const [name, throughputRow, limitedRow] of SHARED_ROWS) {
		const scenario = SCENARIOS[name];
		doing(`case 7: ${describeScenario(scenario)}`);
		const figures = await runScenario(ctx, name, { maxMinutes: cfg.quick ? 2 : undefined });
		const what = `${scenario.workers} workers${scenario.joiner ? ' and one joining, then leaving' : ''} writing to one account at 10/s, 60/min`;
		row(throughputRow, `${what}: accepted / the account's limit`, {
			stora: `${(scenario.limit.perMinute * figures.throughput).toFixed(1)} a minute`,
			other: `limit ${scenario.limit.perMinute} a minute`,
			ratio: summary([figures.throughput]),
			goal: GOALS[throughputRow],
			note: describeShared(name, figures),
		});
		row(limitedRow, '  same: requests answered 429, per 100', {
			stora: `${figures.limited} of ${figures.requests}`,
			other: '',
			ratio: summary([figures.limitedPer100]),
			goal: GOALS[limitedRow],
		});
	}
}
