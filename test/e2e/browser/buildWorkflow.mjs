// A workflow built from an empty canvas in Chromium, the way a new user builds one, through n8n's node creator:
// Manual Trigger → Stora "Get many contacts" (Status Lead, Limit 5) → Stora "Create a task" per contact (Title from
// the contact, a site from the dropdown, the contact as the linked record), run from the editor, the tasks checked
// in the sandbox. On the way: what the node creator shows for "stora", "stora task" and "stora invoice", which
// credential a new Stora node starts with, and then the bad inputs (a Title expression that gives nothing, a blank
// optional field) and what the panel says about them, and what the credential dialog says about a bad token, an
// unreachable host and a wrong Base URL.
//
// Part of the browser checks of `npm run test:e2e` (test/e2e/browser.mjs calls `buildWorkflowChecks`);
// `node test/e2e/browser/buildWorkflow.mjs` runs only these, with its own sandbox, n8n and Chromium.
import {
	addToCollection,
	closeDialog,
	dropdownOptions,
	lastExecutionId,
	openCredential,
	openNode,
	parameterItem,
	pickOption,
	runWorkflow,
	savedWorkflowId,
	textAndValues,
} from '../../realN8n/chromium.mjs';
import { DEMO_CREDENTIALS, demoCredentials } from '../../../scripts/demo.mjs';
import { freePort, log, seconds, sleep } from '../../realN8n/n8n.mjs';
import { until } from '../../realN8n/wait.mjs';
import { runAlone, startedAlone } from './alone.mjs';

const TRIGGER = 'When clicking ‘Execute workflow’';
const CONTACTS = 'Get many contacts';
const TASKS = 'Create a task';

/** The entries of the node creator's list: { title, description } each. */
async function creatorEntries(page) {
	const texts = await page
		.locator('[data-test-id="node-creator"] [data-test-id="item-iterator-item"]')
		.allInnerTexts();
	return texts.map((text) => {
		const [title, ...rest] = text
			.split('\n')
			.map((line) => line.trim())
			.filter(Boolean);
		return { title, description: rest.join(' ') };
	});
}

/** Types `query` into the node creator's search and waits until the list shows an entry titled `expected`. */
async function search(page, query, expected) {
	await page.locator('[data-test-id="node-creator-search-bar"]').fill(query);
	let entries = [];
	await until(
		async () => (entries = await creatorEntries(page)).some((entry) => entry.title === expected),
		() =>
			`searching "${query}" shows no "${expected}": ${entries.map((e) => e.title).join(', ') || 'nothing'}`,
		{ timeoutMs: 10_000 },
	);
	return entries;
}

/** Clicks the node creator entry titled exactly `title`. */
async function pick(page, title) {
	await page
		.locator('[data-test-id="node-creator"] [data-test-id="item-iterator-item"]')
		.filter({ has: page.getByText(title, { exact: true }) })
		.first()
		.click();
}

/** Opens the node creator from the "+" of `node`'s output, searches `query`, opens Stora and adds `action`. */
async function addStoraAction(page, node, query, action) {
	await page.locator(`[data-test-id="canvas-node"][data-node-name="${node}"]`).hover();
	await page
		.locator('[data-test-id="canvas-node-output-handle"] [data-test-id="canvas-handle-plus"]')
		.first()
		.click();
	await search(page, query, 'Stora');
	await pick(page, 'Stora');
	await pick(page, action);
	const ndv = page.locator('[data-test-id="ndv"]');
	await ndv.waitFor({ state: 'visible' });
	await page
		.locator(`[data-test-id="canvas-node"][data-node-name="${action}"]`)
		.waitFor({ state: 'attached' });
	return ndv;
}

/** Turns a fixed text parameter into an expression (its text becomes the expression). */
async function makeExpression(ndv, name) {
	const item = parameterItem(ndv, name);
	await item.hover();
	await item.locator('[data-test-id="radio-button-expression"]').click();
	await item
		.locator('[data-test-id="inline-expression-editor-input"]')
		.waitFor({ state: 'visible' });
}

/** Sets parameter `name` to the expression `expression` (without the leading "="), starting from Fixed. */
async function setExpression(page, ndv, name, expression) {
	const item = parameterItem(ndv, name);
	if ((await item.locator('[data-test-id="inline-expression-editor-input"]').count()) > 0) {
		await item.hover();
		await item.locator('[data-test-id="radio-button-fixed"]').click();
	}
	const input = item
		.locator(
			`[data-test-id="parameter-input-${name}"] input, [data-test-id="parameter-input-${name}"] textarea`,
		)
		.first();
	await input.fill(expression);
	await makeExpression(ndv, name);
	const shown = (
		await item.locator('[data-test-id="inline-expression-editor-input"]').innerText()
	).trim();
	if (shown !== expression)
		throw new Error(`${name} reads "${shown}" as an expression, not "${expression}"`);
}

export async function buildWorkflowChecks({ page, check, n8n, sandbox, assert, shot }) {
	console.log(
		'\nBrowser (Chromium): a workflow built from an empty canvas through the node creator',
	);
	const state = {};
	const nodeTypes = await n8n.request('GET', '/types/nodes.json');
	const typeOf = (name) => nodeTypes.find((type) => type.name === `n8n-nodes-stora.${name}`);

	await check(
		'the node creator: "stora" lists Stora and Stora Polling, each with its own description; "stora task" and "stora invoice" find Stora; Stora lists its Trigger\'s events first on an empty canvas, its actions from Access Token after a trigger',
		async () => {
			await sandbox.control.reset('demo');
			// The demo's credentials: n8n preselects the Stora credential saved last, which the demo makes the access token.
			await demoCredentials(n8n, sandbox);
			await page.goto(`${n8n.base}/workflow/new`, { waitUntil: 'domcontentloaded' });
			// What the README says Stora lists: on an empty canvas its Trigger's events first, after a trigger its actions
			// from Access Token down.
			const firstListed = async (pattern, where) => {
				let titles = [];
				await until(
					async () =>
						pattern.test(
							(titles = (await creatorEntries(page)).map((entry) => entry.title))[0] ?? '',
						),
					() => `${where}, Stora lists first "${titles.slice(0, 3).join('", "')}"`,
					{ timeoutMs: 10_000 },
				);
			};
			await page.locator('[data-test-id="canvas-add-button"]').click();
			await search(page, 'stora', 'Stora');
			await pick(page, 'Stora');
			await firstListed(/^On contact /, 'on an empty canvas');
			await page.keyboard.press('Escape');
			await page.keyboard.press('Escape');
			await page.locator('[data-test-id="canvas-add-button"]').click();
			await search(page, 'manual', 'Manual Trigger');
			await pick(page, 'Manual Trigger');
			await page.locator(`[data-test-id="canvas-node"][data-node-name="${TRIGGER}"]`).waitFor();
			await closeDialog(page); // n8n may open the trigger's panel
			state.workflowId = await savedWorkflowId(page);

			await page.locator(`[data-test-id="canvas-node"][data-node-name="${TRIGGER}"]`).hover();
			await page
				.locator('[data-test-id="canvas-node-output-handle"] [data-test-id="canvas-handle-plus"]')
				.first()
				.click();
			const entries = await search(page, 'stora', 'Stora');
			await shot(page, 'node-creator-stora');
			const stora = entries.find((entry) => entry.title === 'Stora');
			assert(
				stora.description === typeOf('stora').description,
				`"Stora" is described as "${stora.description}", not as the Stora node: "${typeOf('stora').description}"`,
			);
			const polling = entries.find((entry) => entry.title === 'Stora Polling');
			assert(
				polling?.description === typeOf('storaPollTrigger').description,
				`no "Stora Polling" with the Poll Trigger's description among ${JSON.stringify(entries.slice(0, 4))}`,
			);
			assert(
				!entries.some(
					(entry) => /^Stora (Poll|Trigger)?$/.test(entry.title) && entry.title !== 'Stora',
				),
				`a name reads badly: ${entries.map((e) => e.title).join(', ')}`,
			);
			for (const query of ['stora task', 'stora invoice']) await search(page, query, 'Stora');
			await pick(page, 'Stora');
			await firstListed(/^access token actions$/i, 'after a trigger');
			// n8n searches names and codex aliases (not descriptions): every resource needs its "Stora <Resource>" alias.
			const resources = typeOf('stora').properties.find(
				(property) => property.name === 'resource',
			).options;
			const missing = resources.filter(
				(option) =>
					option.value !== '__CUSTOM_API_CALL__' &&
					!typeOf('stora').codex?.alias?.includes(`Stora ${option.name}`),
			);
			assert(
				missing.length === 0,
				`nodes/Stora/Stora.node.json has no alias for ${missing.map((option) => `"Stora ${option.name}"`).join(', ')}`,
			);
			await page.keyboard.press('Escape');
			await page.keyboard.press('Escape');
		},
	);

	await check(
		`builds Manual Trigger → ${CONTACTS} (Status Lead, Limit 5) → ${TASKS} (Title from the contact, a site from the dropdown) and runs it: one task per lead contact`,
		async () => {
			assert(state.workflowId, 'no workflow (the step before failed)');
			let ndv = await addStoraAction(page, TRIGGER, 'stora contact', CONTACTS);
			const credential = await ndv
				.locator('[data-test-id="node-credentials-select"] input')
				.inputValue();
			assert(
				credential === DEMO_CREDENTIALS.accessToken,
				`a new Stora node starts with "${credential}", not "${DEMO_CREDENTIALS.accessToken}"`,
			);
			await ndv.locator('[data-test-id="parameter-input-limit"] input').fill('5');
			await addToCollection(page, ndv, 'Add Filter', 'Status');
			await ndv.locator('[data-test-id="parameter-input-status"]').click();
			await dropdownOptions(page);
			await pickOption(page, 'Lead');
			await page.keyboard.press('Escape');
			await ndv.locator('[data-test-id="ndv-close-button"]').click();

			ndv = await addStoraAction(page, CONTACTS, 'stora task', TASKS);
			await setExpression(page, ndv, 'title', 'Call {{ $json.full_name }}');
			const [site] = await sandbox.control.state('sites');
			await addToCollection(page, ndv, 'Add Field', 'Site Name or ID');
			const siteInput = ndv.locator('[data-test-id="parameter-input-siteId"]');
			await siteInput.click();
			const options = await dropdownOptions(page);
			assert(
				options.includes(site.name),
				`the Site dropdown does not list "${site.name}": ${options.join(', ')}`,
			);
			await pickOption(page, site.name);
			await addToCollection(page, ndv, 'Add Field', 'Linked Record ID');
			await setExpression(page, ndv, 'resourceId', '{{ $json.id }}');
			await shot(page, 'editor-build-task-panel');
			await ndv.locator('[data-test-id="ndv-close-button"]').click();

			const tasksBefore = new Set((await sandbox.control.state('tasks')).map((task) => task.id));
			await sandbox.control.clearRequests();
			const started = Date.now();
			const execution = await runWorkflow(
				page,
				n8n,
				state.workflowId,
				await lastExecutionId(n8n, state.workflowId),
			);
			const ms = Date.now() - started;
			await shot(page, 'editor-build-ran');
			assert(
				execution.status === 'success',
				`the run ended ${execution.status}: ${execution.data?.resultData?.error?.message ?? ''}`,
			);
			const contacts = (
				execution.data.resultData.runData[CONTACTS]?.[0]?.data?.main?.[0] ?? []
			).map((item) => item.json);
			const api = await fetch(`${sandbox.url}/2025-09/contacts?status=lead&limit=100`, {
				headers: { Authorization: `Bearer ${sandbox.token}` },
			});
			const leads = (await api.json()).contacts;
			assert(
				contacts.length === Math.min(5, leads.length) && contacts.length > 0,
				`${CONTACTS} gave ${contacts.length} contacts; the sandbox has ${leads.length} leads`,
			);
			assert(
				contacts.every((contact) => leads.some((lead) => lead.id === contact.id)),
				'a contact that is not a lead was listed',
			);
			const created = (await sandbox.control.state('tasks')).filter(
				(task) => !tasksBefore.has(task.id),
			);
			const posts = (await sandbox.control.requests()).filter(
				(r) => r.method === 'POST' && r.path === '/2025-09/tasks',
			);
			assert(
				posts.length === contacts.length && posts.every((r) => r.status === 201),
				`${posts.length} POST /2025-09/tasks for ${contacts.length} contacts: ${posts.map((r) => r.status).join(', ')}`,
			);
			assert(
				created.length === contacts.length,
				`${created.length} tasks created for ${contacts.length} lead contacts`,
			);
			for (const contact of contacts) {
				const task = created.find((t) => t.resource?.id === contact.id);
				assert(task, `no task linked to ${contact.id}`);
				assert(
					task.title === `Call ${contact.full_name}`,
					`the task for ${contact.id} is titled "${task.title}"`,
				);
				assert(
					task.site?.id === site.id,
					`the task for ${contact.id} has site ${JSON.stringify(task.site)}, not ${site.id}`,
				);
			}
			state.site = site;
			state.built = true;
			log(
				`built from an empty canvas: ${contacts.length} lead contacts → ${created.length} tasks, run from the editor in ${seconds(ms)}`,
			);
		},
	);

	await check(
		'a Title expression that gives nothing stops before any request: the panel says "Title is empty"',
		async () => {
			assert(state.built, 'no workflow (the step before failed)');
			let ndv = await openNode(page, TASKS);
			await setExpression(page, ndv, 'title', '{{ $json.nickname }}');
			await ndv.locator('[data-test-id="ndv-close-button"]').click();
			await sandbox.control.clearRequests();
			const execution = await runWorkflow(
				page,
				n8n,
				state.workflowId,
				await lastExecutionId(n8n, state.workflowId),
			);
			assert(execution.status === 'error', `the run ended ${execution.status}`);
			ndv = await openNode(page, TASKS);
			const output = ndv.locator('[data-test-id="output-panel"]');
			await until(
				async () => /Title is empty/.test(await output.innerText()),
				async () =>
					`the panel does not say "Title is empty":\n${(await output.innerText()).slice(0, 600)}`,
				{ timeoutMs: 15_000 },
			);
			// n8n's error panel shows the description as one paragraph: each of its lines must read as a sentence of its
			// own there, and a check made in n8n must say that nothing reached Stora (RoutingNode files it under "From Stora").
			const panel = (await output.innerText()).replace(/\s+/g, ' ');
			assert(
				/Title is empty for item 0: its expression gave no value/.test(panel),
				`the panel does not name the field, the item and the cause:\n${panel.slice(0, 600)}`,
			);
			assert(
				/\.\s+Checked in n8n before sending: nothing was sent to Stora\./.test(panel),
				`the panel does not say, as a sentence of its own, that nothing was sent:\n${panel.slice(0, 600)}`,
			);
			await shot(page, 'editor-build-empty-title');
			const requests = await sandbox.control.requests();
			assert(
				!requests.some((r) => r.method === 'POST' && r.path === '/2025-09/tasks'),
				`a task was sent: ${requests.map((r) => `${r.method} ${r.path} ${r.status}`).join(', ')}`,
			);
			await setExpression(page, ndv, 'title', 'Call {{ $json.full_name }}');
			await ndv.locator('[data-test-id="ndv-close-button"]').click();
		},
	);

	await check(
		'an optional field added and left blank (Assignee ID) is not sent: the run creates the tasks and the panel shows them',
		async () => {
			assert(state.built, 'no workflow (the step before failed)');
			let ndv = await openNode(page, TASKS);
			await addToCollection(page, ndv, 'Add Field', 'Assignee ID');
			assert(
				(await ndv.locator('[data-test-id="parameter-input-assigneeId"] input').inputValue()) ===
					'',
				'Assignee ID is not blank',
			);
			await ndv.locator('[data-test-id="ndv-close-button"]').click();
			await sandbox.control.clearRequests();
			const execution = await runWorkflow(
				page,
				n8n,
				state.workflowId,
				await lastExecutionId(n8n, state.workflowId),
			);
			assert(
				execution.status === 'success',
				`the run ended ${execution.status}: ${execution.data?.resultData?.error?.message ?? ''}`,
			);
			const posts = (await sandbox.control.requests()).filter(
				(r) => r.method === 'POST' && r.path === '/2025-09/tasks',
			);
			assert(
				posts.length > 0 && posts.every((r) => r.status === 201 && !('assignee' in r.body)),
				`POST bodies: ${JSON.stringify(posts.map((r) => r.body)).slice(0, 600)}`,
			);
			ndv = await openNode(page, TASKS);
			const output = ndv.locator('[data-test-id="output-panel"]');
			await until(
				async () => (await output.innerText()).includes(`${posts.length} item`),
				async () =>
					`the panel does not show the ${posts.length} tasks:\n${(await output.innerText()).slice(0, 600)}`,
				{ timeoutMs: 15_000 },
			);
			await shot(page, 'editor-build-blank-optional');
			await closeDialog(page);
		},
	);

	await check(
		'the credential dialog says what is wrong: a bad token, an unreachable host, a Base URL with a path, one without a scheme',
		async () => {
			const closed = await freePort();
			const cases = [
				[
					'bad token',
					{ baseUrl: sandbox.url, accessToken: 'not-a-valid-token' },
					'Stora rejected the access token',
				],
				[
					'unreachable host',
					{ baseUrl: `http://127.0.0.1:${closed}`, accessToken: sandbox.token },
					`Could not reach http://127.0.0.1:${closed}`,
				],
				[
					'Base URL with a path',
					{ baseUrl: `${sandbox.url}/2025-09`, accessToken: sandbox.token },
					'the Base URL does not point at the Stora Public API',
				],
				[
					'Base URL without a scheme',
					{ baseUrl: 'public-api.stora.co', accessToken: sandbox.token },
					'is not a web address',
				],
			];
			const created = [];
			try {
				for (const [what, data, expected] of cases) {
					const credential = await n8n.createCredential(`Stora (${what})`, 'storaApi', data);
					created.push(credential);
					// Opening a saved credential runs n8n's connection test; its message shows in the dialog.
					const dialog = await openCredential(page, n8n, credential.id);
					// n8n shows "Couldn’t connect with these settings" and the message itself behind "More details".
					await dialog
						.getByText('Couldn’t connect with these settings')
						.first()
						.waitFor({ state: 'visible', timeout: 30_000 });
					await dialog.getByText('More details').first().click();
					await until(
						async () => (await dialog.innerText()).includes(expected),
						async () =>
							`${what}: the dialog does not say "${expected}":\n${(await dialog.innerText()).slice(0, 600)}`,
						{ timeoutMs: 10_000 },
					);
					assert(
						!(await dialog.innerText()).includes(sandbox.token),
						`${what}: the dialog shows the token`,
					);
					if (what === 'Base URL with a path') await shot(page, 'credential-wrong-base-url');
					await closeDialog(page);
				}
			} finally {
				// n8n preselects the Stora credential saved last in new nodes: these must not outlive the check.
				for (const credential of created)
					await n8n
						.request('DELETE', `/rest/credentials/${credential.id}`)
						.catch((error) =>
							log(`could not delete credential ${credential.name}: ${error.message}`),
						);
			}
		},
	);
}

// `node test/e2e/browser/buildWorkflow.mjs`: only these checks.
if (startedAlone(import.meta.url)) await runAlone('build', buildWorkflowChecks);
