// WRITES Contact → Create items on both workers under the account's rate limit, the credential's Rate Limit left at
// the documented one: every 429 is retried and each contact is created exactly once (contactWrites.mjs).
import { contactWrites, EXECUTIONS } from '../contactWrites.mjs';

export const title = ({ sizes: { WRITES, RATE_LIMIT } }) =>
	`${WRITES} Contact → Create items in ${EXECUTIONS} concurrent executions on both workers under ${RATE_LIMIT.perSecond}/s: each contact created exactly once, every 429 retried, every execution succeeds`;

export async function run(ctx) {
	await contactWrites(ctx, ctx.token, 'documented Rate Limit');
}
