// What every npm script needs before it can run, installed on demand from the npm registry so that `npm start`,
// `npm test` and `npm run test:e2e` work as the first command on a fresh clone with only the machine's own Node:
// - the dev dependencies (`npm install`, skipped when node_modules matches the lockfile),
// - Node 24 in .tools/node24 (n8n 2.41 refuses older Node; the machine's Node may be 20).
// Each is checked before use and installed by one process at a time (others wait), so a first run never fails where
// a second would succeed.
// Plain Node ESM with built-ins only, runnable by Node 20, because it runs before anything else is installed.
// Long steps print a progress line at least every 10 s, so nobody stares at minutes of silence.
// The processes side (PIDs, descendants, parent gone) is in processes.mjs.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { alive, bytesRead, cpuSeconds, processInfo } from './processes.mjs';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Where `node@<major>` from the npm registry goes (`tools`: another folder, for tests), its binary and its headers. */
const TOOLS = path.join(REPO, '.tools');
const nodeDir = (major, tools = TOOLS) => path.join(tools, `node${major}`);
const nodeBinOf = (major, tools = TOOLS) =>
	path.join(nodeDir(major, tools), 'node_modules', 'node', 'bin', 'node');
const nodeHeadersOf = (major) =>
	path.join(nodeDir(major), 'node_modules', 'node', 'node_modules', platformPackage());
const DEPS_STAMP = path.join(REPO, 'node_modules', '.stora-dev-dependencies');
const HEARTBEAT_MS = 10_000;

export const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

let sayPrefix = '[setup]';

/** The prefix of this process's setup lines from now on: `npm start` prints them all as the demo's. */
export function sayAs(name) {
	sayPrefix = `[${name}]`;
}

export function say(...args) {
	console.log(sayPrefix, ...args);
}

const readIf = (file) => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '');

/**
 * Runs a command to completion without blocking the event loop, so `progress(child)` can report every 10 s how far it
 * got. Output goes to `logFile` when given (shown in part on failure), else it is inherited. Resolves to the
 * output captured (empty when inherited); rejects with the tail of it.
 */
export function runWithProgress(
	cmd,
	args,
	{ cwd = REPO, env = process.env, label, progress, logFile } = {},
) {
	return new Promise((resolve, reject) => {
		const started = Date.now();
		const capture = Boolean(logFile);
		const child = spawn(cmd, args, {
			cwd,
			env,
			stdio: capture ? ['ignore', 'pipe', 'pipe'] : 'inherit',
		});
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
			const detail = progress ? progress(child) : '';
			const cpu = child.pid ? cpuSeconds(child.pid) : undefined;
			const working = cpu === undefined ? '' : `, ${Math.round(cpu)} s of CPU so far`;
			say(`${label}: ${seconds(Date.now() - started)}${detail ? `, ${detail}` : ''}${working}`);
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
			reject(
				new Error(
					`${label} failed (${cmd} ${args.join(' ')}: exit ${code ?? signal})${where}\n${tail}`,
				),
			);
		});
	});
}

/** Whether a lockfile entry's `os`, `cpu` or `libc` list (["linux"], ["!win32"]) lets npm install it here. */
function fitsHere(list, value) {
	if (!list) return true;
	return (
		list.includes(value) ||
		(list.every((entry) => entry.startsWith('!')) && !list.includes(`!${value}`))
	);
}

const LIBC =
	process.platform === 'linux'
		? process.report?.getReport().header.glibcVersionRuntime
			? 'glibc'
			: 'musl'
		: undefined;

/**
 * How far an `npm install` into `dir` got: packages of its lockfile unpacked under node_modules (those for this
 * platform, as npm installs them), and what `child`, the npm process, has read so far.
 */
export function installedCount(dir, child) {
	let expected = 0;
	try {
		const lock = JSON.parse(fs.readFileSync(path.join(dir, 'package-lock.json'), 'utf8'));
		expected = Object.entries(lock.packages ?? {}).filter(
			([key, entry]) =>
				key.startsWith('node_modules/') &&
				fitsHere(entry.os, process.platform) &&
				fitsHere(entry.cpu, process.arch) &&
				(!LIBC || fitsHere(entry.libc, LIBC)),
		).length;
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
	const read = child?.pid ? bytesRead(child.pid) : undefined;
	const fetched =
		read === undefined
			? ''
			: `, npm has read ${Math.round(read / 1e6).toLocaleString('en-US')} MB (registry and cache)`;
	return `${present}${expected ? ` of ${expected}` : ''} packages unpacked${fetched}`;
}

// ------------------------------------------------------------------------------------------------ Node

/** Whether the Node binary at `bin` runs and is of `major`. */
function runs(bin, major) {
	if (!fs.existsSync(bin)) return false;
	const probe = spawnSync(bin, ['-p', 'process.versions.node'], { encoding: 'utf8' });
	return probe.status === 0 && Number(probe.stdout.split('.')[0]) === major;
}

const nodeWorks = (major, tools = TOOLS) => runs(nodeBinOf(major, tools), major);

/**
 * The path of a Node `major` binary: the running one when it is that major (or, with `orNewer`, newer), else
 * .tools/node<major>, installed from the npm registry's `node` package when missing. Uses nothing but the machine's
 * own npm to install it. n8n 2.41 needs Node 24; older n8n lines run on the Node test/realN8n/versions.mjs names.
 */
export async function ensureNode(major, { orNewer = false } = {}) {
	const running = Number(process.versions.node.split('.')[0]);
	if (running === major || (orNewer && running > major)) return process.execPath;
	return await installedNode(major);
}

/**
 * Node `major` in `tools`/node<major>, checked before it is handed out: it must run and report that major. Installed
 * when it does not, by one process at a time (two first commands at once on a fresh clone, say `npm start` and
 * `npm test`, would otherwise install over each other, and the binary one of them checked could be gone when it
 * starts it), into a fresh folder that replaces the old one only once its binary works: nobody sees a half install.
 */
export async function installedNode(major, tools = TOOLS) {
	if (nodeWorks(major, tools)) return nodeBinOf(major, tools);
	const dir = nodeDir(major, tools);
	const release = await lock(`${dir}.lock`, `another install of Node ${major}`);
	try {
		// The process that held the lock may have installed it meanwhile.
		if (nodeWorks(major, tools)) return nodeBinOf(major, tools);
		say(
			`Node ${process.versions.node} runs this; installing Node ${major} into ${path.relative(REPO, dir)} from the npm registry`,
		);
		const partial = `${dir}.partial-${process.pid}`;
		fs.rmSync(partial, { recursive: true, force: true });
		fs.mkdirSync(partial, { recursive: true });
		const cache = (child) =>
			fs.existsSync(path.join(partial, 'node_modules'))
				? installedCount(partial, child)
				: 'downloading';
		const logFile = path.join(partial, 'install.log');
		// The `node` package's preinstall script installs its platform package (the binary) and links bin/node to it.
		// npm 12 blocks a dependency's install scripts by default (and has no per-package allowance in an install
		// like this one), so no script runs here on any npm: both packages are installed with scripts off, and the
		// link is made here, where that script makes it (same layout, headers included for node-gyp).
		const install = ['install', '--no-save', '--no-audit', '--no-fund', '--ignore-scripts'];
		await runWithProgress('npm', [...install, '--prefix', partial, `node@${major}`], {
			label: `installing Node ${major}`,
			progress: cache,
			logFile,
		});
		const nodePackage = path.join(partial, 'node_modules', 'node');
		const { version } = JSON.parse(fs.readFileSync(path.join(nodePackage, 'package.json'), 'utf8'));
		const platform = platformPackage();
		await runWithProgress('npm', [...install, '--prefix', nodePackage, `${platform}@${version}`], {
			label: `installing Node ${version} (${platform})`,
			progress: cache,
			logFile,
		});
		const platformDir = path.join(nodePackage, 'node_modules', platform);
		const binary = path.join(
			platformDir,
			JSON.parse(fs.readFileSync(path.join(platformDir, 'package.json'), 'utf8')).bin.node,
		);
		const bin = path.join(nodePackage, 'bin', 'node');
		fs.mkdirSync(path.dirname(bin), { recursive: true });
		fs.rmSync(bin, { force: true });
		fs.linkSync(binary, bin);
		if (!runs(bin, major)) {
			throw new Error(
				`Node ${major} did not install (${path.relative(REPO, bin)} does not run); see ${path.relative(REPO, logFile)}`,
			);
		}
		// A broken earlier install goes aside first: a folder cannot be renamed onto a non-empty one.
		const old = `${dir}.old-${process.pid}`;
		if (fs.existsSync(dir)) fs.renameSync(dir, old);
		fs.renameSync(partial, dir);
		fs.rmSync(old, { recursive: true, force: true });
		if (!nodeWorks(major, tools))
			throw new Error(
				`Node ${major} in ${path.relative(REPO, dir)} does not run after its install`,
			);
		return nodeBinOf(major, tools);
	} finally {
		release();
	}
}

/** The npm package holding Node's binary for this machine, named as the `node` package's install script names it. */
function platformPackage() {
	const platform = process.platform === 'win32' ? 'win' : process.platform;
	const arch = platform === 'win' && process.arch === 'ia32' ? 'x86' : process.arch;
	const prefix = process.platform === 'darwin' && process.arch === 'arm64' ? 'node-bin' : 'node';
	return [prefix, platform, arch].join('-');
}

/**
 * Takes the lock folder `lockDir` (mkdir is atomic), waiting while a live process holds it; a lock whose process is
 * gone is taken over. Returns the release function.
 */
async function lock(lockDir, what) {
	fs.mkdirSync(path.dirname(lockDir), { recursive: true });
	const started = Date.now();
	let reported = started;
	for (;;) {
		try {
			fs.mkdirSync(lockDir);
			// With its start time: a PID reused by another process later does not hold the lock.
			fs.writeFileSync(
				path.join(lockDir, 'pid'),
				`${process.pid} ${processInfo(process.pid)?.start ?? ''}`,
			);
			return () => fs.rmSync(lockDir, { recursive: true, force: true });
		} catch (error) {
			if (error.code !== 'EEXIST') throw error;
		}
		const [holder, start] = readIf(path.join(lockDir, 'pid')).split(' ');
		const holds =
			holder && alive(Number(holder)) && (!start || processInfo(Number(holder))?.start === start);
		// A holder that is gone died with the lock. No holder yet: it is between mkdir and writing it, or died there.
		const since = fs.statSync(lockDir, { throwIfNoEntry: false })?.mtimeMs ?? Date.now();
		if ((holder && !holds) || (!holder && Date.now() - since > HEARTBEAT_MS)) {
			fs.rmSync(lockDir, { recursive: true, force: true });
			continue;
		}
		if (Date.now() - reported >= HEARTBEAT_MS) {
			reported = Date.now();
			say(
				`waiting for ${what}${holder ? ` (pid ${holder})` : ''}: ${seconds(Date.now() - started)}`,
			);
		}
		await new Promise((resolve) => setTimeout(resolve, 200));
	}
}

/** Node 24 or newer (what n8n 2.41 and the tools need). */
export async function ensureNode24() {
	return await ensureNode(24, { orNewer: true });
}

/** The Node binary in .tools/node<major> when installed there, else undefined (no install). */
export function toolsNode(major) {
	return nodeWorks(major) ? nodeBinOf(major) : undefined;
}

/** Environment with `nodeBin` first on PATH (so `npm`, `npx` and scripts run on it) and node-gyp pointed at its headers. */
export function node24Env(nodeBin, extra = {}) {
	const env = {
		...process.env,
		PATH: `${path.dirname(nodeBin)}${path.delimiter}${process.env.PATH ?? ''}`,
		...extra,
	};
	// npm hands its config to scripts as npm_config_*; the project's ignore-scripts must not reach other installs.
	delete env.npm_config_ignore_scripts;
	const major = /[\\/]\.tools[\\/]node(\d+)[\\/]/.exec(nodeBin)?.[1];
	if (major && fs.existsSync(path.join(nodeHeadersOf(Number(major)), 'include')))
		env.npm_config_nodedir = nodeHeadersOf(Number(major));
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

/** Whether node_modules holds what package.json and the lockfile name (as the last install recorded it). */
export function devDependenciesInstalled() {
	return (
		readIf(DEPS_STAMP) === dependencyKey() &&
		fs.existsSync(path.join(REPO, 'node_modules', '.bin', 'gulp'))
	);
}

/**
 * `npm install` when node_modules does not match package.json + the lockfile (a stamp records what was installed).
 * Scripts stay off (.npmrc): a dev dependency's preinstall insists on pnpm, and nothing we need builds at install.
 * Not `npm ci`: npm rejects this lockfile there over platform-specific optional packages (an npm bug).
 */
export async function ensureDevDependencies(env = process.env) {
	const installed = devDependenciesInstalled;
	if (installed()) return;
	const key = dependencyKey();
	const logDir = path.join(REPO, '.cache');
	// One `npm install` at a time: a second one would rewrite node_modules under the first one's feet.
	const release = await lock(
		path.join(logDir, 'dev-dependencies.lock'),
		'another install of the dev dependencies',
	);
	try {
		if (installed()) return;
		say('installing the dev dependencies (npm install; about a minute with a warm npm cache)');
		await runWithProgress('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund'], {
			env,
			label: 'npm install',
			progress: (child) => installedCount(REPO, child),
			logFile: path.join(logDir, 'npm-install.log'),
		});
		fs.writeFileSync(DEPS_STAMP, key);
	} finally {
		release();
	}
}

/** Both of the above; returns the Node 24 binary and the environment to run everything else in. */
export async function ensureToolchain() {
	const nodeBin = await ensureNode24();
	const env = node24Env(nodeBin);
	await ensureDevDependencies(env);
	return { nodeBin, env };
}
