// Installs the selected n8n (versions.mjs) on its Node into .cache/ (outside node_modules) from its settled lockfile:
// npm install --ignore-scripts, then only sqlite3 built (the one native addon n8n loads without a prebuilt binary),
// compiled once and kept in .cache/. `node test/realN8n/n8n.mjs install` runs it alone.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import {
	ensureNode,
	installedCount,
	node24Env,
	REPO,
	runWithProgress,
} from '../../scripts/toolchain.mjs';
import {
	childEnv,
	HOST_DIR,
	HOST_TEMPLATE,
	log,
	N8N_VERSION,
	n8nNode,
	readIf,
	run,
	VERSION,
} from './basics.mjs';
import { HOST_OVERRIDES } from './versions.mjs';

export const SQLITE3_VERSION = '5.1.7';
const SQLITE_CACHE = path.join(
	REPO,
	'.cache',
	`sqlite3-${SQLITE3_VERSION}-napi`,
	'node_sqlite3.node',
);

/** The host project's package.json for the selected version: n8n pinned exactly (a range would float). */
function hostManifest() {
	const manifest = {
		name: 'n8n-host',
		private: true,
		overrides: VERSION.overrides ?? HOST_OVERRIDES,
		dependencies: { n8n: N8N_VERSION },
	};
	return `${JSON.stringify(manifest, null, 2)}\n`;
}

const sha = (...parts) => createHash('sha256').update(parts.join('\0')).digest('hex').slice(0, 16);

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
	const nodeMajor = spawnSync(n8nNode(), ['-p', 'process.versions.node.split(".")[0]'], {
		encoding: 'utf8',
	}).stdout.trim();
	const stamp = path.join(HOST_DIR, '.e2e-installed');
	const key = sha(manifest, readIf(committedLock), nodeMajor);
	const n8nBin = path.join(HOST_DIR, 'node_modules/n8n/bin/n8n');
	if (readIf(stamp) === key && fs.existsSync(n8nBin) && nativeOk()) {
		log(`n8n ${N8N_VERSION} already installed in ${path.relative(REPO, HOST_DIR)}`);
		return timings;
	}
	fs.mkdirSync(HOST_DIR, { recursive: true });
	fs.writeFileSync(path.join(HOST_DIR, 'package.json'), manifest);
	if (fs.existsSync(committedLock))
		fs.copyFileSync(committedLock, path.join(HOST_DIR, 'package-lock.json'));
	const logFile = path.join(HOST_DIR, 'install.log');
	log(
		`installing n8n ${N8N_VERSION} into ${path.relative(REPO, HOST_DIR)} (a few minutes when cold; log: ${logFile})`,
	);
	let started = Date.now();
	// Not `npm ci`: npm rejects n8n's lockfile there (an optional-dependency bug).
	await runWithProgress(
		'npm',
		['install', '--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund'],
		{
			cwd: HOST_DIR,
			env: childEnv(),
			logFile,
			label: `installing n8n ${N8N_VERSION}`,
			progress: (child) => installedCount(HOST_DIR, child),
		},
	);
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

	const version = run(n8nNode(), [n8nBin, '--version'], {
		cwd: HOST_DIR,
		quiet: true,
		stdoutOnly: true,
	}).trim();
	if (!version.includes(N8N_VERSION))
		throw new Error(`expected n8n ${N8N_VERSION}, got ${version}`);
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
			fs.cpSync(
				path.join(env.npm_config_nodedir, 'include'),
				path.join(scratch, 'headers', 'include'),
				{ recursive: true },
			);
			delete env.npm_config_nodedir;
			args.push(`--nodedir=${path.join(scratch, 'headers')}`);
		}
		const logStart = fs.existsSync(logFile) ? fs.statSync(logFile).size : 0;
		await runWithProgress(n8nNode(), args, {
			cwd: sqlite3,
			env,
			logFile,
			label: 'building sqlite3',
			progress: () => buildStep(logFile, logStart),
		});
		const target = path.join(modules, 'sqlite3/build/Release/node_sqlite3.node');
		fs.mkdirSync(path.dirname(target), { recursive: true });
		fs.copyFileSync(path.join(sqlite3, 'build/Release/node_sqlite3.node'), target);
	} finally {
		fs.rmSync(scratch, { recursive: true, force: true });
	}
}

/**
 * What the sqlite3 build is doing, from what make has printed into `logFile` since `from`: make names each file as it
 * starts compiling it, so the last one named is the one being compiled.
 */
export function buildStep(logFile, from = 0) {
	let text = '';
	try {
		const fd = fs.openSync(logFile, 'r');
		const size = fs.fstatSync(fd).size;
		const buffer = Buffer.alloc(Math.max(0, size - from));
		fs.readSync(fd, buffer, 0, buffer.length, from);
		fs.closeSync(fd);
		text = buffer.toString('utf8');
	} catch {
		// no output yet
	}
	const steps = [...text.matchAll(/^\s+(CC|CXX|ACTION|SOLINK_MODULE|LINK)(?:\(target\))? (\S+)/gm)];
	if (!steps.length) return 'configuring the build (node-gyp)';
	const [, kind, target] = steps.at(-1);
	if (kind === 'ACTION') return "unpacking SQLite's source";
	if (kind === 'SOLINK_MODULE' || kind === 'LINK') return 'linking node_sqlite3.node';
	const source = `${path.basename(target, '.o')}.${kind === 'CXX' ? 'cc' : 'c'}`;
	const done = steps.filter(([, each]) => each === 'CC' || each === 'CXX').length - 1;
	const before = `${done} file${done === 1 ? '' : 's'} compiled before it`;
	return source === 'sqlite3.c'
		? `compiling sqlite3.c, SQLite itself and most of the build (${before})`
		: `compiling ${source} (${before})`;
}

function nativeOk() {
	const probe = spawnSync(
		n8nNode(),
		[
			'-e',
			"const s=require('sqlite3');new s.Database(':memory:').get('select sqlite_version() v',(e,r)=>{if(e)process.exit(1);console.log(r.v)})",
		],
		{ cwd: HOST_DIR, encoding: 'utf8' },
	);
	return probe.status === 0;
}
