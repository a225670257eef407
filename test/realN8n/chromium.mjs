// Chromium for the real-n8n suites: Debian's /usr/bin/chromium (test/realN8n/setup.sh installs it), started with
// fixed flags and driven over CDP with playwright-core (which downloads no browser), stopped by its PID; and the
// small editor helpers the browser checks share (sign in, dropdowns, collections, the issues tooltip).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { OWNER } from './basics.mjs';
import { UNFINISHED } from './executions.mjs';
import { sleep, until } from './wait.mjs';

const CHROMIUM = process.env.E2E_CHROMIUM ?? '/usr/bin/chromium';
const FLAGS = [
	'--headless',
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
	'--disable-dev-shm-usage',
	'--window-size=1440,900',
];

/** Starts Chromium with a fresh profile and connects playwright-core to it. Returns { browser, context, stop }. */
export async function launchChromium() {
	const { chromium } = await import('playwright-core');
	const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'stora-e2e-chromium-'));
	const err = fs.openSync(path.join(profile, 'chromium.log'), 'a');
	// HOME/XDG/TMPDIR inside the profile: otherwise Chromium writes to ~/.config, ~/.cache and /tmp despite --user-data-dir.
	const env = {
		...process.env,
		HOME: profile,
		XDG_CONFIG_HOME: profile,
		XDG_CACHE_HOME: profile,
		TMPDIR: profile,
	};
	const child = spawn(
		CHROMIUM,
		[...FLAGS, `--user-data-dir=${profile}`, '--remote-debugging-port=0', 'about:blank'],
		{
			stdio: ['ignore', err, err],
			env,
			detached: true,
		},
	);
	fs.closeSync(err);
	let exited = false;
	child.on('exit', () => (exited = true));
	const portFile = path.join(profile, 'DevToolsActivePort');
	const chromiumLog = () =>
		fs.readFileSync(path.join(profile, 'chromium.log'), 'utf8').slice(-2000);
	await until(
		() => {
			if (exited) throw new Error(`Chromium did not start:\n${chromiumLog()}`);
			return fs.existsSync(portFile) && fs.readFileSync(portFile, 'utf8').includes('\n');
		},
		() => `Chromium to start:\n${chromiumLog()}`,
		{ timeoutMs: 30_000, every: 100 },
	);
	const port = fs.readFileSync(portFile, 'utf8').split('\n')[0];
	const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
	const context = browser.contexts()[0];
	const stop = async () => {
		await browser.close().catch(() => {});
		if (!exited) {
			try {
				process.kill(child.pid, 'SIGTERM');
			} catch {
				// gone
			}
			for (let i = 0; i < 50 && !exited; i++) await sleep(100);
			try {
				process.kill(-child.pid, 'SIGKILL'); // its renderer/zygote children share the process group
			} catch {
				// gone
			}
		}
		// The crash handlers start their own sessions; find them by our profile path in their command line.
		for (const pid of processesMentioning(profile)) {
			try {
				process.kill(pid, 'SIGKILL');
			} catch {
				// gone
			}
		}
		fs.rmSync(profile, { recursive: true, force: true });
	};
	return { browser, context, stop, pid: child.pid };
}

/** PIDs of processes whose command line contains `text` (read from /proc). */
function processesMentioning(text) {
	const pids = [];
	for (const entry of fs.readdirSync('/proc')) {
		if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
		try {
			if (fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(text))
				pids.push(Number(entry));
		} catch {
			// exited meanwhile
		}
	}
	return pids;
}

// Console messages of n8n's own that do not concern this package (no internet, no license, telemetry off, …).
const NOISE = [
	/api\.n8n\.io/i,
	/ERR_NAME_NOT_RESOLVED|ERR_INTERNET_DISCONNECTED|ERR_CONNECTION_REFUSED/,
	/Failed to load resource: the server responded with a status of 401/, // session probes before login
	/posthog|rudderstack|telemetry/i,
	/templates/i,
	/favicon\.ico/, // the sandbox's consent page has no favicon
	// The editor looks a community package up on the npm registry (its details panel); not reachable from here.
	/registry\.npmjs\.org\/n8n-nodes-stora/,
];

/** Collects console errors and uncaught exceptions of every page of a context. */
export function watchConsole(context) {
	const errors = [];
	const ignored = [];
	const attach = (page) => {
		page.on('console', (msg) => {
			if (msg.type() !== 'error') return;
			const text = `${msg.text()} (${msg.location()?.url ?? page.url()})`;
			(NOISE.some((re) => re.test(text)) ? ignored : errors).push(text);
		});
		page.on('pageerror', (error) => errors.push(`uncaught: ${error.message} (${page.url()})`));
	};
	context.pages().forEach(attach);
	context.on('page', attach);
	return { errors, ignored };
}

export async function signIn(page, n8n) {
	await page.goto(`${n8n.base}/signin`, { waitUntil: 'domcontentloaded' });
	await page.locator('input[type=email]').fill(OWNER.email);
	await page.locator('input[type=password]').fill(OWNER.password);
	await page.locator('[data-test-id="form-submit-button"]').click();
	await page.waitForURL((url) => !url.pathname.startsWith('/signin'), { timeout: 60_000 });
}

/** Opens a credential's edit dialog through its URL; returns the dialog locator. */
export async function openCredential(page, n8n, credentialId) {
	await page.goto(`${n8n.base}/home/credentials/${credentialId}`, {
		waitUntil: 'domcontentloaded',
	});
	const dialog = page.locator('[data-test-id="credential-edit-dialog"]');
	await dialog.waitFor({ state: 'visible', timeout: 60_000 });
	await sleep(500); // let the form settle (fields render after the type loads)
	return dialog;
}

/** Visible text of an element plus the values of its inputs (selects and text fields show their value in an input). */
export async function textAndValues(locator) {
	return await locator.evaluate(
		(el) =>
			`${el.innerText}\n${[...el.querySelectorAll('input, textarea')].map((i) => i.value).join('\n')}`,
	);
}

export async function closeDialog(page) {
	await page.keyboard.press('Escape');
	await sleep(300);
}

/** A regular expression matching exactly `text` (surrounding white space allowed). */
export const exactly = (text) =>
	new RegExp(`^\\s*${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`);

/** Throws unless the element's text and input values contain every string of `expected`. */
export async function assertShows(locator, expected, what) {
	const text = await textAndValues(locator);
	const missing = expected.filter((e) => !text.includes(e));
	if (missing.length)
		throw new Error(
			`${what} does not show ${missing.map((m) => `"${m}"`).join(', ')}:\n${text.slice(0, 1500)}`,
		);
}

/** Throws unless `actual` and `expected` hold the same strings in the same order. */
export function assertList(actual, expected, what) {
	if (JSON.stringify(actual) !== JSON.stringify(expected)) {
		throw new Error(
			`${what}:\n  shown    ${JSON.stringify(actual)}\n  expected ${JSON.stringify(expected)}`,
		);
	}
}

/** The options of the open dropdown (an Element Plus select), in display order. */
export async function dropdownOptions(page) {
	const options = page.locator('.el-popper:visible li[role=option]');
	await options.first().waitFor({ state: 'visible', timeout: 20_000 });
	await sleep(300); // options loaded from the API arrive after the popper opens
	return (await options.allInnerTexts()).map((text) => text.trim());
}

/** Clicks the option `name` of the open dropdown. */
export async function pickOption(page, name) {
	await page.locator('.el-popper:visible li[role=option]', { hasText: exactly(name) }).click();
	await sleep(300);
}

/** The row of parameter `name` in the node panel (label, input, issues); the innermost one inside collections. */
export function parameterItem(ndv, name) {
	return ndv
		.locator('[data-test-id="parameter-item"]', {
			has: ndv.page().locator(`[data-test-id="parameter-input-${name}"]`),
		})
		.last();
}

/** Opens the "Add Field" (or "Add Filter", ...) dropdown of a collection; returns its options. */
export async function openCollection(page, ndv, placeholder) {
	await ndv
		.locator(`[data-test-id="collection-parameter-add"] input[placeholder="${placeholder}"]`)
		.click();
	return await dropdownOptions(page);
}

/** Adds the field `name` to a collection through its "Add Field" (or "Add Filter", ...) dropdown. */
export async function addToCollection(page, ndv, placeholder, name) {
	await openCollection(page, ndv, placeholder);
	await pickOption(page, name);
}

/** Hovers the warning icon of a parameter; returns the text of its tooltip (the parameter's issues). */
export async function issuesOf(page, item) {
	await item.locator('[data-test-id="parameter-issues"]').hover();
	let text = '';
	await until(
		async () => {
			text = (
				await page
					.locator(
						'[role=tooltip]:visible, .el-popper:visible, [data-reka-popper-content-wrapper]:visible',
					)
					.allInnerTexts()
			).join('\n');
			return text.includes('Issues');
		},
		'no issues tooltip appeared',
		{ timeoutMs: 10_000 },
	);
	await page.mouse.move(1300, 700); // away, so the tooltip closes
	await sleep(300);
	return text;
}

/** The panel of `node`, opened from the canvas. */
export async function openNode(page, node) {
	await page.locator(`[data-test-id="canvas-node"][data-node-name="${node}"]`).dblclick();
	const ndv = page.locator('[data-test-id="ndv"]');
	await ndv.waitFor({ state: 'visible' });
	return ndv;
}

/** Runs the workflow from the canvas and waits until n8n has finished it; returns the execution. */
export async function runWorkflow(page, n8n, workflowId, before) {
	await page.locator('[data-test-id="execute-workflow-button"]').first().click();
	let execution;
	await until(
		async () => {
			const [latest] = await n8n.executions(workflowId);
			if (!latest || latest.id === before || UNFINISHED.includes(latest.status)) return false;
			execution = await n8n.execution(latest.id);
			return true;
		},
		'the run from the editor to finish',
		{ timeoutMs: 60_000 },
	);
	return execution;
}

export const lastExecutionId = async (n8n, workflowId) => (await n8n.executions(workflowId))[0]?.id;

/** The id of the workflow open in the editor (n8n saves a new workflow as it is built). */
export async function savedWorkflowId(page) {
	let id;
	await until(
		() => (id = /\/workflow\/([^/?#]+)/.exec(page.url())?.[1]) && id !== 'new',
		`the new workflow was not saved (URL ${page.url()})`,
		{ timeoutMs: 20_000 },
	);
	return id;
}
