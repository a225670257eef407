// The README's Usage, walked in Chromium as a user follows it on the demo: "Import a workflow from examples/ (a new
// workflow's ⋯ menu, Import → From file) and pick your Stora credential in its nodes", then run it. The menu path is
// read from the README, so the walk fails when the README names a menu n8n (the newest supported) does not have. Then
// "a Stora Tool per thing the model may do, fields filled by $fromAI()": in a workflow with an AI
// Agent, the node creator opened from the agent's Tool "+" (once n8n has loaded it) finds "Stora Tool" for "stora";
// its Limit handed to the model with n8n's ✨ button, its Description the node's own, saved with Control+s and read
// back over n8n's REST API: the storaTool node, Limit a $fromAI() expression, connected to the agent by ai_tool. The
// walk's workflows and credential are deleted only once the editor has left them (about:blank). The trigger step is
// walked by the trigger checks (browser/trigger.mjs: Execute step registers a "(test)" endpoint, Stop Listening
// removes it); a model calling the tools, by the MCP and AI Agent checks (mcp.mjs, agent.mjs).
//
// Part of the browser checks of `npm run test:e2e` (test/e2e/browser.mjs calls `usageChecks`);
// `node test/e2e/browser/usage.mjs` runs only these.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

import { openNode, parameterItem, runWorkflow, savedWorkflowId } from '../../realN8n/chromium.mjs';
import { log, REPO } from '../../realN8n/n8n.mjs';
import { until } from '../../realN8n/wait.mjs';
import { runAlone, startedAlone } from './alone.mjs';

const EXAMPLE = 'list-sites.json';
const TRIGGER = 'When clicking ‘Execute workflow’';
const AGENT = 'AI Agent';
/** A credential of the user's own, named as nothing in the example is: the user picks it. */
const YOURS = 'My Stora account';

/** The README's Usage section. */
function readmeUsage() {
	const readme = fs.readFileSync(path.join(REPO, 'README.md'), 'utf8');
	const start = readme.indexOf('\n## Usage');
	return readme.slice(start, readme.indexOf('\n## ', start + 1));
}

export async function usageChecks({ page, check, n8n, sandbox, assert }) {
	console.log("\nBrowser (Chromium): the README's Usage, step by step");
	const example = JSON.parse(fs.readFileSync(path.join(REPO, 'examples', EXAMPLE), 'utf8'));
	const storaNode = example.nodes.find((node) => node.type === 'n8n-nodes-stora.stora');
	const lastNode = example.nodes.at(-1);
	const cleanups = [];

	await check(
		`README Usage: examples/${EXAMPLE} imported with ⋯ → Import → From file, "${YOURS}" picked in its Stora node, run: every site, by name`,
		async () => {
			const menuPath = /\*\*⋯\*\* menu, \*\*([^*→]+) → ([^*]+)\*\*/
				.exec(readmeUsage())
				?.slice(1)
				.map((label) => label.trim());
			assert(
				menuPath,
				'the README\'s Usage names no "**⋯** menu, **... → ...**" to import an example with',
			);
			const credential = await n8n.createCredential(YOURS, 'storaApi', {
				baseUrl: sandbox.url,
				accessToken: sandbox.token,
			});
			let workflowId;
			try {
				await page.goto(`${n8n.base}/workflow/new`, { waitUntil: 'domcontentloaded' });
				await page.locator('[data-test-id="workflow-menu"]').first().click();
				const submenu = page.locator('[data-test-id="workflow-menu-item-import"]');
				await submenu.hover();
				const item = page.locator('[data-test-id="workflow-menu-item-import-from-file"]');
				const labels = [(await submenu.innerText()).trim(), (await item.innerText()).trim()];
				assert(
					labels.join(' → ') === menuPath.join(' → '),
					`n8n's workflow menu says "${labels.join(' → ')}", the README "${menuPath.join(' → ')}"`,
				);
				const [chooser] = await Promise.all([page.waitForEvent('filechooser'), item.click()]);
				await chooser.setFiles(path.join(REPO, 'examples', EXAMPLE));
				for (const node of example.nodes)
					await page
						.locator(`[data-test-id="canvas-node"][data-node-name="${node.name}"]`)
						.waitFor();

				const ndv = await openNode(page, storaNode.name);
				const select = ndv.locator('[data-test-id="node-credentials-select"]');
				await select.click();
				// n8n 2.x lists the credentials of the type in its own dropdown (not a select's options): the entry by its name.
				await page.getByText(YOURS, { exact: true }).last().click();
				await ndv.locator('[data-test-id="ndv-close-button"]').click();
				await ndv.waitFor({ state: 'hidden' });
				// n8n 2.x saves a new workflow by itself as it changes (as when one is built: browser/buildWorkflow.mjs).
				workflowId = await savedWorkflowId(page);

				const execution = await runWorkflow(page, n8n, workflowId, undefined);
				assert(
					execution.status === 'success',
					`the run ended ${execution.status}: ${execution.data?.resultData?.error?.message ?? ''}`,
				);
				const used = execution.workflowData?.nodes?.find((node) => node.name === storaNode.name)
					?.credentials?.storaApi;
				assert(
					used?.id === credential.id,
					`the Stora node ran with ${JSON.stringify(used)}, not "${YOURS}" (${credential.id})`,
				);
				const rows = (
					execution.data.resultData.runData[lastNode.name]?.[0]?.data?.main?.[0] ?? []
				).map((entry) => entry.json);
				const sites = (await sandbox.control.state('sites')).sort((a, b) =>
					a.name.localeCompare(b.name),
				);
				assert(
					JSON.stringify(rows.map((row) => [row.id, row.name])) ===
						JSON.stringify(sites.map((site) => [site.id, site.name])),
					`"${lastNode.name}" gave ${JSON.stringify(rows.map((row) => row.name))}; the sandbox's sites by name: ${JSON.stringify(sites.map((site) => site.name))}`,
				);
			} finally {
				// n8n preselects the Stora credential saved last in new nodes: this one must not outlive the checks.
				cleanups.push(() =>
					n8n
						.request('DELETE', `/rest/credentials/${credential.id}`)
						.catch((error) => log(`could not delete credential ${YOURS}: ${error.message}`)),
				);
				if (workflowId) cleanups.push(() => n8n.deleteWorkflow({ id: workflowId }));
			}
		},
	);
	try {
		await agentToolChecks({ page, check, n8n, assert, cleanups });
	} finally {
		// Deleted once the editor is closed: an editor opened later asks n8n again for a workflow it showed, which
		// would then answer 404 (a console error).
		await page.goto('about:blank').catch(() => {});
		for (const cleanup of cleanups) await cleanup();
	}
}

/** A workflow of a Manual Trigger and an AI Agent without tools, saved through n8n's API; returns it. */
async function agentWorkflow(n8n) {
	const node = (name, type, typeVersion, parameters, position) => ({
		id: randomUUID(),
		name,
		type,
		typeVersion,
		position,
		parameters,
	});
	return await n8n.createWorkflow({
		name: 'e2e: README Usage, a Stora Tool for an agent',
		nodes: [
			node(TRIGGER, 'n8n-nodes-base.manualTrigger', 1, {}, [0, 0]),
			node(
				AGENT,
				'@n8n/n8n-nodes-langchain.agent',
				3,
				{ promptType: 'define', text: 'Which sites are there?', options: {} },
				[240, 0],
			),
		],
		connections: { [TRIGGER]: { main: [[{ node: AGENT, type: 'main', index: 0 }]] } },
		settings: {},
	});
}

const CREATOR = '[data-test-id="node-creator"]';
/** The "+" under the AI Agent's Tool input. */
const TOOL_PLUS =
	'[data-test-id="canvas-node-input-handle"][data-handleid="inputs/ai_tool/0"] [data-test-id="canvas-handle-plus"]';

/** The title of the node creator's view and the titles of its entries. */
async function creatorView(page) {
	const header = (
		await page
			.locator(`${CREATOR} [data-test-id="nodes-list-header"]`)
			.first()
			.innerText()
			.catch(() => '')
	).trim();
	const entries = await page
		.locator(`${CREATOR} [data-test-id="item-iterator-item"]`)
		.allInnerTexts();
	return {
		title: header.split('\n')[0].trim(),
		entries: entries.map((text) => text.trim().split('\n')[0].trim()),
	};
}

/** Opens the node creator from the agent's Tool input, as a user does, finds "stora" and adds the Stora Tool. */
async function addStoraTool(page, assert) {
	// n8n loads its node creator (a chunk of its own) after the canvas shows. Opened from an AI input before it has
	// loaded, the creator mounts late and pushes its "Other AI Nodes" root view over the Tools view n8n opened for the
	// input, so "stora" finds the plain nodes (Stora, not Stora Tool): why 0eccbfa failed in the full run. Its scrim,
	// in the page once it has loaded, says it is ready, as a user sees the page settle before clicking.
	await page.locator('aside[class*="nodeCreatorScrim"]').waitFor({ state: 'attached' });
	await page.locator(TOOL_PLUS).click();
	let view;
	await until(
		async () => (view = await creatorView(page)).title === 'Tools',
		() => `the node creator opened from the Tool input shows "${view?.title}", not n8n's Tools`,
		{ timeoutMs: 10_000 },
	);
	await page.locator(`${CREATOR} [data-test-id="node-creator-search-bar"]`).fill('stora');
	await until(
		async () => (view = await creatorView(page)).entries.includes('Stora Tool'),
		() =>
			`"stora" in the node creator's ${view?.title} finds no "Stora Tool": ${view?.entries.join(', ') || 'nothing'}`,
		{ timeoutMs: 10_000 },
	);
	assert(view.title === 'Tools', `the search left n8n's Tools for "${view.title}"`);
	await page
		.locator(`${CREATOR} [data-test-id="item-iterator-item"]`)
		.filter({ has: page.getByText('Stora Tool', { exact: true }) })
		.first()
		.click();
}

async function agentToolChecks({ page, check, n8n, assert, cleanups }) {
	await check(
		"README Usage: a Stora Tool added from an AI Agent's Tool input through the node creator, Limit handed to the model ($fromAI), the Description the node's own, saved connected by ai_tool",
		async () => {
			const workflow = await agentWorkflow(n8n);
			try {
				await page.goto(`${n8n.base}/workflow/${workflow.id}`, { waitUntil: 'domcontentloaded' });
				await page.locator(`[data-test-id="canvas-node"][data-node-name="${AGENT}"]`).waitFor();
				await addStoraTool(page, assert);
				const ndv = page.locator('[data-test-id="ndv"]');
				await ndv.waitFor({ state: 'visible' });
				const description = (
					await ndv
						.locator('[data-test-id="parameter-input-toolDescription"] textarea')
						.inputValue()
				).trim();
				assert(
					description.length > 40,
					`the Stora Tool's Description is not the node's own: "${description}"`,
				);
				await parameterItem(ndv, 'limit')
					.locator('[data-test-id="from-ai-override-button"]')
					.click();
				await ndv.locator('[data-test-id="ndv-close-button"]').click();
				await ndv.waitFor({ state: 'hidden' });
				await page.keyboard.press('Control+s');
				// Until the save that holds $fromAI: n8n may also have saved the workflow by itself as the tool was added.
				let saved;
				let tool;
				await until(
					async () => {
						saved = await n8n.request('GET', `/rest/workflows/${workflow.id}`);
						tool = saved.nodes.find((node) => node.type === 'n8n-nodes-stora.storaTool');
						return /\$fromAI\(/.test(String(tool?.parameters?.limit));
					},
					() =>
						tool
							? `Limit was saved as ${JSON.stringify(tool.parameters.limit)}, not handed to the model with $fromAI()`
							: `the workflow was not saved with a Stora Tool: ${JSON.stringify(saved?.nodes?.map((node) => node.type))}`,
					{ timeoutMs: 20_000 },
				);
				const linked = saved.connections[tool.name]?.ai_tool?.[0]?.[0]?.node;
				assert(
					linked === AGENT,
					`the Stora Tool is connected to ${linked}, not to the AI Agent's Tool input`,
				);
			} finally {
				cleanups.push(() => n8n.deleteWorkflow(workflow));
			}
		},
	);
}

// `node test/e2e/browser/usage.mjs`: only these checks.
if (startedAlone(import.meta.url)) await runAlone('usage', usageChecks);
