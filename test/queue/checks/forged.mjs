// test/realN8n/forged.mjs against the webhook processor: every forged delivery refused with 4xx, starting nothing;
// every genuine one starting exactly one execution on the workers.
import { forgedDeliveries } from '../../realN8n/forged.mjs';
import { assert } from '../../realN8n/harness.mjs';
import { chain, noOpNode, storaTriggerNode } from '../../realN8n/workflow.mjs';
import { countBy, describeCounts, executionRows, workersOf } from '../helpers.mjs';

export const title = () =>
	'forged deliveries to the webhook processor are answered 4xx and start nothing; genuine ones start one each';

export async function run(ctx) {
	const { main, sandbox, reset, figure } = ctx;
	await reset();
	const workflow = await main.createWorkflow(
		chain('queue: forged deliveries', [
			storaTriggerNode('Stora Trigger', { events: ['contact.created'] }, ctx.token),
			noOpNode(),
		]),
	);
	ctx.workflows.push(workflow);
	const result = await forgedDeliveries({ n8n: main, sandbox, workflow });
	const [endpoint] = await sandbox.control.state('webhook_endpoints').catch(() => []);
	assert(!endpoint, 'the endpoint is still registered after unpublishing');
	const summaries = executionRows(ctx, workflow.id);
	const workers = countBy(
		workersOf(
			ctx,
			summaries.map((s) => s.id),
		),
	);
	figure(
		`${result.forged} forged deliveries of ${result.kinds} kinds all refused; ${result.genuine} genuine → ${result.executions} executions (${describeCounts(workers)})`,
	);
}
