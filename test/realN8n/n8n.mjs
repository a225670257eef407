// Real n8n for the end-to-end tests: installs the selected n8n (versions.mjs) on its Node into .cache/ (outside node_modules),
// installs this package from its own `npm pack` tarball the way n8n installs community packages, starts n8n on free
// loopback ports with a throw-away user folder, sets up the owner and talks to its REST API. Every process it starts
// is stopped by its PID. Plain Node ESM on purpose: the repo's strict n8n lint rules apply to .ts files only.
// Install with --ignore-scripts, then build only sqlite3 (the one native addon n8n loads without a prebuilt binary).
import { spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

import { ensureNode, installedCount, node24Env, runWithProgress, toolsNode } from '../../scripts/toolchain.mjs';
import { HOST_OVERRIDES, selectedVersion } from './versions.mjs';

/** The n8n under test (E2E_N8N_VERSION, else the newest supported), with its Node and API differences. */
export const VERSION = selectedVersion();
export const N8N_VERSION = VERSION.n8n;
export const SQLITE3_VERSION = '5.1.7';
export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const PACKAGE_NAME = 'n8n-nodes-stora';
/** The settled lockfile of each version's host project (its package.json is written from versions.mjs). */
export const HOST_TEMPLATE = path.join(REPO, 'test/realN8n/n8n-host', N8N_VERSION);
export const HOST_DIR = process.env.E2E_N8N_DIR ?? path.join(REPO, '.cache', `n8n-${N8N_VERSION}`);
const SQLITE_CACHE = path.join(REPO, '.cache', `sqlite3-${SQLITE3_VERSION}-napi`, 'node_sqlite3.node');

export const OWNER = { email: 'owner@example.com', firstName: 'Stora', lastName: 'Tester', password: 'Passw0rd!Stora' };

// ------------------------------------------------------------------------------------------------ small helpers

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
export const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

export function log(...args) {
	console.log('[e2e]', ...args);
}

/** A free TCP port on the loopback interface (the OS picks it). */
export function freePort() {
	return new Promise((resolve, reject) => {
		const server = net.createServer();
		server.unref();
		server.on('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const { port } = server.address();
			server.close(() => resolve(port));
		});
	});
}

/**
 * Node 24 (n8n 2.41 refuses older): the running Node when it is 24+, else the repo's .tools copy. The npm scripts
 * (scripts/npmScript.mjs) install that copy before anything here runs.
 */
export function node24() {
	if (Number(process.versions.node.split('.')[0]) >= 24) return process.execPath;
	const bin = path.join(REPO, '.tools/node24/node_modules/node/bin/node');
	if (!fs.existsSync(bin)) throw new Error('Node 24 is missing: start this through npm (npm start, npm run test:e2e), which installs it');
	return bin;
}

/** Environment for child processes: Node 24 first on PATH, node-gyp pointed at its headers. */
export function childEnv(extra = {}) {
	return node24Env(node24(), extra);
}

/** The Node the selected n8n runs on (`node` in versions.mjs): the running Node when it is that major, else .tools/. */
export function n8nNode() {
	const running = Number(process.versions.node.split('.')[0]);
	if (running === VERSION.node || (VERSION.node === 24 && running > 24)) return process.execPath;
	const bin = toolsNode(VERSION.node);
	if (!bin) throw new Error(`Node ${VERSION.node} (for n8n ${N8N_VERSION}) is missing: ensureN8n() installs it`);
	return bin;
}

/** The host project's package.json for the selected version: n8n pinned exactly (a range would float). */
function hostManifest() {
	const manifest = { name: 'n8n-host', private: true, overrides: VERSION.overrides ?? HOST_OVERRIDES, dependencies: { n8n: N8N_VERSION } };
	return `${JSON.stringify(manifest, null, 2)}\n`;
}

/** Runs a command to completion, inheriting nothing but returning its output; throws with the output on failure. */
export function run(cmd, args, { cwd = REPO, env = childEnv(), quiet = false, logFile, stdoutOnly = false } = {}) {
	const started = Date.now();
	const result = spawnSync(cmd, args, { cwd, env, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
	const output = `${result.stdout ?? ''}${result.stderr ?? ''}`;
	if (logFile) fs.appendFileSync(logFile, `$ ${cmd} ${args.join(' ')}\n${output}\n`);
	if (result.status !== 0) {
		const tail = output.split('\n').slice(-40).join('\n');
		throw new Error(`${cmd} ${args.join(' ')} failed (exit ${result.status ?? result.signal}) in ${cwd}:\n${tail}`);
	}
	if (!quiet) log(`${cmd} ${args.join(' ')}: ${seconds(Date.now() - started)}`);
	return stdoutOnly ? result.stdout : output;
}

const sha = (...parts) => createHash('sha256').update(parts.join('\0')).digest('hex').slice(0, 16);
const readIf = (file) => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '');

// ------------------------------------------------------------------------------------------------ install n8n

/**
 * Makes sure `HOST_DIR` holds a working n8n `N8N_VERSION`: `npm install --ignore-scripts` from the committed host
 * package.json (and its settled lockfile when present), then sqlite3, the one native addon n8n loads that has no
 * prebuilt binary, compiled once and reused from .cache/. Fast when nothing changed (a stamp file records the inputs).
 * Returns timings in ms.
 */
export async function ensureN8n() {
	const timings = {};
	await ensureNode(VERSION.node, { orNewer: VERSION.node === 24 });
	const manifest = hostManifest();
	const committedLock = path.join(HOST_TEMPLATE, 'package-lock.json');
	const nodeMajor = spawnSync(n8nNode(), ['-p', 'process.versions.node.split(".")[0]'], { encoding: 'utf8' }).stdout.trim();
	const stamp = path.join(HOST_DIR, '.e2e-installed');
	const key = sha(manifest, readIf(committedLock), nodeMajor);
	const n8nBin = path.join(HOST_DIR, 'node_modules/n8n/bin/n8n');
	if (readIf(stamp) === key && fs.existsSync(n8nBin) && nativeOk()) {
		log(`n8n ${N8N_VERSION} already installed in ${path.relative(REPO, HOST_DIR)}`);
		return timings;
	}
	fs.mkdirSync(HOST_DIR, { recursive: true });
	fs.writeFileSync(path.join(HOST_DIR, 'package.json'), manifest);
	if (fs.existsSync(committedLock)) fs.copyFileSync(committedLock, path.join(HOST_DIR, 'package-lock.json'));
	const logFile = path.join(HOST_DIR, 'install.log');
	log(`installing n8n ${N8N_VERSION} into ${path.relative(REPO, HOST_DIR)} (a few minutes when cold; log: ${logFile})`);
	let started = Date.now();
	// Not `npm ci`: npm rejects n8n's lockfile there (an optional-dependency bug).
	await runWithProgress('npm', ['install', '--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund'], {
		cwd: HOST_DIR,
		env: childEnv(),
		logFile,
		label: `installing n8n ${N8N_VERSION}`,
		progress: () => installedCount(HOST_DIR),
	});
	timings.npmInstall = Date.now() - started;

	started = Date.now();
	const target = path.join(HOST_DIR, 'node_modules/sqlite3/build/Release/node_sqlite3.node');
	if (!nativeOk() && fs.existsSync(SQLITE_CACHE)) {
		// sqlite3 is N-API: its binary does not depend on the Node ABI, so a copy from an earlier build works.
		fs.mkdirSync(path.dirname(target), { recursive: true });
		fs.copyFileSync(SQLITE_CACHE, target);
	}
	if (!nativeOk()) {
		log('building sqlite3 (1 to 3 minutes, once: the binary is kept in .cache/)');
		await buildSqlite3(logFile);
		fs.mkdirSync(path.dirname(SQLITE_CACHE), { recursive: true });
		fs.copyFileSync(target, SQLITE_CACHE);
	}
	if (!nativeOk()) throw new Error(`sqlite3 does not load in ${HOST_DIR}; see ${logFile}`);
	if (!fs.existsSync(SQLITE_CACHE)) {
		fs.mkdirSync(path.dirname(SQLITE_CACHE), { recursive: true });
		fs.copyFileSync(target, SQLITE_CACHE);
	}
	timings.sqlite3 = Date.now() - started;

	const version = run(n8nNode(), [n8nBin, '--version'], { cwd: HOST_DIR, quiet: true, stdoutOnly: true }).trim();
	if (!version.includes(N8N_VERSION)) throw new Error(`expected n8n ${N8N_VERSION}, got ${version}`);
	fs.writeFileSync(stamp, key);
	return timings;
}

/**
 * Compiles sqlite3 with node-gyp, with progress lines (object files so far). make cannot handle paths with spaces, and
 * the repo (so HOST_DIR and Node's headers in .tools/) may live in one, so the build runs in a space-free temporary
 * folder holding copies of sqlite3, node-addon-api, node-gyp and the headers, and links to every other package (the
 * build's helper scripts require tar and its dependencies). Only the finished binary is copied back.
 */
async function buildSqlite3(logFile) {
	const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'stora-sqlite3-'));
	const modules = path.join(HOST_DIR, 'node_modules');
	try {
		const copied = ['sqlite3', 'node-addon-api', 'node-gyp'];
		for (const name of fs.readdirSync(modules).filter((entry) => entry !== '.bin')) {
			const to = path.join(scratch, 'node_modules', name);
			fs.mkdirSync(path.dirname(to), { recursive: true });
			if (copied.includes(name)) fs.cpSync(path.join(modules, name), to, { recursive: true });
			else fs.symlinkSync(path.join(modules, name), to);
		}
		const sqlite3 = path.join(scratch, 'node_modules/sqlite3');
		fs.rmSync(path.join(sqlite3, 'build'), { recursive: true, force: true });
		const env = node24Env(n8nNode());
		const args = [path.join(scratch, 'node_modules/node-gyp/bin/node-gyp.js'), 'rebuild'];
		if (env.npm_config_nodedir) {
			fs.cpSync(path.join(env.npm_config_nodedir, 'include'), path.join(scratch, 'headers', 'include'), { recursive: true });
			delete env.npm_config_nodedir;
			args.push(`--nodedir=${path.join(scratch, 'headers')}`);
		}
		const objects = () => {
			let count = 0;
			const walk = (dir) => {
				for (const entry of fs.existsSync(dir) ? fs.readdirSync(dir, { withFileTypes: true }) : []) {
					if (entry.isDirectory()) walk(path.join(dir, entry.name));
					else if (entry.name.endsWith('.o')) count++;
				}
			};
			walk(path.join(sqlite3, 'build'));
			return `${count} of 5 object files compiled (the first, sqlite3.c, takes most of the time)`;
		};
		await runWithProgress(n8nNode(), args, { cwd: sqlite3, env, logFile, label: 'building sqlite3', progress: objects });
		const target = path.join(modules, 'sqlite3/build/Release/node_sqlite3.node');
		fs.mkdirSync(path.dirname(target), { recursive: true });
		fs.copyFileSync(path.join(sqlite3, 'build/Release/node_sqlite3.node'), target);
	} finally {
		fs.rmSync(scratch, { recursive: true, force: true });
	}
}

function nativeOk() {
	const probe = spawnSync(
		n8nNode(),
		['-e', "const s=require('sqlite3');new s.Database(':memory:').get('select sqlite_version() v',(e,r)=>{if(e)process.exit(1);console.log(r.v)})"],
		{ cwd: HOST_DIR, encoding: 'utf8' },
	);
	return probe.status === 0;
}

/** A module from the n8n install (e.g. `flatted`), for decoding n8n's responses. */
export function requireFromN8n(name) {
	return createRequire(path.join(HOST_DIR, 'node_modules/n8n/package.json'))(name);
}

// ------------------------------------------------------------------------------------------------ the package

/** `npm run build` then `npm pack` of this repo; returns the tarball path (in `dest`). */
export function packPackage(dest, { build = true } = {}) {
	const timings = {};
	let started = Date.now();
	if (build) {
		run('npm', ['run', 'build'], { cwd: REPO });
		timings.build = Date.now() - started;
	}
	started = Date.now();
	fs.mkdirSync(dest, { recursive: true });
	const out = run('npm', ['pack', '--json', '--pack-destination', dest], { cwd: REPO, quiet: true, stdoutOnly: true });
	const [{ filename, files }] = JSON.parse(out);

	timings.pack = Date.now() - started;
	return { tarball: path.join(dest, filename), timings, files: files.map((f) => f.path) };
}

/**
 * Installs the tarball the way the README tells a self-hosted user to (and as n8n's community-package installer
 * does): `npm install` of the package into <user folder>/.n8n/nodes, runtime dependencies only. A file missing from
 * the tarball, or a runtime dependency it would need, then fails when n8n loads the package.
 */
export function installPackage(userFolder, tarball) {
	const nodesDir = path.join(userFolder, '.n8n', 'nodes');
	fs.mkdirSync(nodesDir, { recursive: true });
	// --prefix: without it npm would install into the nearest folder above that has a package.json.
	run('npm', ['install', '--prefix', nodesDir, '--omit=dev', '--omit=peer', '--ignore-scripts', '--no-audit', '--no-fund', tarball], { quiet: true });
	return JSON.parse(fs.readFileSync(path.join(nodesDir, 'node_modules', PACKAGE_NAME, 'package.json'), 'utf8'));
}

// ------------------------------------------------------------------------------------------------ run n8n

/**
 * The n8n settings every test n8n process shares (e2e, queue mode, bench): loopback over http, no telemetry or
 * banners, synchronous publication, community packages from the user folder, temp files inside it.
 */
export function n8nTestSettings(userFolder) {
	return {
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: '127.0.0.1',
		N8N_PROTOCOL: 'http',
		N8N_SECURE_COOKIE: 'false',
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_HIRING_BANNER_ENABLED: 'false',
		N8N_LOG_LEVEL: 'info',
		N8N_USE_WORKFLOW_PUBLICATION_SERVICE: 'false', // synchronous activation (recipe §4.3)
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
		N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
		N8N_REINSTALL_MISSING_PACKAGES: 'false',
		// n8n 3.0 removes the in-memory mode (1.123's default): every binary output (PDF, CSV, image) is checked the
		// way 2.x stores it by default in a single process, on disk.
		N8N_DEFAULT_BINARY_DATA_MODE: 'filesystem',
		TMPDIR: path.join(userFolder, 'tmp'),
	};
}

/**
 * Starts `n8n start` on free loopback ports with a fresh user folder (package installed first when `tarball` is
 * given), waits until REST answers with JSON, sets up the owner and logs in. Returns an `N8n` handle; call `stop()`.
 */
export async function startN8n({ tarball, userFolder, env = {}, port, ownerSetup = true } = {}) {
	const uf = userFolder ?? fs.mkdtempSync(path.join(os.tmpdir(), 'stora-e2e-n8n-'));
	fs.mkdirSync(path.join(uf, 'tmp'), { recursive: true });
	if (tarball) installPackage(uf, tarball);
	const n8nPort = port ?? (await freePort());
	const brokerPort = await freePort();
	const base = `http://127.0.0.1:${n8nPort}`;
	const logFile = path.join(uf, 'server.log');
	const out = fs.openSync(logFile, 'a');
	const child = spawn(n8nNode(), [path.join(HOST_DIR, 'node_modules/n8n/bin/n8n'), 'start'], {
		cwd: uf,
		detached: true, // own process group, so the task runner can be stopped with it
		stdio: ['ignore', out, out],
		env: node24Env(n8nNode(), {
			PATH: `${path.dirname(n8nNode())}:${path.join(HOST_DIR, 'node_modules/.bin')}:${process.env.PATH}`,
			N8N_USER_FOLDER: uf,
			N8N_PORT: String(n8nPort),
			...n8nTestSettings(uf),
			N8N_EDITOR_BASE_URL: `${base}/`,
			WEBHOOK_URL: `${base}/`,
			N8N_RUNNERS_BROKER_PORT: String(brokerPort),
			N8N_ENCRYPTION_KEY: 'stora-e2e-encryption-key-not-secret',
			DB_SQLITE_POOL_SIZE: '2',
			...env,
		}),
	});
	fs.closeSync(out);
	const n8n = new N8n({ base, port: n8nPort, userFolder: uf, child, logFile, ownsFolder: !userFolder });
	const started = Date.now();
	try {
		await n8n.waitReady();
		n8n.timings.ready = Date.now() - started;
		if (ownerSetup) await n8n.setupOwner();
	} catch (error) {
		await n8n.stop();
		throw error;
	}
	return n8n;
}

export class N8n {
	constructor({ base, port, userFolder, child, logFile, ownsFolder }) {
		Object.assign(this, { base, port, userFolder, child, logFile, ownsFolder });
		this.pid = child.pid;
		this.timings = {};
		this.cookie = '';
		this.exited = false;
		child.on('exit', (code, signal) => {
			this.exited = true;
			this.exitCode = code ?? signal;
		});
	}

	logTail(lines = 40) {
		return readIf(this.logFile).split('\n').slice(-lines).join('\n');
	}

	async waitReady(timeoutMs = 180_000) {
		const deadline = Date.now() + timeoutMs;
		while (Date.now() < deadline) {
			if (this.exited) throw new Error(`n8n exited (${this.exitCode}) before it was ready:\n${this.logTail()}`);
			try {
				// /healthz answers before REST is mounted, and during migrations every route says "starting up": poll for JSON.
				const res = await fetch(`${this.base}/rest/settings`, { signal: AbortSignal.timeout(5000) });
				const text = await res.text();
				if (res.ok && text.includes('"data"')) {
					this.settings = JSON.parse(text).data;
					return;
				}
			} catch {
				// not listening yet
			}
			await sleep(200);
		}
		throw new Error(`n8n not ready after ${timeoutMs / 1000} s:\n${this.logTail()}`);
	}

	async setupOwner() {
		const res = await this.request('POST', '/rest/owner/setup', OWNER, { raw: true });
		if (res.status !== 200) {
			// Already set up (reused user folder): log in instead.
			await this.login();
			return;
		}
		this.takeCookie(res);
	}

	async login() {
		const res = await this.request('POST', '/rest/login', { emailOrLdapLoginId: OWNER.email, password: OWNER.password }, { raw: true });
		if (res.status !== 200) throw new Error(`n8n login failed: ${res.status} ${await res.text()}`);
		this.takeCookie(res);
	}

	takeCookie(res) {
		const auth = res.headers.getSetCookie().find((c) => c.startsWith('n8n-auth='));
		if (!auth) throw new Error('n8n set no n8n-auth cookie');
		this.cookie = auth.split(';')[0];
	}

	/** A REST call with the owner's cookie. Returns `data` of the JSON answer, or the Response with `raw`. */
	async request(method, urlPath, body, { raw = false, headers = {} } = {}) {
		const res = await fetch(`${this.base}${urlPath}`, {
			method,
			headers: {
				...(body === undefined ? {} : { 'content-type': 'application/json' }),
				...(this.cookie ? { cookie: this.cookie } : {}),
				...headers,
			},
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		if (raw) return res;
		const text = await res.text();
		if (!res.ok) throw new Error(`n8n ${method} ${urlPath} → ${res.status}: ${text.slice(0, 2000)}`);
		const parsed = text ? JSON.parse(text) : {};
		return parsed && typeof parsed === 'object' && 'data' in parsed ? parsed.data : parsed;
	}

	async createCredential(name, type, data) {
		return await this.request('POST', '/rest/credentials', { name, type, data });
	}

	async getCredential(id, { includeData = true } = {}) {
		return await this.request('GET', `/rest/credentials/${id}${includeData ? '?includeData=true' : ''}`);
	}

	async testCredential(credential) {
		return await this.request('POST', '/rest/credentials/test', { credentials: credential });
	}

	async createWorkflow(workflow) {
		// n8n 1.x refuses a new workflow without `active` (versions.mjs, api.createNeedsActive).
		return await this.request('POST', '/rest/workflows', VERSION.api.createNeedsActive ? { active: false, ...workflow } : workflow);
	}

	/** Publishes (activates) a workflow; synchronous because the publication service is off. */
	async activate(workflow) {
		return await this.request('POST', `/rest/workflows/${workflow.id}/activate`, { versionId: workflow.versionId });
	}

	async deactivate(workflow) {
		return await this.request('POST', `/rest/workflows/${workflow.id}/deactivate`, {});
	}

	async deleteWorkflow(workflow) {
		await this.deactivate(workflow).catch(() => {});
		await this.request('POST', `/rest/workflows/${workflow.id}/archive`, {}).catch(() => {});
		await this.request('DELETE', `/rest/workflows/${workflow.id}`).catch(() => {});
	}

	/** Calls a production webhook; returns { status, body (parsed JSON when possible), text, ms }. */
	async callWebhook(webhookPath, { method = 'POST', body, query } = {}) {
		const qs = query ? `?${new URLSearchParams(query)}` : '';
		const started = Date.now();
		const res = await fetch(`${this.base}/webhook/${webhookPath}${qs}`, {
			method,
			headers: body === undefined ? {} : { 'content-type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
			signal: AbortSignal.timeout(120_000),
		});
		const text = await res.text();
		let parsed = text;
		try {
			parsed = JSON.parse(text);
		} catch {
			// not JSON
		}
		return { status: res.status, body: parsed, text, headers: res.headers, ms: Date.now() - started };
	}

	/** Runs a saved workflow as the editor's "Execute workflow" does, from the given trigger; returns the finished execution. */
	async runManually(workflowId, triggerName, { timeoutMs = 60_000 } = {}) {
		const workflowData = await this.request('GET', `/rest/workflows/${workflowId}`);
		const started = await this.request('POST', `/rest/workflows/${workflowId}/run`, { workflowData, triggerToStartFrom: { name: triggerName } });
		const deadline = Date.now() + timeoutMs;
		while (Date.now() < deadline) {
			const execution = await this.execution(started.executionId);
			if (!['running', 'new', 'waiting'].includes(execution.status)) return execution;
			await sleep(250);
		}
		throw new Error(`manual execution ${started.executionId} did not finish in ${timeoutMs / 1000} s`);
	}

	/** Executions of a workflow, newest first (summaries). */
	async executions(workflowId, { limit = 20, lastId } = {}) {
		const filter = encodeURIComponent(JSON.stringify({ workflowId }));
		const data = await this.request('GET', `/rest/executions?filter=${filter}&limit=${limit}${lastId ? `&lastId=${lastId}` : ''}`);
		return data.results ?? data;
	}

	/** Every execution of a workflow, newest first, in pages of n8n's maximum of 100. */
	async allExecutions(workflowId) {
		const all = [];
		for (;;) {
			const page = await this.executions(workflowId, { limit: 100, lastId: all.at(-1)?.id });
			all.push(...page);
			if (page.length < 100) return all;
		}
	}

	/** One execution with its run data decoded (n8n serializes it with `flatted`). */
	async execution(id) {
		let data;
		for (let attempt = 1; ; attempt++) {
			try {
				data = await this.request('GET', `/rest/executions/${id}`);
				break;
			} catch (error) {
				// Some n8n answer 500 while the execution is still running (versions.mjs, api.executionBusy500).
				if (!VERSION.api.executionBusy500 || !/ → 500:/.test(error.message) || attempt >= 40) throw error;
				await sleep(250);
			}
		}
		if (typeof data.data === 'string') data.data = requireFromN8n('flatted').parse(data.data);
		return data;
	}

	/** Waits until a workflow has an execution that is no longer running; returns it decoded. */
	async lastExecution(workflowId, { timeoutMs = 30_000 } = {}) {
		const deadline = Date.now() + timeoutMs;
		while (Date.now() < deadline) {
			const [latest] = await this.executions(workflowId);
			if (latest && !['running', 'new', 'waiting'].includes(latest.status)) return await this.execution(latest.id);
			await sleep(200);
		}
		throw new Error(`no finished execution of workflow ${workflowId} after ${timeoutMs / 1000} s`);
	}

	/** SIGTERM by PID, then SIGKILL of its process group if it does not exit; removes the user folder it created. */
	async stop({ keepFolder = false } = {}) {
		if (!this.exited && this.pid) {
			const gone = new Promise((resolve) => this.child.once('exit', resolve));
			try {
				process.kill(this.pid, 'SIGTERM');
			} catch {
				// already gone
			}
			const timedOut = await Promise.race([gone.then(() => false), sleep(20_000).then(() => true)]);
			if (timedOut) {
				try {
					process.kill(-this.pid, 'SIGKILL');
				} catch {
					// already gone
				}
				await Promise.race([gone, sleep(5000)]);
			}
		}
		// The task runner lives in n8n's process group; make sure nothing of it survived.
		try {
			process.kill(-this.pid, 0);
			process.kill(-this.pid, 'SIGKILL');
		} catch {
			// group is empty
		}
		if (this.ownsFolder && !keepFolder) fs.rmSync(this.userFolder, { recursive: true, force: true });
	}
}

export const randomId = () => randomBytes(6).toString('hex');

// ------------------------------------------------------------------------------------------------ CLI

// `node test/realN8n/n8n.mjs install` installs n8n; `node test/realN8n/n8n.mjs start` also packs, starts and waits (Ctrl-C stops).
if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
	const command = process.argv[2] ?? 'install';
	const started = Date.now();
	const timings = await ensureN8n();
	log('install timings', Object.fromEntries(Object.entries(timings).map(([k, v]) => [k, seconds(v)])), `total ${seconds(Date.now() - started)}`);
	if (command === 'start') {
		const packDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stora-pack-'));
		const { tarball } = packPackage(packDir);
		const n8n = await startN8n({ tarball });
		log(`n8n ready in ${seconds(n8n.timings.ready)} at ${n8n.base} (login ${OWNER.email} / ${OWNER.password}); Ctrl-C stops it`);
		const stop = async () => {
			await n8n.stop();
			fs.rmSync(packDir, { recursive: true, force: true });
			process.exit(0);
		};
		process.on('SIGINT', stop);
		process.on('SIGTERM', stop);
	}
}
