// At least once in queue mode: the webhook processor stores the execution (then queues it) before it answers Stora. While
// PostgreSQL refuses new executions it answers 500; Stora's retry then starts the event once, with its data, on a
// worker. Run once per way Stora signs its retries (`mode`).
import { atLeastOnce, postgresRefusal } from '../../realN8n/triggerLife.mjs';

export const title = (ctx, mode) =>
	`no event lost (retries signed with the ${mode} timestamp): the webhook processor cannot store the execution and answers 500; Stora's retry starts it once on a worker with its data`;

export async function run(ctx, mode) {
	const { main, sandbox, pg, reset, figure } = ctx;
	await reset();
	const figures = await atLeastOnce({
		n8n: main,
		sandbox,
		credential: ctx.token,
		mode,
		refusal: postgresRefusal(pg),
	});
	figure(`first attempt ${figures.first}, retry ${figures.retry}, ${figures.executions} execution`);
}
