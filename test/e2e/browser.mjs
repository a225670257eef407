// The Chromium parts of the end-to-end tests: the OAuth2 authorization code flow with PKCE exactly as a user does it
// (n8n editor → credential → "Connect my account" → the sandbox's consent page → n8n's callback), refresh-token
// rotation, and editor checks (node panel, credential dialogs, no console errors) with screenshots.
//
// Chromium is Debian's /usr/bin/chromium (test/e2e/setup.sh installs it), started by us with fixed flags and driven
// over CDP with playwright-core (which downloads no browser). It is stopped by its PID.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { log, OWNER, sleep } from './n8n.mjs';

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
	const env = { ...process.env, HOME: profile, XDG_CONFIG_HOME: profile, XDG_CACHE_HOME: profile, TMPDIR: profile };
	const child = spawn(CHROMIUM, [...FLAGS, `--user-data-dir=${profile}`, '--remote-debugging-port=0', 'about:blank'], {
		stdio: ['ignore', err, err],
		env,
		detached: true,
	});
	fs.closeSync(err);
	let exited = false;
	child.on('exit', () => (exited = true));
	const portFile = path.join(profile, 'DevToolsActivePort');
	const deadline = Date.now() + 30_000;
	while (!fs.existsSync(portFile) || !fs.readFileSync(portFile, 'utf8').includes('\n')) {
		if (exited || Date.now() > deadline) {
			throw new Error(`Chromium did not start:\n${fs.readFileSync(path.join(profile, 'chromium.log'), 'utf8').slice(-2000)}`);
		}
		await sleep(100);
	}
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
			if (fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(text)) pids.push(Number(entry));
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
];

/** Collects console errors and uncaught exceptions of every page of a context. */
function watchConsole(context) {
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

async function signIn(page, n8n) {
	await page.goto(`${n8n.base}/signin`, { waitUntil: 'domcontentloaded' });
	await page.locator('input[type=email]').fill(OWNER.email);
	await page.locator('input[type=password]').fill(OWNER.password);
	await page.locator('[data-test-id="form-submit-button"]').click();
	await page.waitForURL((url) => !url.pathname.startsWith('/signin'), { timeout: 60_000 });
}

/** Opens a credential's edit dialog through its URL; returns the dialog locator. */
async function openCredential(page, n8n, credentialId) {
	await page.goto(`${n8n.base}/home/credentials/${credentialId}`, { waitUntil: 'domcontentloaded' });
	const dialog = page.locator('[data-test-id="credential-edit-dialog"]');
	await dialog.waitFor({ state: 'visible', timeout: 60_000 });
	await sleep(500); // let the form settle (fields render after the type loads)
	return dialog;
}

/** Visible text of an element plus the values of its inputs (selects and text fields show their value in an input). */
async function textAndValues(locator) {
	return await locator.evaluate(
		(el) => `${el.innerText}\n${[...el.querySelectorAll('input, textarea')].map((i) => i.value).join('\n')}`,
	);
}

/** Polls `condition` until it is true (throws `message` after `timeoutMs`). */
async function until(condition, message, timeoutMs = 20_000) {
	const deadline = Date.now() + timeoutMs;
	while (!(await condition())) {
		if (Date.now() > deadline) throw new Error(message);
		await sleep(250);
	}
}

async function closeDialog(page) {
	await page.keyboard.press('Escape');
	await sleep(300);
}

export async function browserChecks(ctx) {
	const { n8n, sandbox, check: outerCheck, assert, assertMatch, screenshots, cleanups, callback, buildWorkflow } = ctx;
	fs.mkdirSync(screenshots, { recursive: true });
	const shot = async (page, name, locator) => {
		const file = path.join(screenshots, `${name}.png`);
		await (locator ?? page).screenshot({ path: file });
		log(`screenshot ${path.relative(process.cwd(), file)}`);
	};

	console.log('\nBrowser (Chromium): OAuth2 authorization code with PKCE');
	let chromium;
	let page;
	let failures = 0;
	const baseCheck = outerCheck;
	// On failure, a screenshot of every open page shows what the browser saw.
	const check = async (name, fn) =>
		await baseCheck(name, async () => {
			try {
				await fn();
			} catch (error) {
				failures += 1;
				for (const [i, p] of (chromium?.context.pages() ?? []).entries()) {
					await p.screenshot({ path: path.join(screenshots, `failure-${failures}-${i}.png`) }).catch(() => {});
				}
				throw new Error(`${error.message}\n(screenshots: ${path.join(screenshots, `failure-${failures}-*.png`)})`);
			}
		});
	try {
		chromium = await launchChromium();
	} catch (error) {
		await check('Chromium starts', () => {
			throw error;
		});
		return;
	}
	cleanups.push(() => chromium.stop());
	const consoleLog = watchConsole(chromium.context);
	page = await chromium.context.newPage();
	page.setDefaultTimeout(30_000);

	let signedIn = false;
	await check('signs in to the n8n editor', async () => {
		await signIn(page, n8n);
		signedIn = true;
	});
	if (!signedIn) return;

	// A client registered for this n8n's callback URL, and an authorization-code credential using it.
	let credential;
	let client;
	let connected = false;
	await check('"Connect my account" → sandbox consent page → Approve → n8n stores the tokens (PKCE S256)', async () => {
		await sandbox.control.reset('demo');
		client = await sandbox.control.oauthClient([callback]);
		credential = await n8n.createCredential('Stora sandbox (OAuth2)', 'storaOAuth2Api', {
			grantType: 'authorizationCode',
			baseUrl: sandbox.url,
			authUrl: `${sandbox.url}/oauth2/authorize`,
			clientId: client.client_id,
			clientSecret: client.client_secret,
			usePkce: true,
		});
		ctx.credentials.oauth2AuthorizationCode = credential;
		await sandbox.control.clearRequests();

		const dialog = await openCredential(page, n8n, credential.id);
		await until(async () => (await textAndValues(dialog)).includes(callback), `the dialog does not show the OAuth redirect URL ${callback}`);
		await shot(page, 'credential-oauth2-authorization-code');
		const connect = dialog.getByRole('button', { name: /^\s*(connect|connect my account)\s*$/i }).first();
		const popupPromise = chromium.context.waitForEvent('page', { timeout: 30_000 });
		popupPromise.catch(() => {}); // awaited below; keeps a failed click from leaving an unhandled rejection
		await connect.click();
		const popup = await popupPromise;
		// n8n opens the popup blank, then points it at the authorization URL it got from /rest/oauth2-credential/auth.
		await popup.waitForURL((url) => url.href.startsWith(`${sandbox.url}/oauth2/authorize`), { timeout: 30_000 }).catch(() => {
			throw new Error(`the popup shows ${popup.url()}, not the sandbox consent page`);
		});
		const authorizeUrl = new URL(popup.url());
		assertMatch(
			Object.fromEntries(authorizeUrl.searchParams),
			{ client_id: client.client_id, response_type: 'code', redirect_uri: callback, code_challenge_method: 'S256', code_challenge: { $regex: '^[A-Za-z0-9_-]{43}$' } },
			'authorization request',
		);
		await popup.getByRole('button', { name: 'Approve' }).waitFor();
		await shot(popup, 'sandbox-consent-page');
		const closed = popup.waitForEvent('close', { timeout: 30_000 }).catch(() => undefined);
		await popup.getByRole('button', { name: 'Approve' }).click();
		await closed;
		await dialog.locator('[data-test-id="oauth-connect-success-banner"]').waitFor({ state: 'visible', timeout: 30_000 });
		await shot(page, 'credential-oauth2-connected');
		const tokenRequests = (await sandbox.control.requests()).filter((r) => r.path === '/oauth2/token');
		assertMatch(
			tokenRequests,
			[{ method: 'POST', status: 200, body: { grant_type: 'authorization_code', code_verifier: { $regex: '^[A-Za-z0-9._~-]{43,128}$' }, redirect_uri: callback } }],
			'token request of the code exchange',
		);
		await closeDialog(page);
		connected = true;
	});

	if (connected) {
		await check('workflow runs with the connected credential; after expiry n8n refreshes and persists the rotated refresh token', async () => {
			const testCase = {
				file: 'oauth2-authorization-code.json',
				name: 'OAuth2 authorization code',
				credential: 'oauth2AuthorizationCode',
				workflow: { nodes: [{ name: 'Stora', parameters: { resource: 'site', operation: 'getAll', returnAll: false, limit: 2 } }] },
			};
			const workflow = await n8n.createWorkflow(buildWorkflow(testCase, ctx.credentials, 'e2e-oauth2-code'));
			await n8n.activate(workflow);
			const auth = sandbox.core.auth;
			const refreshTokens = () => [...auth.refreshTokens.values()].filter((t) => t.clientId === client.client_id);
			const accessTokens = () => [...auth.tokens.values()].filter((t) => t.clientId === client.client_id && !t.revoked);

			await sandbox.control.clearRequests();
			let response = await n8n.callWebhook('e2e-oauth2-code', { body: {} });
			assertMatch(response, { status: 200, body: { $length: 2 } }, `run with the stored token (${response.text.slice(0, 300)})`);
			assertMatch(await sandbox.control.requests(), [{ method: 'GET', path: '/2025-09/sites', status: 200 }], 'requests of the first run');

			const [first] = refreshTokens();
			for (const round of [1, 2]) {
				const [current] = accessTokens().slice(-1);
				const presented = refreshTokens().find((t) => !t.revoked);
				await sandbox.control.expireTokens(current.token);
				await sandbox.control.clearRequests();
				response = await n8n.callWebhook('e2e-oauth2-code', { body: {} });
				assertMatch(response, { status: 200, body: { $length: 2 } }, `run ${round} after the access token expired (${response.text.slice(0, 300)})`);
				assertMatch(
					await sandbox.control.requests(),
					[
						{ method: 'GET', path: '/2025-09/sites', status: 401 },
						{ method: 'POST', path: '/oauth2/token', status: 200, body: { grant_type: 'refresh_token', refresh_token: presented.token } },
						{ method: 'GET', path: '/2025-09/sites', status: 200 },
					],
					`requests of refresh ${round} (n8n must present the refresh token issued last)`,
				);
				assert(presented.revoked, `refresh ${round}: the sandbox did not revoke the presented refresh token`);
			}
			assert(first.revoked && refreshTokens().filter((t) => !t.revoked).length === 1, 'expected exactly one live refresh token after two rotations');
			await n8n.deactivate(workflow);
		});
	}

	console.log('\nBrowser (Chromium): editor');
	let editorWorkflow;
	await check('the Stora node panel shows the credential, resource and operation, and runs from the editor', async () => {
		await sandbox.control.reset('demo');
		editorWorkflow = await n8n.createWorkflow({
			name: 'Stora: list sites',
			nodes: [
				{ id: 'b7d0a4c2-0000-4000-8000-000000000001', name: 'When clicking ‘Execute workflow’', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
				{
					id: 'b7d0a4c2-0000-4000-8000-000000000002',
					name: 'Stora',
					type: 'n8n-nodes-stora.stora',
					typeVersion: 1,
					position: [260, 0],
					parameters: { authentication: 'accessToken', resource: 'site', operation: 'getAll', returnAll: false, limit: 5 },
					credentials: { storaApi: { id: ctx.credentials.accessToken.id, name: ctx.credentials.accessToken.name } },
				},
			],
			connections: { 'When clicking ‘Execute workflow’': { main: [[{ node: 'Stora', type: 'main', index: 0 }]] } },
			settings: { executionOrder: 'v1' },
		});
		await page.goto(`${n8n.base}/workflow/${editorWorkflow.id}`, { waitUntil: 'domcontentloaded' });
		const node = page.locator('[data-test-id="canvas-node"][data-node-name="Stora"]');
		await node.waitFor({ state: 'visible', timeout: 60_000 });
		await sleep(800);
		await shot(page, 'editor-canvas');
		await node.dblclick();
		const ndv = page.locator('[data-test-id="ndv"]');
		await ndv.waitFor({ state: 'visible' });
		await sleep(800);
		const text = await textAndValues(ndv);
		for (const expected of ['Stora sandbox (token)', 'Resource', 'Site', 'Operation', 'Get Many', 'Limit']) {
			assert(text.includes(expected), `the node panel does not show "${expected}"`);
		}
		await shot(page, 'editor-node-panel');
		await ndv.locator('[data-test-id="node-execute-button"]').first().click();
		await ndv.getByText(/^\s*\d+ items?\s*$/).first().waitFor({ state: 'visible', timeout: 30_000 });
		await sleep(500);
		const output = await ndv.innerText();
		const ids = (await sandbox.control.state('sites')).map((site) => site.id);
		assert(ids.some((id) => output.includes(id)), `the output shows none of the sandbox's site IDs:\n${output.slice(0, 500)}`);
		await shot(page, 'editor-node-executed');
		await closeDialog(page);
	});

	await check('the Stora API credential dialog shows its fields and a working connection test', async () => {
		const dialog = await openCredential(page, n8n, ctx.credentials.accessToken.id);
		// Opening the dialog of a saved credential runs n8n's connection test (the credential's `test` request).
		await page.getByText('Connection tested successfully').first().waitFor({ state: 'visible', timeout: 30_000 });
		const text = await textAndValues(page.locator('body'));
		for (const expected of ['Stora sandbox (token)', 'Stora API', 'Base URL', 'Access Token', sandbox.url]) {
			assert(text.includes(expected), `the dialog does not show "${expected}"`);
		}
		assert((await dialog.count()) === 1, 'no credential dialog');
		await shot(page, 'credential-access-token');
		await closeDialog(page);
	});

	await check('no console errors in the editor', async () => {
		for (const message of consoleLog.ignored) log(`ignored console error (not from this package): ${message.slice(0, 200)}`);
		assert(consoleLog.errors.length === 0, `console errors:\n${consoleLog.errors.slice(0, 20).join('\n')}`);
	});
}
