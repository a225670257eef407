// One workflow case (test/e2e/workflows/*.json, see the README): arranged in the sandbox, published in n8n, driven
// through its webhook or Stora Trigger, and compared with its `expect` block.
import fs from 'node:fs';
import path from 'node:path';

import { UNFINISHED } from '../../realN8n/executions.mjs';
import { REPO, sleep } from '../../realN8n/n8n.mjs';
import { until } from '../../realN8n/wait.mjs';
import { match, resolve } from '../expect.mjs';
import { STORA_TRIGGER } from '../../realN8n/workflow.mjs';
import { buildWorkflow } from '../workflow.mjs';

const WORKFLOW_DIR = path.join(REPO, 'test/e2e/workflows');

/** Loads the workflow case files (one JSON per case), those `only` names if given. */
export function loadCases(only) {
	return fs
		.readdirSync(WORKFLOW_DIR)
		.filter((f) => f.endsWith('.json'))
		.sort()
		.map((file) => ({
			file,
			...JSON.parse(fs.readFileSync(path.join(WORKFLOW_DIR, file), 'utf8')),
		}))
		.filter((c) => !only || c.file.includes(only) || c.name.includes(only));
}

/** Runs one case file: arrange the sandbox, create + publish the workflow, call its webhook, compare. */
export async function runCase(testCase, ctx) {
	const { n8n, sandbox, credentials } = ctx;
	if (testCase.seed !== null) await sandbox.control.reset(testCase.seed ?? 'demo');
	const usesClientCredentials = [
		testCase.credential,
		...testCase.workflow.nodes.map((n) => n.credential),
	].includes('oauth2ClientCredentials');
	if (usesClientCredentials) await ctx.freshClientCredentials();
	const refs = { state: (c) => sandbox.control.state(c), vars: ctx.vars };
	for (const step of testCase.before ?? []) {
		await sandbox.control.call(step.method ?? 'POST', step.path, await resolve(step.body, refs));
	}
	await sandbox.control.clearRequests();

	const slug = path.basename(testCase.file, '.json').replace(/[^a-z0-9-]/gi, '-');
	const workflow = await n8n.createWorkflow(buildWorkflow(testCase, credentials, `e2e-${slug}`));
	ctx.workflows.push(workflow);
	await n8n.activate(workflow);
	try {
		if (workflow.nodes.some((n) => n.type === STORA_TRIGGER))
			return await runTriggerCase(testCase, workflow, ctx, refs);
		return await runWebhookCase(testCase, workflow, ctx, refs, slug);
	} catch (error) {
		// A failed case must not keep its webhook path published: the second pass publishes one on the same path.
		await n8n.deactivate(workflow).catch(() => {});
		throw error;
	}
}

/** A case started by the Webhook node: call it, compare the answer, the sandbox's requests and the execution. */
async function runWebhookCase(testCase, workflow, ctx, refs, slug) {
	const { n8n, sandbox } = ctx;
	const input = await resolve(testCase.input ?? {}, refs);
	const response = await n8n.callWebhook(`e2e-${slug}`, { body: input });
	const expect = await resolve(testCase.expect ?? {}, refs);
	const problems = [];
	if (expect.status !== undefined)
		problems.push(...match(response.status, expect.status, 'status'));
	if (expect.body !== undefined) problems.push(...match(response.body, expect.body, 'body'));
	// With undocumented parameters refused, the node may take another route to the same answer (Return All pages by
	// number after a 422): the answer is compared, the requests are not.
	if (expect.requests !== undefined && !ctx.answerOnly)
		problems.push(...match(await sandbox.control.requests(), expect.requests, 'requests'));
	if (expect.execution !== undefined) {
		const execution = await n8n.lastExecution(workflow.id);
		const summary = {
			status: execution.status,
			mode: execution.mode,
			error: execution.data?.resultData?.error,
			lastNodeExecuted: execution.data?.resultData?.lastNodeExecuted,
		};
		problems.push(...match(summary, expect.execution, 'execution'));
	}
	if (problems.length) {
		throw new Error(
			`${problems.slice(0, 15).join('\n')}\nresponse ${response.status}: ${response.text.slice(0, 600)}`,
		);
	}
	await n8n.deactivate(workflow);
}

/**
 * A Stora Trigger case: publishing registers a webhook endpoint in the sandbox, `events` are fired through the
 * control plane, the sandbox delivers them (signed) to n8n, and the executions they start are compared with
 * `expect`; unpublishing must remove the endpoint again.
 */
async function runTriggerCase(testCase, workflow, ctx, refs) {
	const { n8n, sandbox } = ctx;
	const problems = [];
	const expect = await resolve(testCase.expect ?? {}, refs);
	if (expect.endpoints !== undefined)
		problems.push(
			...match(
				await sandbox.control.state('webhook_endpoints'),
				expect.endpoints,
				'endpoints after publishing',
			),
		);
	const events = await resolve(testCase.events ?? [], refs);
	for (const event of events) await sandbox.control.call('POST', '/__sandbox/events', event);

	// Each delivered event starts one execution; how many there are is compared below, also after a timeout.
	const finished = async () =>
		(await n8n.executions(workflow.id)).filter((e) => !UNFINISHED.includes(e.status));
	await until(
		async () => (await finished()).length >= (expect.executions ?? events.length),
		'the executions of the events',
		{ timeoutMs: 30_000 },
	).catch(() => {});
	await sleep(500); // a late extra execution would show up here
	const executions = await n8n.executions(workflow.id);
	if (expect.executions !== undefined || events.length)
		problems.push(
			...match(executions.length, expect.executions ?? events.length, 'number of executions'),
		);
	const outputs = [];
	for (const summary of [...executions].reverse()) {
		const execution = await n8n.execution(summary.id);
		const resultData = execution.data?.resultData ?? {};
		const last = resultData.lastNodeExecuted;
		outputs.push(
			...(resultData.runData?.[last]?.[0]?.data?.main?.flat() ?? []).map((item) => item.json),
		);
		if (expect.execution !== undefined)
			problems.push(
				...match(
					{ status: execution.status, mode: execution.mode, lastNodeExecuted: last },
					expect.execution,
					`execution ${summary.id}`,
				),
			);
	}
	if (expect.output !== undefined) problems.push(...match(outputs, expect.output, 'output'));
	if (expect.deliveries !== undefined)
		problems.push(
			...match(
				await sandbox.control.call('GET', '/__sandbox/deliveries').then((r) => r.deliveries),
				expect.deliveries,
				'deliveries',
			),
		);

	await n8n.deactivate(workflow);
	if (expect.endpointsAfterUnpublish !== undefined) {
		problems.push(
			...match(
				await sandbox.control.state('webhook_endpoints'),
				expect.endpointsAfterUnpublish,
				'endpoints after unpublishing',
			),
		);
	}
	if (problems.length) throw new Error(problems.slice(0, 15).join('\n'));
}
