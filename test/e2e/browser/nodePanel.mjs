// The Stora node panel in the editor: a listing workflow run from its panel, and the helper the other panel checks
// open their node with.
import { randomUUID } from 'node:crypto';

import { assertShows, closeDialog, textAndValues } from '../../realN8n/chromium.mjs';
import { sleep } from '../../realN8n/n8n.mjs';
import { STORA } from '../../realN8n/workflow.mjs';

/** The node panel of the canvas node `name` in the workflow `workflowId`, opened in the editor. */
async function openPanel({ n8n, page }, workflowId, name) {
	await page.goto(`${n8n.base}/workflow/${workflowId}`, { waitUntil: 'domcontentloaded' });
	const node = page.locator(`[data-test-id="canvas-node"][data-node-name="${name}"]`);
	await node.waitFor({ state: 'visible', timeout: 60_000 });
	await sleep(800);
	return node;
}

/** Double-clicks `node` and waits for its panel to settle; returns the panel. */
async function showPanel(page, node) {
	await node.dblclick();
	const ndv = page.locator('[data-test-id="ndv"]');
	await ndv.waitFor({ state: 'visible' });
	await sleep(800);
	return ndv;
}

/** A workflow with just `node` (Stora with the access-token credential unless told), opened in the editor; returns the node panel. */
export async function openNodePanel(
	b,
	title,
	{ name = 'Stora', type = STORA, parameters, ...extra },
) {
	const { accessToken } = b.credentials;
	const workflow = await b.n8n.createWorkflow({
		name: `Editor: ${title}`,
		nodes: [
			{
				id: randomUUID(),
				name,
				type,
				typeVersion: 1,
				position: [0, 0],
				parameters: { authentication: 'accessToken', ...parameters },
				credentials: { storaApi: { id: accessToken.id, name: accessToken.name } },
				...extra,
			},
		],
		connections: {},
		settings: { executionOrder: 'v1' },
	});
	const ndv = await showPanel(b.page, await openPanel(b, workflow.id, name));
	await assertShows(
		ndv.locator('[data-test-id="node-parameters"]'),
		['Credential', 'Stora sandbox (token)'],
		`the ${title} panel`,
	);
	return ndv;
}

export async function nodePanelChecks(b) {
	const { n8n, sandbox, check, assert, page, shot } = b;
	await check(
		'the Stora node panel shows the credential, resource and operation, and runs from the editor',
		async () => {
			await sandbox.control.reset('demo');
			const editorWorkflow = await n8n.createWorkflow({
				name: 'Stora: list sites',
				nodes: [
					{
						id: 'b7d0a4c2-0000-4000-8000-000000000001',
						name: 'When clicking ‘Execute workflow’',
						type: 'n8n-nodes-base.manualTrigger',
						typeVersion: 1,
						position: [0, 0],
						parameters: {},
					},
					{
						id: 'b7d0a4c2-0000-4000-8000-000000000002',
						name: 'Stora',
						type: STORA,
						typeVersion: 1,
						position: [260, 0],
						parameters: {
							authentication: 'accessToken',
							resource: 'site',
							operation: 'getAll',
							returnAll: false,
							limit: 5,
						},
						credentials: {
							storaApi: { id: b.credentials.accessToken.id, name: b.credentials.accessToken.name },
						},
					},
				],
				connections: {
					'When clicking ‘Execute workflow’': {
						main: [[{ node: 'Stora', type: 'main', index: 0 }]],
					},
				},
				settings: { executionOrder: 'v1' },
			});
			const node = await openPanel(b, editorWorkflow.id, 'Stora');
			await shot(page, 'editor-canvas');
			const ndv = await showPanel(page, node);
			const text = await textAndValues(ndv);
			for (const expected of [
				'Stora sandbox (token)',
				'Resource',
				'Site',
				'Operation',
				'Get Many',
				'Limit',
			]) {
				assert(text.includes(expected), `the node panel does not show "${expected}"`);
			}
			await shot(page, 'editor-node-panel');
			await ndv.locator('[data-test-id="node-execute-button"]').first().click();
			await ndv
				.getByText(/^\s*\d+ items?\s*$/)
				.first()
				.waitFor({ state: 'visible', timeout: 30_000 });
			await sleep(500);
			const output = await ndv.innerText();
			const ids = (await sandbox.control.state('sites')).map((site) => site.id);
			assert(
				ids.some((id) => output.includes(id)),
				`the output shows none of the sandbox's site IDs:\n${output.slice(0, 500)}`,
			);
			await shot(page, 'editor-node-executed');
			await closeDialog(page);
		},
	);
}
