// Workers writing to one Stora account at once, the credential's Rate Limit left at the default (the documented 10/s
// and 60/min) or set to the account's plan (10/s, 600/min), each process with a budget of its own
// (../sharedAccount.mjs): together at least 0.9 of the account's limit, at most one request in three answered 429 on
// the wire, none reaching a workflow, no duplicate, none lost. With 2 workers, then 4.
import { assert } from '../../realN8n/harness.mjs';
import {
	describeScenario,
	describeShared,
	GOALS,
	runScenario,
	SCENARIOS,
} from '../sharedAccount.mjs';

export const title = (ctx, name) =>
	`shared account, ${describeScenario(SCENARIOS[name], ctx.sizes.SHARED_LONG)}: together at least ${GOALS.ofTheLimit} of the limit, at most one in three answered 429, none reaching a workflow, no duplicate, none lost`;

export async function run(ctx, name) {
	const figures = await runScenario(ctx, name, { long: ctx.sizes.SHARED_LONG });
	ctx.figure(describeShared(name, figures));
	assert(
		figures.ofTheLimit >= GOALS.ofTheLimit,
		`together ${figures.ofTheLimit.toFixed(3)} of the account's limit, under ${GOALS.ofTheLimit}`,
	);
	assert(
		figures.limitedPer100 <= GOALS.limitedPer100,
		`${figures.limitedPer100.toFixed(1)} requests in 100 answered 429, over one in three`,
	);
}
