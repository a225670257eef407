// "Example workflows": every examples/*.json as a user imports it.
import { loadExamples, triggerOf, withCredentials } from '../../realN8n/examples.mjs';
import { STORA } from '../../realN8n/workflow.mjs';

export async function exampleChecks(ctx) {
	const examples = ctx.only ? [] : loadExamples();
	if (examples.length) console.log('\nExample workflows (examples/*.json)');
	for (const { file, workflow } of examples) {
		await ctx.caseCheck(`${workflow.name} [examples/${file}] imports, publishes or runs, without errors`, workflow, () => runExample(workflow, ctx));
	}
}

/** An example: imported with the run's credentials; manual ones are executed, webhook ones published and called. */
async function runExample(example, ctx) {
	const { n8n, sandbox, assert } = ctx;
	await sandbox.control.reset('demo');
	await ctx.freshClientCredentials();
	const workflow = await n8n.createWorkflow(
		withCredentials(example, { storaApi: ctx.credentials.accessToken, storaOAuth2Api: ctx.credentials.oauth2ClientCredentials }),
	);
	const trigger = triggerOf(example);
	const storaNodes = example.nodes.filter((n) => n.type === STORA).map((n) => n.name);
	if (trigger.kind === 'manual') {
		const execution = await n8n.runManually(workflow.id, trigger.node.name);
		const error = execution.data?.resultData?.error;
		assert(execution.status === 'success', `execution ${execution.status}: ${error?.message ?? ''} ${error?.description ?? ''}`);
		const runData = execution.data.resultData.runData;
		for (const name of storaNodes) {
			const items = runData[name]?.[0]?.data?.main?.flat() ?? [];
			assert(items.length > 0, `node "${name}" returned no items`);
		}
		return;
	}
	await n8n.activate(workflow);
	if (trigger.kind === 'webhook') {
		const [site] = await sandbox.control.state('sites');
		const { httpMethod = 'GET', path: webhookPath } = trigger.node.parameters;
		const response = await n8n.callWebhook(webhookPath, { method: httpMethod, query: { id: site.id }, body: httpMethod === 'GET' ? undefined : { id: site.id } });
		assert(response.status < 500, `webhook answered ${response.status}: ${response.text.slice(0, 300)}`);
	}
	await n8n.deactivate(workflow);
}
