// The README's Usage, walked in Chromium as a user follows it on the demo: "Import a workflow from examples/ (a new
// workflow's ⋯ menu, Import → From file) and pick your Stora credential in its nodes", then run it. The menu path is
// read from the README, so the walk fails when the README names a menu n8n (the newest supported) does not have. The Usage's other steps
// are walked by the trigger checks (browser/trigger.mjs: Execute step registers a "(test)" endpoint, Stop Listening
// removes it) and by the MCP and AI Agent checks (mcp.mjs, agent.mjs: a model calling the Stora tools).
//
// Part of the browser checks of `npm run test:e2e` (test/e2e/browser.mjs calls `usageChecks`);
// `node test/e2e/browser/usage.mjs` runs only these.
import fs from 'node:fs';
import path from 'node:path';

import { openNode, runWorkflow, savedWorkflowId } from '../../realN8n/chromium.mjs';
import { log, REPO } from '../../realN8n/n8n.mjs';
import { runAlone, startedAlone } from './alone.mjs';

const EXAMPLE = 'list-sites.json';
/** A credential of the user's own, named as nothing in the example is: the user picks it. */
const YOURS = 'My Stora account';

/** The README's Usage section. */
function readmeUsage() {
	const readme = fs.readFileSync(path.join(REPO, 'README.md'), 'utf8');
	const start = readme.indexOf('\n## Usage');
	return readme.slice(start, readme.indexOf('\n## ', start + 1));
}

export async function usageChecks({ page, check, n8n, sandbox, assert }) {
	console.log('\nBrowser (Chromium): the README\'s Usage, step by step');
	const example = JSON.parse(fs.readFileSync(path.join(REPO, 'examples', EXAMPLE), 'utf8'));
	const storaNode = example.nodes.find((node) => node.type === 'n8n-nodes-stora.stora');
	const lastNode = example.nodes.at(-1);

	await check(`README Usage: examples/${EXAMPLE} imported with ⋯ → Import → From file, "${YOURS}" picked in its Stora node, run: every site, by name`, async () => {
		const menuPath = /\*\*⋯\*\* menu, \*\*([^*→]+) → ([^*]+)\*\*/.exec(readmeUsage())?.slice(1).map((label) => label.trim());
		assert(menuPath, 'the README\'s Usage names no "**⋯** menu, **... → ...**" to import an example with');
		const credential = await n8n.createCredential(YOURS, 'storaApi', { baseUrl: sandbox.url, accessToken: sandbox.token });
		let workflowId;
		try {
			await page.goto(`${n8n.base}/workflow/new`, { waitUntil: 'domcontentloaded' });
			await page.locator('[data-test-id="workflow-menu"]').first().click();
			const submenu = page.locator('[data-test-id="workflow-menu-item-import"]');
			await submenu.hover();
			const item = page.locator('[data-test-id="workflow-menu-item-import-from-file"]');
			const labels = [(await submenu.innerText()).trim(), (await item.innerText()).trim()];
			assert(labels.join(' → ') === menuPath.join(' → '), `n8n's workflow menu says "${labels.join(' → ')}", the README "${menuPath.join(' → ')}"`);
			const [chooser] = await Promise.all([page.waitForEvent('filechooser'), item.click()]);
			await chooser.setFiles(path.join(REPO, 'examples', EXAMPLE));
			for (const node of example.nodes) await page.locator(`[data-test-id="canvas-node"][data-node-name="${node.name}"]`).waitFor();

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
			assert(execution.status === 'success', `the run ended ${execution.status}: ${execution.data?.resultData?.error?.message ?? ''}`);
			const used = execution.workflowData?.nodes?.find((node) => node.name === storaNode.name)?.credentials?.storaApi;
			assert(used?.id === credential.id, `the Stora node ran with ${JSON.stringify(used)}, not "${YOURS}" (${credential.id})`);
			const rows = (execution.data.resultData.runData[lastNode.name]?.[0]?.data?.main?.[0] ?? []).map((entry) => entry.json);
			const sites = (await sandbox.control.state('sites')).sort((a, b) => a.name.localeCompare(b.name));
			assert(
				JSON.stringify(rows.map((row) => [row.id, row.name])) === JSON.stringify(sites.map((site) => [site.id, site.name])),
				`"${lastNode.name}" gave ${JSON.stringify(rows.map((row) => row.name))}; the sandbox's sites by name: ${JSON.stringify(sites.map((site) => site.name))}`,
			);
		} finally {
			// n8n preselects the Stora credential saved last in new nodes: this one must not outlive the check.
			await n8n.request('DELETE', `/rest/credentials/${credential.id}`).catch((error) => log(`could not delete credential ${YOURS}: ${error.message}`));
			if (workflowId) await n8n.deleteWorkflow({ id: workflowId });
		}
	});
}

// `node test/e2e/browser/usage.mjs`: only these checks.
if (startedAlone(import.meta.url)) await runAlone('usage', usageChecks);
