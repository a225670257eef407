// Node panels with fields to fill in: required fields, Additional Fields and Filters with the API's values, a switch
// that hides a field, an ID-only locator that checks its prefix, and the defaults of Update Fields.
import {
	addToCollection,
	assertList,
	assertShows,
	closeDialog,
	dropdownOptions,
	issuesOf,
	openCollection,
	parameterItem,
	pickOption,
} from '../../realN8n/chromium.mjs';
import { sleep } from '../../realN8n/n8n.mjs';
import { until } from '../../realN8n/wait.mjs';
import { openNodePanel } from './nodePanel.mjs';

export async function fieldChecks(b) {
	const { sandbox, check, assert, page, shot } = b;
	await check(
		"Contact → Create: the required Email field and every Additional Field, with the API's contact types",
		async () => {
			const ndv = await openNodePanel(b, 'Contact → Create', {
				parameters: { resource: 'contact', operation: 'create' },
			});
			const params = ndv.locator('[data-test-id="node-parameters"]');
			await assertShows(
				params,
				['Resource', 'Contact', 'Operation', 'Create', 'Email', 'Additional Fields'],
				'the Contact → Create panel',
			);
			const email = parameterItem(ndv, 'email');
			assert(
				(await email.locator('input[placeholder="name@email.com"]').count()) === 1,
				'the Email field has no "name@email.com" placeholder',
			);
			const issues = await issuesOf(page, email);
			assert(
				/Email.*required/i.test(issues),
				`the empty Email field is not flagged as required (tooltip: ${issues})`,
			);
			const fields = await openCollection(page, ndv, 'Add Field');
			assertList(
				fields,
				[
					'Address',
					'Company Registration Number',
					'Full Name',
					'Marketing Source',
					'Metadata',
					'Phone Number',
					'Source',
					'Tax ID',
					'Type',
					'Use Case',
				],
				'the Additional Fields of Contact → Create',
			);
			await shot(page, 'editor-contact-create');
			await pickOption(page, 'Type');
			await assertShows(parameterItem(ndv, 'type'), ['Type', 'Domestic'], 'the added Type field');
			await parameterItem(ndv, 'type').locator('[data-test-id="parameter-input-type"]').click();
			assertList(
				await dropdownOptions(page),
				['Charity', 'Company', 'Domestic', 'Local Authority', 'Student'],
				'the options of Type',
			);
			await pickOption(page, 'Company');
			await assertShows(
				parameterItem(ndv, 'type'),
				['Company'],
				'the Type field after choosing Company',
			);
			await closeDialog(page);
		},
	);

	await check(
		"Order → Get Many: Return All hides Limit; the Billing Period and Status filters are multi-selects of the API's values",
		async () => {
			const ndv = await openNodePanel(b, 'Order → Get Many', {
				parameters: { resource: 'order', operation: 'getAll' },
			});
			const params = ndv.locator('[data-test-id="node-parameters"]');
			await assertShows(
				params,
				[
					'Order',
					'Get Many',
					'Return All',
					'Limit',
					'50',
					'Filters',
					'Options',
					'Output Format',
					'Simplify',
				],
				'the Order → Get Many panel',
			);
			assertList(
				await openCollection(page, ndv, 'Add Filter'),
				[
					'Billing Period',
					'Contact IDs',
					'Created After',
					'Created Before',
					'Metadata',
					'Site Names or IDs',
					'Source',
					'Starts After',
					'Starts Before',
					'Status',
					'Updated After',
					'Updated Before',
				],
				'the Filters of Order → Get Many',
			);
			await pickOption(page, 'Billing Period');
			await addToCollection(page, ndv, 'Add Filter', 'Status');
			await ndv.locator('[data-test-id="parameter-input-billingPeriod"]').click();
			assertList(
				await dropdownOptions(page),
				[
					'Every Four Weeks',
					'Every Six Months',
					'Every Three Months',
					'Monthly',
					'One Time',
					'Weekly',
					'Yearly',
				],
				'the options of the Billing Period filter',
			);
			await pickOption(page, 'Monthly');
			await pickOption(page, 'Yearly'); // a multi-select stays open
			await page.keyboard.press('Escape');
			await sleep(300);
			await ndv.locator('[data-test-id="parameter-input-status"]').click();
			assertList(
				await dropdownOptions(page),
				['Abandoned', 'Completed', 'Draft', 'Finalized'],
				'the options of the Status filter',
			);
			await pickOption(page, 'Finalized');
			await page.keyboard.press('Escape');
			await sleep(300);
			await assertShows(
				parameterItem(ndv, 'billingPeriod'),
				['Billing Period', 'Monthly', 'Yearly'],
				'the Billing Period filter',
			);
			await assertShows(parameterItem(ndv, 'status'), ['Status', 'Finalized'], 'the Status filter');
			await ndv.locator('[data-test-id="parameter-input-returnAll"] .el-switch').click();
			await until(
				async () => (await ndv.locator('[data-test-id="parameter-input-limit"]').count()) === 0,
				'Limit is still shown with Return All on',
				{ timeoutMs: 5_000 },
			);
			await shot(page, 'editor-order-get-many');
			await closeDialog(page);
		},
	);

	await check(
		'Price Adjustment → Update: an ID-only locator that checks the pradj_ prefix, and the Update Fields with their defaults',
		async () => {
			await sandbox.control.reset('demo');
			const [draft] = (await sandbox.control.state('price_adjustments')).filter(
				(adjustment) => adjustment.status === 'draft',
			);
			assert(draft, 'no draft price adjustment in the demo seed');
			const ndv = await openNodePanel(b, 'Price Adjustment → Update', {
				parameters: {
					resource: 'priceAdjustment',
					operation: 'update',
					priceAdjustmentId: { __rl: true, mode: 'id', value: 'adj_123' },
				},
			});
			await assertShows(
				ndv.locator('[data-test-id="node-parameters"]'),
				['Price Adjustment', 'Update', 'Update Fields'],
				'the Price Adjustment → Update panel',
			);
			const locator = parameterItem(ndv, 'priceAdjustmentId');
			// The API cannot list price adjustments: no "From List" mode, only an ID.
			assert(
				(await locator.locator('[data-test-id="rlc-mode-selector"]').count()) === 0,
				'the Price Adjustment locator offers a mode other than By ID',
			);
			const issues = await issuesOf(page, locator);
			assert(
				issues.includes('A price adjustment ID starts with "pradj_"'),
				`no prefix warning for "adj_123" (tooltip: ${issues})`,
			);
			const idInput = locator.locator('[data-test-id="rlc-input"]');
			await idInput.fill(draft.id);
			await idInput.blur();
			await until(
				async () => (await locator.locator('[data-test-id="parameter-issues"]').count()) === 0,
				`the ID ${draft.id} is still flagged`,
				{ timeoutMs: 5_000 },
			);
			assertList(
				await openCollection(page, ndv, 'Add Field'),
				[
					'Apply to Products',
					'Apply to Protection Levels',
					'Apply to Unit Types',
					'Effective From',
					'Notice Period (Days)',
					'Percentage',
					'Skip Customer Notification',
				],
				'the Update Fields of Price Adjustment → Update',
			);
			await pickOption(page, 'Percentage');
			for (const field of ['Effective From', 'Notice Period (Days)', 'Apply to Unit Types'])
				await addToCollection(page, ndv, 'Add Field', field);
			await assertShows(
				parameterItem(ndv, 'effectiveFrom'),
				['Effective From', 'next_billing_period'],
				'Effective From',
			);
			await assertShows(
				parameterItem(ndv, 'noticePeriod'),
				['Notice Period (Days)', '30'],
				'Notice Period (Days)',
			);
			await assertShows(parameterItem(ndv, 'percentage'), ['Percentage'], 'Percentage');
			assert(
				(await parameterItem(ndv, 'applyToUnitTypes').locator('.el-switch.is-checked').count()) ===
					1,
				'Apply to Unit Types is not on by default',
			);
			await parameterItem(ndv, 'percentage').locator('input').fill('5');
			await page.mouse.move(1300, 700);
			await sleep(300);
			await assertShows(locator, [draft.id], 'the Price Adjustment locator');
			await shot(page, 'editor-price-adjustment-update');
			await closeDialog(page);
		},
	);
}
