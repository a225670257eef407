// Issue 54: a Return All in parallel windows does not starve the other workers on the account: in every whole minute
// each worker gets at least half its fair share (../sharedReturnAll.mjs), together at least 0.85 of the limit, at most
// 5 requests in 100 answered 429, every Return All exact, no write lost or duplicated.
import { assert } from '../../realN8n/harness.mjs';
import { describeReturnAll, describeReturnAllFigures, returnAllBeside } from '../sharedReturnAll.mjs';

export const title = (ctx) =>
	`shared account, ${describeReturnAll(ctx.cluster.workers.filter((w) => !w.exited).length)}: in every minute each worker at least half its fair share, together at least 0.85 of the limit, at most 5 in 100 answered 429`;

export async function run(ctx) {
	const figures = await returnAllBeside(ctx);
	ctx.figure(describeReturnAllFigures(figures));
	assert(figures.parallel >= 1, 'no Return All used parallel windows: the check would not test them');
	for (const [worker, perMinute] of figures.byWorkerMinute) {
		perMinute.forEach((accepted, minute) => assert(accepted >= figures.fair / 2, `${worker} got ${accepted} requests in minute ${minute + 1}, under half its fair share ${figures.fair}`));
	}
	assert(figures.throughput >= 0.85, `together ${figures.throughput.toFixed(3)} of the account's limit, under 0.85`);
	assert(figures.limitedPer100 <= 5, `${figures.limitedPer100.toFixed(1)} requests in 100 answered 429, over 5`);
}
