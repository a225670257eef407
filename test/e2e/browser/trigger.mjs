// The Stora Trigger in the editor: its Events and webhook URLs, and the buttons a user clicks to listen.
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import path from 'node:path';

import {
	assertList,
	assertShows,
	closeDialog,
	dropdownOptions,
	parameterItem,
	pickOption,
} from '../../realN8n/chromium.mjs';
import { REPO, sleep } from '../../realN8n/n8n.mjs';
import { until } from '../../realN8n/wait.mjs';
import { STORA_TRIGGER } from '../../realN8n/workflow.mjs';
import { openNodePanel } from './nodePanel.mjs';

/** "Invoice Paid" for `invoice.paid`, as the trigger names event types. */
const eventName = (type) =>
	type
		.split(/[._]/)
		.map((word) => word.charAt(0).toUpperCase() + word.slice(1))
		.join(' ');

export async function triggerPanelChecks(b) {
	const { n8n, sandbox, check, assert, page, shot } = b;
	await check(
		'Stora Trigger: Events lists every event type of the API; the test and production webhook URLs are shown',
		async () => {
			const webhookId = randomUUID();
			const ndv = await openNodePanel(b, 'Stora Trigger', {
				name: 'Stora Trigger',
				type: STORA_TRIGGER,
				parameters: { events: [] },
				webhookId,
			});
			const params = ndv.locator('[data-test-id="node-parameters"]');
			await assertShows(params, ['Webhook URLs', 'Events', 'Options'], 'the Stora Trigger panel');
			const { EVENT_TYPES } = createRequire(import.meta.url)(
				path.join(REPO, 'build/sandbox/index.js'),
			);
			await ndv.locator('[data-test-id="parameter-input-events"]').click();
			assertList(
				await dropdownOptions(page),
				EVENT_TYPES.map(eventName).sort((a, b) => a.localeCompare(b)),
				"the Events of the trigger (the sandbox's event types)",
			);
			await pickOption(page, 'Contact Created');
			await pickOption(page, 'Invoice Paid');
			await page.keyboard.press('Escape');
			await sleep(300);
			await assertShows(
				parameterItem(ndv, 'events'),
				['Contact Created', 'Invoice Paid'],
				'the Events field',
			);
			await ndv.locator('[data-test-id="parameter-input-events"]').click(); // reopened, the list starts at the top
			await dropdownOptions(page);
			await shot(page, 'editor-trigger-events');
			await page.keyboard.press('Escape');
			await sleep(300);
			await params.getByText('Webhook URLs').click();
			const url = params.locator('.webhook-url');
			await url.waitFor({ state: 'visible' });
			await sleep(300);
			const shownUrl = async () => (await url.innerText()).replace(/\s+/g, '');
			assert(
				(await shownUrl()) === `${n8n.base}/webhook-test/${webhookId}/webhook`,
				`the Test URL reads ${await shownUrl()}`,
			);
			await assertShows(params, ['Test URL', 'Production URL', 'POST'], 'the Webhook URLs');
			await params.locator('[data-test-id="radio-button-production"]').click();
			await until(
				async () => (await shownUrl()) === `${n8n.base}/webhook/${webhookId}/webhook`,
				`the Production URL reads ${await shownUrl()}`,
				{ timeoutMs: 5_000 },
			);
			await shot(page, 'editor-trigger-webhook-urls');
			await closeDialog(page);
		},
	);

	// The buttons a user clicks, after the REST routes they call were checked (test/realN8n/triggerLife.mjs).
	await check(
		'Stora Trigger in the editor: "Execute step" registers one test endpoint, "Stop Listening" removes it; listening again, an event arrives, its output shows and the endpoint is gone',
		async () => {
			const webhookId = randomUUID();
			const ndv = await openNodePanel(b, 'Stora Trigger listens', {
				name: 'Stora Trigger',
				type: STORA_TRIGGER,
				parameters: { events: ['contact.created'] },
				webhookId,
			});
			const testEndpoints = async () =>
				(await sandbox.control.state('webhook_endpoints')).filter((e) =>
					String(e.url).includes(`/webhook-test/${webhookId}/`),
				).length;
			const within = { timeoutMs: 20_000 };
			// The node's hint says what a test listen does in Stora, before the user clicks.
			await until(
				async () =>
					(await ndv.innerText()).includes(
						'registers a temporary "(test)" webhook endpoint in Stora',
					),
				'the trigger panel does not show the hint about the test endpoint',
				within,
			);
			const execute = ndv.locator('[data-test-id="node-execute-button"]').first();
			await execute.click();
			await until(
				async () => (await testEndpoints()) === 1,
				'Execute step registered no test endpoint in Stora',
				within,
			);
			const stop = page.getByRole('button', { name: /stop listening/i }).first();
			await stop.waitFor({ state: 'visible' });
			await shot(page, 'editor-trigger-listening');
			await stop.click();
			await until(
				async () => (await testEndpoints()) === 0,
				'Stop Listening left the test endpoint in Stora',
				within,
			);
			await execute.click();
			await until(
				async () => (await testEndpoints()) === 1,
				'Execute step (again) registered no test endpoint in Stora',
				within,
			);
			const { event } = await sandbox.control.call('POST', '/__sandbox/events', {
				type: 'contact.created',
			});
			const output = ndv.locator('[data-test-id="output-panel"]');
			await until(
				async () => (await output.innerText()).includes(event.id),
				`the output does not show event ${event.id}`,
				{ timeoutMs: 30_000 },
			);
			await until(
				async () => (await testEndpoints()) === 0,
				'the test endpoint stayed in Stora after the event ended the listen',
				within,
			);
			await closeDialog(page);
		},
	);
}
