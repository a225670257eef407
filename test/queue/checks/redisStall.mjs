// A stalled Redis (SIGSTOP: connections stay open, nothing answers) past Stora's 10-second timeout loses no event:
// once Redis is back, Stora's retry leaves exactly one execution of it.
import { noEventLostWhileStalled } from '../../realN8n/triggerLife.mjs';

export const title = () =>
	"no event lost while Redis does not answer the webhook processor past Stora's timeout: after Redis is back and Stora retries, one execution of the event";

export async function run(ctx) {
	const { main, sandbox, redis, reset, figure } = ctx;
	await reset();
	// SIGSTOP: Redis keeps its connections open and answers nothing, as a stalled or unreachable Redis does.
	const stall = {
		on: () => process.kill(redis.pid, 'SIGSTOP'),
		off: () => process.kill(redis.pid, 'SIGCONT'),
	};
	const figures = await noEventLostWhileStalled({
		n8n: main,
		sandbox,
		credential: ctx.token,
		stall,
	});
	figure(`first attempt ${figures.first}, retry ${figures.retry}, ${figures.executions} execution`);
}
