// Issue 54: workers writing to one Stora account, the credential's Rate Limit left at the default (the documented 10/s
// and 60/min) or set to the account's plan (10/s, 600/min), learn their share of the account from Stora's documented
// headers and 429s alone (../sharedAccount.mjs): together at least 0.85 of the account's limit, at most 5 requests in
// 100 answered 429, none reaching a workflow, no duplicate, none lost. With 2 workers (and the Stora Polling Trigger
// on main polling the same account), 2 with a third joining part-way and leaving, and 4.
import { assert } from '../../realN8n/harness.mjs';
import { describeScenario, describeShared, runScenario, SCENARIOS } from '../sharedAccount.mjs';

export const title = (ctx, name) =>
	`shared account, ${describeScenario(SCENARIOS[name])}: together at least 0.85 of the limit, at most 5 in 100 answered 429, none reaching a workflow, no duplicate, none lost`;

export async function run(ctx, name) {
	const figures = await runScenario(ctx, name, { maxMinutes: ctx.sizes.SHARED_MINUTES });
	ctx.figure(describeShared(name, figures));
	assert(figures.throughput >= 0.85, `together ${figures.throughput.toFixed(3)} of the account's limit, under 0.85`);
	assert(figures.limitedPer100 <= 5, `${figures.limitedPer100.toFixed(1)} requests in 100 answered 429, over 5`);
}
