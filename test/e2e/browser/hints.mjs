// What the editor tells a user beyond the fields: where Custom API Call leads, the CSV output's hint, where the Docs
// links go, and the credential dialog with its connection test.
import { randomUUID } from 'node:crypto';

import { closeDialog, openCredential, pickOption, textAndValues } from '../../realN8n/chromium.mjs';
import { sleep } from '../../realN8n/n8n.mjs';
import { until } from '../../realN8n/wait.mjs';
import { STORA_POLL_TRIGGER, STORA_TRIGGER } from '../../realN8n/workflow.mjs';
import { PACKAGE_PREFIX } from '../workflow.mjs';
import { openNodePanel } from './nodePanel.mjs';

/** Where the links in `locator` point that lead to npm or to Stora's docs. */
const docsLinks = async (locator) =>
	await locator
		.locator('a[href*="npmjs.com"], a[href*="docs.stora.co"]')
		.evaluateAll((links) => links.map((link) => link.href));

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

	// The nodes have no documentation URL of their own, so n8n links a community node's Docs tab to its npm page (the
	// README); the credentials link to the README's Credentials section there.
	await check(
		"the Docs links of each node's panel and of both credential dialogs open the package's page on npm",
		async () => {
			const packagePage = `https://www.npmjs.com/package/${PACKAGE_PREFIX}`;
			const panels = [
				['Stora', { parameters: { resource: 'site', operation: 'getAll' } }],
				[
					'Stora Trigger',
					{
						name: 'Stora Trigger',
						type: STORA_TRIGGER,
						parameters: { events: [] },
						webhookId: randomUUID(),
					},
				],
				[
					'Stora Polling Trigger',
					{
						name: 'Stora Polling Trigger',
						type: STORA_POLL_TRIGGER,
						parameters: { pollResource: 'contact' },
					},
				],
			];
			for (const [title, options] of panels) {
				const ndv = await openNodePanel(b, `Docs link of ${title}`, options);
				const links = await docsLinks(ndv);
				assert(
					links.length > 0 && links.every((link) => link === packagePage),
					`the ${title} panel links to ${links.join(', ') || 'no docs'}, not ${packagePage}`,
				);
				await closeDialog(page);
			}
			if (!b.credentials.oauth2ClientCredentials) await b.freshClientCredentials();
			for (const credential of [b.credentials.accessToken, b.credentials.oauth2ClientCredentials]) {
				const dialog = await openCredential(page, n8n, credential.id);
				const links = await docsLinks(dialog);
				assert(
					links.length > 0 && links.every((link) => link === `${packagePage}#credentials`),
					`the ${credential.name} dialog links to ${links.join(', ') || 'no docs'}, not ${packagePage}#credentials`,
				);
				await closeDialog(page);
			}
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
