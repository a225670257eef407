// "Forged webhook deliveries" (test/realN8n/forged.mjs) against a published Stora Trigger.
import { forgedDeliveries } from '../../realN8n/forged.mjs';
import { N8N_VERSION } from '../../realN8n/n8n.mjs';
import { recordFigures } from '../../helpers/figures.ts';
import { STORA_TRIGGER } from '../../realN8n/workflow.mjs';
import { buildWorkflow } from '../workflow.mjs';

export async function forgedChecks(ctx) {
	const { n8n, sandbox, check } = ctx;
	console.log('\nForged webhook deliveries');
	await check(
		'Stora Trigger: every forged delivery is answered 4xx and starts nothing; every genuine one starts one execution',
		async () => {
			await sandbox.control.reset('demo');
			const testCase = {
				name: 'forged deliveries',
				// Version 1.1, what a new Stora Trigger is (the workflow cases keep version 1).
				workflow: {
					nodes: [
						{
							name: 'Stora Trigger',
							type: STORA_TRIGGER,
							typeVersion: 1.1,
							parameters: { events: ['contact.created'] },
						},
						{ name: 'Done', type: 'n8n-nodes-base.noOp', parameters: {} },
					],
				},
			};
			const workflow = await n8n.createWorkflow(buildWorkflow(testCase, ctx.credentials, 'unused'));
			ctx.workflows.push(workflow);
			const figures = await forgedDeliveries({ n8n, sandbox, workflow });
			recordFigures('reliability', 'forgedDeliveries', {
				cells: [
					'Forged webhook deliveries in a real n8n',
					'`test/realN8n/forged.mjs` (from `test/e2e/run.mjs`)',
					`${figures.forged} forged deliveries of ${figures.kinds} kinds (${figures.kindNames.join(', ')}) all answered 4xx with no execution; ${figures.genuine} genuine ones (seconds and milliseconds, hex and base64) started ${figures.executions} executions`,
				],
				figures: {
					forged: figures.forged,
					kinds: figures.kinds,
					genuine: figures.genuine,
					executions: figures.executions,
					n8n: N8N_VERSION,
				},
			});
		},
	);
}
