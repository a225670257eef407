// Starts a real n8n for a test: `n8n start` on free loopback ports with a throw-away user folder (the package
// installed first when a tarball is given), waits until its REST API answers, sets up the owner and logs in.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { node24Env, seconds } from '../../scripts/toolchain.mjs';
import { freePort, HOST_DIR, log, n8nNode } from './basics.mjs';
import { N8n } from './client.mjs';
import { installPackage } from './pack.mjs';

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

/** n8n process groups started by this process and not yet exited. */
const started = new Set();
let exitHooked = false;

/**
 * A signal during `startN8n` (the suite's cleanups only know an n8n once it is ready) or a suite that exits without
 * stopping its n8n must not leave n8n running: whatever of it still runs when this process exits is killed.
 */
function stopAtExit(child) {
	if (!exitHooked) {
		exitHooked = true;
		process.on('exit', () => {
			for (const pid of started) {
				try {
					process.kill(-pid, 'SIGKILL');
				} catch {
					// group already empty
				}
			}
		});
	}
	started.add(child.pid);
	child.once('exit', () => started.delete(child.pid));
}

/**
 * Starts `n8n start` on free loopback ports with a fresh user folder (package installed first when `tarball` is
 * given), waits until REST answers with JSON, sets up the owner and logs in. Returns an `N8n` handle; call `stop()`.
 */
export async function startN8n({
	tarball,
	// Other community packages installed beside it: [{ tarball, name }] (the bench's reference node).
	alongside = [],
	userFolder,
	env = {},
	port,
	ownerSetup = true,
	heartbeat = false,
} = {}) {
	const uf = userFolder ?? fs.mkdtempSync(path.join(os.tmpdir(), 'stora-e2e-n8n-'));
	fs.mkdirSync(path.join(uf, 'tmp'), { recursive: true });
	if (tarball) installPackage(uf, tarball);
	for (const other of alongside) installPackage(uf, other.tarball, other.name);
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
	stopAtExit(child);
	const n8n = new N8n({
		base,
		port: n8nPort,
		userFolder: uf,
		child,
		logFile,
		ownsFolder: !userFolder,
	});
	const started = Date.now();
	// n8n's migrations and node loading print nothing here: with `heartbeat`, a line every 10 s says it is starting.
	if (heartbeat) log('starting n8n (until its REST API answers)');
	const timer = heartbeat
		? setInterval(() => log(`starting n8n: ${seconds(Date.now() - started)}`), 10_000)
		: undefined;
	try {
		await n8n.waitReady();
		if (heartbeat) log(`n8n started in ${seconds(Date.now() - started)}`);
		n8n.timings.ready = Date.now() - started;
		if (ownerSetup) await n8n.setupOwner();
	} catch (error) {
		await n8n.stop();
		throw error;
	} finally {
		clearInterval(timer);
	}
	return n8n;
}
