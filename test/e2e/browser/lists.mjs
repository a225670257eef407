// What the editor loads from the API: "From List" resource locators (with search) and a dropdown of options.
import {
	assertList,
	assertShows,
	closeDialog,
	openCollection,
	parameterItem,
	pickOption,
} from '../../realN8n/chromium.mjs';
import { sleep } from '../../realN8n/n8n.mjs';
import { until } from '../../realN8n/wait.mjs';
import { openNodePanel } from './nodePanel.mjs';

export async function listChecks(b) {
	const { sandbox, check, assert, page, shot } = b;
	await check(
		'Protection Level → Get: the breaking-change notice, and "From List" lists the sandbox\'s protection levels',
		async () => {
			await sandbox.control.reset('demo');
			const ndv = await openNodePanel(b, 'Protection Level → Get', {
				parameters: { resource: 'protectionLevel', operation: 'get' },
			});
			const params = ndv.locator('[data-test-id="node-parameters"]');
			await assertShows(
				params,
				['Protection Level', 'Get', 'Simplify'],
				'the Protection Level → Get panel',
			);
			const notice = params.getByText(
				'Stora has announced a breaking change to the protection level endpoints: protection levels are becoming site-scoped',
			);
			await notice.waitFor({ state: 'visible', timeout: 5_000 }).catch(() => {
				throw new Error('the breaking-change notice is not shown');
			});
			await parameterItem(ndv, 'protectionLevelId').locator('[data-test-id="rlc-input"]').click();
			const items = page.locator('[data-test-id="rlc-item"]:visible');
			await items.first().waitFor({ state: 'visible' });
			await sleep(300);
			const expected = (await sandbox.control.state('protection_levels')).map(
				(level) => `Cover up to ${level.cover_level.formatted} (${level.id})`,
			);
			assertList(
				[...(await items.allInnerTexts())].map((t) => t.trim()).sort(),
				expected.sort(),
				'the protection levels of "From List"',
			);
			await shot(page, 'editor-protection-level-get');
			await page.keyboard.press('Escape');
			await sleep(300);
			await closeDialog(page);
		},
	);

	await check(
		"Deal → Create: the Stage dropdown is loaded from the API and lists the sandbox's deal stages by name",
		async () => {
			await sandbox.control.reset('demo');
			const ndv = await openNodePanel(b, 'Deal → Create', {
				parameters: { resource: 'deal', operation: 'create' },
			});
			await assertShows(
				ndv.locator('[data-test-id="node-parameters"]'),
				['Deal', 'Create', 'Contact', 'From list', 'Additional Fields'],
				'the Deal → Create panel',
			);
			assertList(
				await openCollection(page, ndv, 'Add Field'),
				[
					'Assignee ID',
					'Metadata',
					'Name',
					'Note',
					'Protection Level ID',
					'Site Name or ID',
					'Stage Name or ID',
					'Starts At',
					'Unit Type Name or ID',
				],
				'the Additional Fields of Deal → Create',
			);
			await sandbox.control.clearRequests();
			await pickOption(page, 'Stage Name or ID'); // n8n loads the options as the field appears
			const stageInput = ndv.locator('[data-test-id="parameter-input-stageId"]');
			await stageInput.waitFor({ state: 'visible', timeout: 30_000 });
			await stageInput.click();
			const stages = await sandbox.control.state('stages');
			// On a busy machine the options may arrive after the popper opened, or a click may land before the field is ready:
			// reopen the dropdown while it shows nothing, instead of waiting on a closed one.
			const visibleOptions = async () =>
				(await page.locator('.el-popper:visible li[role=option]').allInnerTexts()).map((text) =>
					text.trim(),
				);
			let clickedAt = Date.now();
			await until(
				async () => {
					if ((await visibleOptions()).length === 0 && Date.now() - clickedAt > 4000) {
						await stageInput.click();
						clickedAt = Date.now();
					}
					return (await visibleOptions()).length === stages.length;
				},
				`the Stage dropdown does not list ${stages.length} stages`,
				{ timeoutMs: 60_000 },
			);
			const shown = await visibleOptions();
			assertList(
				[...shown].sort(),
				stages.map((stage) => stage.name).sort(),
				'the deal stages of the Stage dropdown',
			);
			const requests = await sandbox.control.requests();
			assert(
				requests.some(
					(r) => r.method === 'GET' && r.path === '/2025-09/deals/stages' && r.status === 200,
				),
				`the dropdown did not read GET /2025-09/deals/stages; requests: ${requests.map((r) => `${r.method} ${r.path} ${r.status}`).join(', ')}`,
			);
			await shot(page, 'editor-deal-stage-dropdown');
			const chosen = stages.find((stage) => stage.name === 'Quote sent') ?? stages[0];
			await pickOption(page, chosen.name);
			await assertShows(
				parameterItem(ndv, 'stageId'),
				[chosen.name],
				'the Stage field after choosing a stage',
			);
			await closeDialog(page);
		},
	);

	await check(
		'Contact → Get: "From List" lists the sandbox\'s contacts by name, search narrows it, the picked contact runs',
		async () => {
			await sandbox.control.reset('demo');
			const contacts = await sandbox.control.state('contacts');
			const label = (contact) => `${contact.full_name} (${contact.email})`;
			const ndv = await openNodePanel(b, 'Contact → Get', {
				parameters: { resource: 'contact', operation: 'get' },
			});
			await assertShows(
				ndv.locator('[data-test-id="node-parameters"]'),
				['Contact', 'Get', 'From list'],
				'the Contact → Get panel',
			);
			const locator = parameterItem(ndv, 'contactId');
			await locator.locator('[data-test-id="rlc-input"]').click();
			const items = page.locator('[data-test-id="rlc-item"]:visible');
			await items.first().waitFor({ state: 'visible' });
			await sleep(300);
			const listed = (await items.allInnerTexts()).map((t) => t.trim());
			assertList(
				[...listed].sort(),
				contacts.map(label).sort(),
				'the contacts of "From List" (the demo seed has fewer than a page)',
			);
			await sandbox.control.clearRequests();
			await page
				.locator('input[data-test-id="rlc-search"], [data-test-id="rlc-search"] input')
				.fill('walker');
			const matching = contacts.filter((c) =>
				`${c.full_name} ${c.email}`.toLowerCase().includes('walker'),
			);
			assert(matching.length > 1, 'the demo seed has fewer than two contacts named Walker');
			await until(
				async () => (await items.count()) === matching.length,
				`the search "walker" does not narrow the list to ${matching.length} contacts`,
				{ timeoutMs: 20_000 },
			);
			assertList(
				(await items.allInnerTexts()).map((t) => t.trim()).sort(),
				matching.map(label).sort(),
				'the contacts found by "walker"',
			);
			assert(
				(await sandbox.control.requests()).some(
					(r) => r.path === '/2025-09/contacts' && r.query?.search === 'walker',
				),
				'the search was not sent to the API as ?search=walker',
			);
			await shot(page, 'editor-contact-from-list');
			const picked = matching[0];
			await items
				.filter({ hasText: label(picked) })
				.first()
				.click();
			await sleep(500);
			await assertShows(locator, [label(picked)], 'the Contact locator after picking');
			await ndv.locator('[data-test-id="node-execute-button"]').first().click();
			await ndv
				.getByText(/^\s*1 item\s*$/)
				.first()
				.waitFor({ state: 'visible', timeout: 30_000 });
			await sleep(500);
			const output = await ndv.locator('[data-test-id="output-panel"]').innerText();
			assert(
				output.includes(picked.id),
				`the output does not show the picked contact ${picked.id}:\n${output.slice(0, 500)}`,
			);
			await closeDialog(page);
		},
	);
}
