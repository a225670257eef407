// What the editor tells a user beyond the fields: where Custom API Call leads, the CSV output's hint, and the
// credential dialog with its connection test.
import { closeDialog, openCredential, pickOption, textAndValues } from '../../realN8n/chromium.mjs';
import { sleep } from '../../realN8n/n8n.mjs';
import { until } from '../../realN8n/wait.mjs';
import { openNodePanel } from './nodePanel.mjs';

export async function hintChecks(b) {
	const { n8n, sandbox, check, assert, page, shot } = b;
	// n8n adds "Custom API Call" to the Resource list and points to the HTTP Request node, which
	// test/e2e/customApiCall.mjs then follows with each Stora credential.
	await check(
		"Custom API Call: picked in the Stora node's Resource list, the panel sends the user to the HTTP Request node with Stora's auth",
		async () => {
			const ndv = await openNodePanel(b, 'Custom API Call', {
				parameters: { resource: 'site', operation: 'getAll' },
			});
			await ndv.locator('[data-test-id="parameter-input-resource"]').click();
			await pickOption(page, 'Custom API Call');
			await sleep(300);
			await until(
				async () =>
					/Use the HTTP Request node to make a custom API call\. We'll take care of the Stora auth for you/.test(
						(await ndv.innerText()).replace(/\s+/g, ' '),
					),
				'the panel does not point to the HTTP Request node',
				{ timeoutMs: 20_000 },
			);
			await shot(page, 'editor-custom-api-call');
			await closeDialog(page);
		},
	);

	await check(
		"Invoice → Get Many as a CSV file: after Execute step the output pane says where the rows are (the node's hint)",
		async () => {
			const ndv = await openNodePanel(b, 'Invoice CSV', {
				parameters: {
					resource: 'invoice',
					operation: 'getAll',
					returnAll: true,
					outputFormat: 'csv',
				},
			});
			await ndv.locator('[data-test-id="node-execute-button"]').first().click();
			const output = ndv.locator('[data-test-id="output-panel"]');
			await until(
				async () => (await output.innerText()).includes('holding a CSV file'),
				'the output pane shows no hint about the CSV file',
				{ timeoutMs: 30_000 },
			);
			await closeDialog(page);
		},
	);

	await check(
		'the Stora API credential dialog shows its fields and a working connection test',
		async () => {
			const dialog = await openCredential(page, n8n, b.credentials.accessToken.id);
			// Opening the dialog of a saved credential runs n8n's connection test (the credential's `test` request).
			await page
				.getByText('Connection tested successfully')
				.first()
				.waitFor({ state: 'visible', timeout: 30_000 });
			const text = await textAndValues(page.locator('body'));
			for (const expected of [
				'Stora sandbox (token)',
				'Stora API',
				'Base URL',
				'Access Token',
				sandbox.url,
			]) {
				assert(text.includes(expected), `the dialog does not show "${expected}"`);
			}
			assert((await dialog.count()) === 1, 'no credential dialog');
			await shot(page, 'credential-access-token');
			await closeDialog(page);
		},
	);
}
