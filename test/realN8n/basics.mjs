// What every part of the real-n8n library shares: the n8n under test and where it lives, the owner it sets up, the
// Node each process runs on, and the small helpers (log, free ports, a command run to completion).
// Plain Node ESM on purpose: the repo's strict n8n lint rules apply to .ts files only.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { createRequire } from 'node:module';

import { node24Env, REPO, seconds, toolsNode } from '../../scripts/toolchain.mjs';
import { selectedVersion } from './versions.mjs';

/** The n8n under test (E2E_N8N_VERSION, else the newest supported), with its Node and API differences. */
export const VERSION = selectedVersion();
export const N8N_VERSION = VERSION.n8n;
export const PACKAGE_NAME = 'n8n-nodes-stora';
/** The settled lockfile of each version's host project (its package.json is written from versions.mjs). */
export const HOST_TEMPLATE = path.join(REPO, 'test/realN8n/n8n-host', N8N_VERSION);
export const HOST_DIR = process.env.E2E_N8N_DIR ?? path.join(REPO, '.cache', `n8n-${N8N_VERSION}`);

export const OWNER = {
	email: 'owner@example.com',
	firstName: 'Stora',
	lastName: 'Tester',
	password: 'Passw0rd!Stora',
};

let prefix = '[e2e]';
/** Names the run in what `log` prints: `npm start` is the demo, not a test suite. */
export function logAs(name) {
	prefix = `[${name}]`;
}

export function log(...args) {
	console.log(prefix, ...args);
}

export const randomId = () => randomBytes(6).toString('hex');
export const readIf = (file) => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '');

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
	if (!fs.existsSync(bin))
		throw new Error(
			'Node 24 is missing: start this through npm (npm start, npm run test:e2e), which installs it',
		);
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
	if (!bin)
		throw new Error(
			`Node ${VERSION.node} (for n8n ${N8N_VERSION}) is missing: ensureN8n() installs it`,
		);
	return bin;
}

/** Runs a command to completion, inheriting nothing but returning its output; throws with the output on failure. */
export function run(
	cmd,
	args,
	{ cwd = REPO, env = childEnv(), quiet = false, logFile, stdoutOnly = false, label } = {},
) {
	const started = Date.now();
	const result = spawnSync(cmd, args, { cwd, env, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
	const output = `${result.stdout ?? ''}${result.stderr ?? ''}`;
	if (logFile) fs.appendFileSync(logFile, `$ ${cmd} ${args.join(' ')}\n${output}\n`);
	if (result.status !== 0) {
		const tail = output.split('\n').slice(-40).join('\n');
		throw new Error(
			`${cmd} ${args.join(' ')} failed (exit ${result.status ?? result.signal}) in ${cwd}:\n${tail}`,
		);
	}
	if (!quiet) log(`${label ?? `${cmd} ${args.join(' ')}`}: ${seconds(Date.now() - started)}`);
	return stdoutOnly ? result.stdout : output;
}

/** A module from the n8n install (e.g. `flatted`), for decoding n8n's responses. */
export function requireFromN8n(name) {
	return createRequire(path.join(HOST_DIR, 'node_modules/n8n/package.json'))(name);
}
