// Case 7: n8n in queue mode, several workers writing Contact → Create at once to one Stora account, each process with a
// budget of its own: the documented limits (10/s, 60/min) with the credential's Rate Limit left at its default, and a
// plan of 10/s, 600/min set in the credential. What they get through together against the account's limit, and how
// many requests in 100 Stora answers 429. No reference side: n8n's own nodes keep no budget (the HTTP Request node
// fails on a 429), so the measure is the account's limit itself. Each scenario runs once, the plan ones in their
// longer form (test/queue/sharedAccount.mjs, which the queue checks run too); the cluster (PostgreSQL, Redis, main,
// workers, webhook processor) is the one `npm run test:queue` starts, stopped by PID at the end.
import { setUp } from '../../queue/setup.mjs';
import {
	describeScenario,
	describeShared,
	runScenario,
	SCENARIOS,
} from '../../queue/sharedAccount.mjs';
import { doing, row, say, summary } from '../harness.mjs';
import { GOALS } from './common.mjs';

/** The scenarios in the order they run (workers only ever added), and their rows: throughput, then 429s per 100. */
export const SHARED_ROWS = [
	['documented-2', '7a', '7b'],
	['plan-2', '7c', '7d'],
	['documented-4', '7e', '7f'],
	['plan-4', '7g', '7h'],
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
	const { main, cluster, pg } = await setUp({
		rateLimit: { perSecond: 10, perMinute: 60 },
		timed,
		timings,
		cleanups,
		log,
	});
	const ctx = { main, cluster, pg, workflows: [], secrets: new Set(), cleanups, log };
	for (const [name, throughputRow, limitedRow] of SHARED_ROWS) {
		const scenario = SCENARIOS[name];
		const long = !cfg.quick;
		doing(`case 7: ${describeScenario(scenario, long)}`);
		const figures = await runScenario(ctx, name, { long });
		row(
			throughputRow,
			`${describeScenario(scenario, long)}: the least time the limit allows / the time taken`,
			{
				stora: `${figures.seconds.toFixed(1)} s`,
				other: `limit ${scenario.limit.perSecond}/s, ${scenario.limit.perMinute}/min`,
				ratio: summary([figures.ofTheLimit]),
				goal: GOALS[throughputRow],
				note: describeShared(name, figures),
			},
		);
		row(limitedRow, '  same: requests answered 429, per 100', {
			stora: `${figures.limited} of ${figures.requests}`,
			other: '',
			ratio: summary([figures.limitedPer100]),
			goal: GOALS[limitedRow],
		});
	}
}
