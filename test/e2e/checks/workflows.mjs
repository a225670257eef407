// "Workflows": every workflow case, then every case again with the sandbox refusing undocumented parameters.
import { N8N_VERSION } from '../../realN8n/n8n.mjs';
import { recordFigures } from '../../helpers/figures.ts';
import { PACKAGE_PREFIX } from '../workflow.mjs';
import { loadCases, runCase } from './workflowCase.mjs';

/**
 * The errors this package's nodes raised in an execution, each as its message and description: a node's failed run,
 * and (Continue On Fail, error output) the error n8n keeps beside an item. Never an item's data, which carries the
 * input it came from (an error output merges the input item's JSON into it).
 */
function storaErrors(execution, workflow) {
	const ours = new Set(
		workflow.nodes
			.filter((node) => node.type.startsWith(`${PACKAGE_PREFIX}.`))
			.map((node) => node.name),
	);
	const text = (error) =>
		typeof error === 'string' ? error : `${error?.message ?? ''}\n${error?.description ?? ''}`;
	const { runData = {} } = execution.data?.resultData ?? {};
	return Object.entries(runData)
		.filter(([name]) => ours.has(name))
		.flatMap(([, runs]) =>
			runs.flatMap((run) => [
				run.error,
				...(run.data?.main ?? []).flatMap((output) => (output ?? []).map((item) => item.error)),
			]),
		)
		.filter(Boolean)
		.map(text);
}

export async function workflowChecks(ctx) {
	const { caseCheck, only } = ctx;
	console.log('\nWorkflows (test/e2e/workflows/*.json, Webhook → Stora)');
	for (const testCase of loadCases(only)) {
		await caseCheck(`${testCase.name} [${testCase.file}]`, testCase, () => runCase(testCase, ctx));
	}
	await rejectPass(ctx);
}

/**
 * Where the docs' parameter lists are cut off, the real API may refuse what the node sends: every case again (the
 * --only ones with --only), with the sandbox rejecting undocumented parameters and sending only the documented
 * headers. Each must pass as before or end in an error that says which parameter Stora did not take.
 */
async function rejectPass(ctx) {
	const { n8n, sandbox, assert, caseCheck, only } = ctx;
	console.log(
		'\nWorkflows again: undocumented parameters rejected (422), documented rate-limit headers only',
	);
	await sandbox.control.configure({ unknown_params: 'reject', headers: 'documented' });
	ctx.answerOnly = true;
	const tally = { passed: 0, clearErrors: 0 };
	for (const testCase of loadCases(only)) {
		await caseCheck(
			`${testCase.name} [${testCase.file}]: right answer or a clear error`,
			testCase,
			async () => {
				try {
					await runCase(testCase, ctx);
					tally.passed++;
				} catch (error) {
					// A case a reproduced known n8n bug breaks has no clear error to look for: caseCheck reports the bug.
					if (ctx.knownBugOf(testCase)) throw error;
					const workflow = ctx.workflows.at(-1);
					const execution = await n8n.lastExecution(workflow.id);
					// The Stora node's own error, not the items (an input item may quote anything).
					const errors = storaErrors(execution, workflow);
					assert(
						errors.some((text) =>
							/did not apply the (filter|sort) |The node parameter .+ sent "/.test(text),
						),
						`neither the expected answer nor a clear error:\n${error.message}\nStora node errors: ${errors.join('\n---\n').slice(0, 600) || '(none)'}`,
					);
					await n8n.deactivate(workflow);
					tally.clearErrors++;
				}
			},
		);
	}
	await sandbox.control.configure({ unknown_params: 'accept', headers: 'full' });
	ctx.answerOnly = false;
	const cases = tally.passed + tally.clearErrors;
	if (!only && cases === loadCases().length) {
		recordFigures('reliability', 'rejectPass', {
			cells: [
				'Every e2e workflow case again with undocumented parameters rejected (422) and documented rate-limit headers only',
				'`test/e2e/run.mjs`',
				`${tally.passed} cases give the expected answer, ${tally.clearErrors} stop with an error of the Stora node naming the parameter Stora refused; none silently wrong`,
			],
			figures: { cases, passed: tally.passed, clearErrors: tally.clearErrors, n8n: N8N_VERSION },
		});
	} else {
		console.log(
			`figures: reject + documented headers in real n8n: ${tally.passed} cases as expected, ${tally.clearErrors} clear errors naming the parameter`,
		);
	}
}
