// The README's Custom API Call route as a user takes it: n8n's HTTP Request node, Authentication → Predefined
// Credential Type, and both Stora credentials in its Credential Type list (the editor offers only
// credential types whose authentication it can read).
import { closeDialog, openNode } from '../../realN8n/chromium.mjs';
import { sleep } from '../../realN8n/n8n.mjs';
import { until } from '../../realN8n/wait.mjs';
import { chain, manualTriggerNode, node } from '../../realN8n/workflow.mjs';
import { runAlone, startedAlone } from './alone.mjs';

/** The options the open dropdown shows (typing hides the others), each by its first line (a description may follow). */
async function optionNames(page) {
	return (await page.locator('.el-popper:visible li[role=option]:visible').allInnerTexts()).map(
		(text) => text.trim().split('\n')[0].trim(),
	);
}

export async function credentialPickerChecks(b) {
	const { n8n, sandbox, check, assert, page, shot } = b;
	await check(
		'Custom API Call in the editor: HTTP Request → Authentication → Predefined Credential Type → Credential Type, typed "Stora", lists Stora API and Stora OAuth2 API',
		async () => {
			const workflow = await n8n.createWorkflow(
				chain('Editor: HTTP Request with a Stora credential', [
					manualTriggerNode(),
					node('HTTP Request', 'n8n-nodes-base.httpRequest', 4.2, {
						url: `${sandbox.url}/2025-09/sites`,
						options: {},
					}),
				]),
			);
			b.workflows?.push(workflow);
			await page.goto(`${n8n.base}/workflow/${workflow.id}`, { waitUntil: 'domcontentloaded' });
			await page
				.locator('[data-test-id="canvas-node"][data-node-name="HTTP Request"]')
				.waitFor({ state: 'visible', timeout: 60_000 });
			const ndv = await openNode(page, 'HTTP Request');
			await sleep(500);
			await ndv.locator('[data-test-id="parameter-input-authentication"]').click();
			// Each option of Authentication carries a description under its name.
			await page
				.locator('.el-popper:visible li[role=option]', { hasText: 'Predefined Credential Type' })
				.click();
			await sleep(300);
			const type = ndv.locator('[data-test-id="parameter-input-nodeCredentialType"]');
			await type.waitFor({ state: 'visible', timeout: 10_000 });
			await type.click();
			await page.keyboard.type('Stora');
			let shown = [];
			await until(
				async () => {
					shown = await optionNames(page);
					return shown.length > 0 && shown.every((text) => /stora/i.test(text));
				},
				() =>
					`the Credential Type list to show only Stora types after typing "Stora" (it shows ${JSON.stringify(shown)})`,
				{ timeoutMs: 20_000 },
			);
			await shot(page, 'editor-http-request-stora-credential-types');
			for (const name of ['Stora API', 'Stora OAuth2 API']) {
				assert(
					shown.includes(name),
					`the Credential Type list shows ${JSON.stringify(shown)}, without "${name}"`,
				);
			}
			await page.keyboard.press('Escape');
			await closeDialog(page);
			// Its workflow is deleted with the run's: no editor may still show it then (a console error when it asks again).
			await page.goto('about:blank').catch(() => {});
		},
	);
}

// `node test/e2e/browser/credentialPicker.mjs`: only this check.
if (startedAlone(import.meta.url)) await runAlone('credential-picker', credentialPickerChecks);
