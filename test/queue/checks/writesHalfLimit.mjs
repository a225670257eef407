// The same writes with the credential's Rate Limit set to the account's limit divided by the workers: each worker's
// own limiter then keeps the account under its limit, and Stora answers no 429 at all.
import { assert } from '../../realN8n/harness.mjs';
import { contactWrites } from '../contactWrites.mjs';

export const title = () =>
	`the same with the credential's Rate Limit set to half the account's limit per worker: no 429 at all`;

export async function run(ctx) {
	const { main, sandbox, cluster } = ctx;
	const { RATE_LIMIT } = ctx.sizes;
	const half = await main.createCredential('Stora sandbox (token, half the limit)', 'storaApi', {
		baseUrl: sandbox.url,
		accessToken: sandbox.token,
		rateLimit: 'custom',
		requestsPerSecond: Math.floor(RATE_LIMIT.perSecond / cluster.workers.length),
		requestsPerMinute: Math.floor(RATE_LIMIT.perMinute / cluster.workers.length),
	});
	const limited = await contactWrites(
		ctx,
		half,
		`Rate Limit 1/${cluster.workers.length} of the account's per worker`,
	);
	assert(limited === 0, `the sandbox answered ${limited} × 429`);
}
