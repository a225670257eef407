// Checks of `npm start` (scripts/demo.mjs, started the way a person or a process manager starts it: `npm start` in
// a shell, through npm and scripts/npmScript.mjs):
// - ports: a busy sandbox port and an n8n port that browsers and fetch refuse give way to free ones, and the Ready
//   text says so;
// - credentials: new Stora nodes get the access-token credential (n8n preselects the Stora credential saved last);
// - SIGTERM to npm's PID, after Ready and while n8n is still starting, stops the demo, the sandbox and n8n (checked
//   by PID and port);
// - a failed request is reported with its cause and URL;
// - two installs of Node 24 at once into the same folder end with one working Node for both.
// Part of `npm run test:e2e` (run.mjs calls `npmStartChecks`); `node test/e2e/npmStart.mjs` runs only these.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { descendants, processSet } from '../../scripts/processes.mjs';
import { devDependenciesInstalled } from '../../scripts/toolchain.mjs';
import {
	BLOCKED_PORTS,
	DEMO_CREDENTIALS,
	describeError,
	rememberFailedRequests,
	usablePort,
} from '../../scripts/demo.mjs';
import { freePort, log, OWNER, REPO, seconds } from '../realN8n/n8n.mjs';
import { until } from '../realN8n/wait.mjs';

const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

const commandLine = (pid) => {
	try {
		return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
	} catch {
		return '';
	}
};

/** Whether something accepts connections on 127.0.0.1:`port`. */
const listening = (port) =>
	new Promise((resolve) => {
		const socket = net.connect(port, '127.0.0.1');
		socket.once('connect', () => {
			socket.destroy();
			resolve(true);
		});
		socket.once('error', () => resolve(false));
	});

/**
 * `npm start -- <args>` in its own process group, as a terminal or a process manager runs it. Returns { child,
 * output() }. Every process seen below npm is remembered, so that `cleanups` can stop whatever is left of them even
 * after npm is gone (which is what a failing check looks like): SIGTERM to each one's process group, then SIGKILL.
 */
function npmStart(args, cleanups) {
	const child = spawn(NPM, ['start', '--', ...args], {
		cwd: REPO,
		detached: true,
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	let text = '';
	child.stdout.on('data', (chunk) => (text += chunk));
	child.stderr.on('data', (chunk) => (text += chunk));
	const seen = processSet([child.pid]);
	const watch = setInterval(() => descendants(child.pid).forEach(seen.add), 250);
	child.once('exit', () => clearInterval(watch));
	cleanups.push(async () => {
		clearInterval(watch);
		if (!seen.running().length) return;
		seen.signal('SIGTERM');
		await until(() => !seen.running().length, 'the processes of npm start to end', {
			timeoutMs: 30_000,
			every: 100,
		}).catch(() => {});
		seen.signal('SIGKILL');
	});
	return { child, output: () => text, seen };
}

/** The n8n server among the processes below `pid` (its command line runs n8n's bin with `start`). */
const n8nBelow = (pid) =>
	descendants(pid).find((p) => /n8n[\\/]bin[\\/]n8n start/.test(commandLine(p)));

/** Sends SIGTERM to npm alone and waits until npm and every process seen below it have ended. */
async function terminate(run, what) {
	descendants(run.child.pid).forEach(run.seen.add);
	const started = Date.now();
	process.kill(run.child.pid, 'SIGTERM');
	const left = () => run.seen.running().map((p) => `${p} ${commandLine(p).slice(0, 80)}`);
	await until(
		() => !run.seen.running().length,
		() => `${what}: every process to end after SIGTERM to npm; still running: ${left().join('; ')}`,
		{ timeoutMs: 40_000, every: 100 },
	);
	return { processes: run.seen.size(), ms: Date.now() - started };
}

async function login(base) {
	const res = await fetch(`${base}/rest/login`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ emailOrLdapLoginId: OWNER.email, password: OWNER.password }),
	});
	if (!res.ok) throw new Error(`n8n login at ${base} answered ${res.status}`);
	const cookie = res.headers
		.getSetCookie()
		.find((c) => c.startsWith('n8n-auth='))
		.split(';')[0];
	return async (urlPath) =>
		(await (await fetch(`${base}${urlPath}`, { headers: { cookie } })).json()).data;
}

export async function npmStartChecks({ check, assert, cleanups }) {
	console.log(
		'\nnpm start (scripts/demo.mjs through npm, as a person or a process manager starts it)',
	);
	if (process.env.E2E_N8N_VERSION) {
		// The demo runs the default n8n; a run for another n8n version would install that one first.
		log('npm start checks skipped: they run with the default n8n (E2E_N8N_VERSION is set)');
		return;
	}
	const work = fs.mkdtempSync(path.join(os.tmpdir(), 'stora-npm-start-'));
	cleanups.push(() => fs.rmSync(work, { recursive: true, force: true }));

	// `npm start` installs the dev dependencies when node_modules does not match the lockfile: not something a test
	// may do to a working checkout (a fresh clone, as CI has, matches).
	const startable = devDependenciesInstalled();
	if (!startable)
		log(
			'npm start checks skipped: node_modules does not match package.json and the lockfile (npm start would run npm install)',
		);
	if (startable)
		await check(
			'a busy sandbox port and a blocked n8n port give way to free ones; new Stora nodes get the access token; SIGTERM to npm stops the demo, n8n and the sandbox',
			async () => {
				// Busy: something of ours listens on the port the sandbox is asked for.
				const holder = net.createServer().listen(0, '127.0.0.1');
				await new Promise((resolve) => holder.once('listening', resolve));
				const busyPort = holder.address().port;
				const blockedPort = 6000;
				const spawnedAt = Date.now();
				const run = npmStart(
					[
						'--dir',
						path.join(work, 'after-ready'),
						'--sandbox-port',
						String(busyPort),
						'--port',
						String(blockedPort),
					],
					cleanups,
				);
				try {
					await until(
						() => /\nReady in /.test(run.output()) || run.child.exitCode !== null,
						'the "Ready" text of npm start',
						{ timeoutMs: 240_000, every: 100 },
					);
					const readyAfterMs = Date.now() - spawnedAt;
					const out = run.output();
					assert(
						/\nReady in /.test(out),
						`npm start ended (${run.child.exitCode}) before Ready:\n${out.slice(-2000)}`,
					);
					assert(
						out.includes(`Stora sandbox: port ${busyPort} is in use, so it is on `),
						`the Ready text does not say the sandbox port moved:\n${out.slice(-1500)}`,
					);
					assert(
						out.includes(
							`n8n: port ${blockedPort} is one that browsers and fetch refuse to connect to, so it is on `,
						),
						`the Ready text does not say the n8n port moved:\n${out.slice(-1500)}`,
					);
					const editor = /n8n editor\s+(http:\/\/127\.0\.0\.1:(\d+))\//.exec(out);
					const sandboxUrl = /Stora sandbox\s+http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
					assert(
						editor && sandboxUrl,
						`no editor or sandbox URL in the Ready text:\n${out.slice(-1500)}`,
					);
					const [n8nPort, sandboxPort] = [Number(editor[2]), Number(sandboxUrl[1])];
					assert(
						n8nPort !== blockedPort && !BLOCKED_PORTS.has(n8nPort) && sandboxPort !== busyPort,
						`ports ${n8nPort} / ${sandboxPort}`,
					);
					assert(
						out.includes(`A new Stora node starts with "${DEMO_CREDENTIALS.accessToken}"`),
						'the Ready text does not say which credential new nodes get',
					);
					// Where the examples are, the MCP example's URL, and how to send an event.
					for (const line of [
						`${editor[1]}/home/workflows`,
						`${editor[1]}/mcp/stora-assistant`,
						`curl -X POST http://127.0.0.1:${sandboxUrl[1]}/__sandbox/events`,
					]) {
						assert(
							out.includes(line),
							`the Ready text does not show ${line}:\n${out.slice(-1500)}`,
						);
					}
					// "Ready in" is the whole wall time since npm start began (npm's own start-up before our script aside).
					const reported = Number(/\nReady in ([\d.]+) s/.exec(out)?.[1]) * 1000;
					assert(
						reported <= readyAfterMs + 500 && reported >= readyAfterMs - 5000,
						`Ready in ${reported} ms, but npm start took ${readyAfterMs} ms`,
					);
					// What n8n preselects in a new node: the Stora credential with the greatest updatedAt (the editor part is
					// checked in Chromium by test/e2e/browser/buildWorkflow.mjs).
					const credentials = (await (await login(editor[1]))('/rest/credentials')).filter((c) =>
						c.type.startsWith('stora'),
					);
					const newest = [...credentials].sort(
						(a, b) => Date.parse(b.updatedAt) - Date.parse(a.updatedAt),
					);
					assert(
						newest.length === 3 &&
							newest[0].name === DEMO_CREDENTIALS.accessToken &&
							newest[0].updatedAt !== newest[1].updatedAt,
						`credentials by updatedAt: ${newest.map((c) => `${c.name} ${c.updatedAt}`).join(', ')}`,
					);
					const n8nPid = n8nBelow(run.child.pid);
					assert(n8nPid, 'no n8n process below npm');
					const n8nProcess = processSet([n8nPid]);
					const figures = await terminate(run, 'after Ready');
					assert(!n8nProcess.running().length, `n8n (pid ${n8nPid}) is still running`);
					assert(
						!(await listening(sandboxPort)) && !(await listening(n8nPort)),
						'the sandbox or n8n still accepts connections',
					);
					assert(
						/SIGTERM: stopping n8n and the sandbox/.test(run.output()),
						`the demo did not say it stopped on SIGTERM:\n${run.output().slice(-800)}`,
					);
					log(
						`npm start: Ready with ports moved (${busyPort} → ${sandboxPort}, ${blockedPort} → ${n8nPort}); SIGTERM to npm: none of the ${figures.processes} processes started under it left after ${seconds(figures.ms)}`,
					);
				} finally {
					holder.close();
				}
			},
		);

	if (startable)
		await check(
			'SIGTERM to npm while n8n is still starting stops n8n too, without a failure message',
			async () => {
				// A fresh n8n folder: the database migrations make the start long enough to be caught in the middle.
				const run = npmStart(['--dir', path.join(work, 'while-starting')], cleanups);
				let n8nPid;
				await until(
					() => (n8nPid = n8nBelow(run.child.pid)) || run.child.exitCode !== null,
					'n8n to start below npm',
					{ timeoutMs: 240_000, every: 100 },
				);
				assert(
					n8nPid,
					`npm start ended (${run.child.exitCode}) before starting n8n:\n${run.output().slice(-1500)}`,
				);
				const figures = await terminate(run, 'while n8n was starting');
				const out = run.output();
				assert(!/\nReady in /.test(out), 'the demo was already Ready: n8n was not caught starting');
				assert(
					!/npm start failed/.test(out),
					`the stop was reported as a failure:\n${out.slice(-1500)}`,
				);
				log(
					`npm start: SIGTERM while n8n (pid ${n8nPid}) was starting: none of the ${figures.processes} processes started under npm left after ${seconds(figures.ms)}`,
				);
			},
		);

	await check(
		'a failed request is reported with its cause and URL; a blocked port is never handed out',
		async () => {
			// What demo.mjs does on start; before, a failure printed "npm start failed: TypeError: fetch failed" and a stack.
			const restore = rememberFailedRequests();
			const failed = (url, init) =>
				fetch(url, init).then(
					() => undefined,
					(e) => e,
				);
			const url = 'http://127.0.0.1:6000/rest/settings';
			const refused = await freePort();
			const [error, refusedError] = [
				await failed(url),
				await failed(`http://127.0.0.1:${refused}/x`, { method: 'POST' }),
			];
			restore();
			assert(error && refusedError, 'a fetch that should fail did not');
			const text = describeError(error);
			assert(
				text.includes('bad port') && text.includes(`GET ${url}`),
				`the report does not name the cause and the URL:\n${text}`,
			);
			const refusedText = describeError(refusedError);
			assert(
				/ECONNREFUSED/.test(refusedText) &&
					refusedText.includes(`POST http://127.0.0.1:${refused}/x`),
				`connection refused is not reported:\n${refusedText}`,
			);
			for (const port of [1, 6000, 6666, 10080]) {
				const { port: given, note } = await usablePort(port, 'test');
				assert(
					given !== port && !BLOCKED_PORTS.has(given) && note?.includes('refuse'),
					`usablePort(${port}) gave ${given} (${note})`,
				);
			}
		},
	);

	await check(
		'two installs of Node 24 at once into one folder, over a broken one: one installs, both get a Node that runs',
		async () => {
			const tools = path.join(work, 'tools');
			// What a crashed install leaves: the package without its binary.
			fs.mkdirSync(path.join(tools, 'node24', 'node_modules', 'node'), { recursive: true });
			fs.writeFileSync(
				path.join(tools, 'node24', 'node_modules', 'node', 'package.json'),
				'{"name":"node","version":"24.0.0"}',
			);
			const script = `
			import { spawnSync } from 'node:child_process';
			const { installedNode } = await import(${JSON.stringify(path.join(REPO, 'scripts/toolchain.mjs'))});
			const bin = await installedNode(24, ${JSON.stringify(tools)});
			const run = spawnSync(bin, ['-p', 'process.versions.node'], { encoding: 'utf8' });
			console.log('RAN', run.status, run.stdout.trim());`;
			const install = () =>
				new Promise((resolve) => {
					const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
						cwd: work,
						stdio: ['ignore', 'pipe', 'pipe'],
					});
					let text = '';
					child.stdout.on('data', (chunk) => (text += chunk));
					child.stderr.on('data', (chunk) => (text += chunk));
					child.on('exit', (code) => resolve({ code, text }));
				});
			const started = Date.now();
			const results = await Promise.all([install(), install()]);
			for (const { code, text } of results)
				assert(
					code === 0 && /RAN 0 24\./.test(text),
					`an install ended ${code}:\n${text.slice(-1500)}`,
				);
			const installs = results.filter(({ text }) => /installing Node 24 into/.test(text)).length;
			assert(installs === 1, `${installs} processes installed Node 24`);
			const left = fs.readdirSync(tools).filter((entry) => entry !== 'node24');
			assert(left.length === 0, `left behind in the tools folder: ${left.join(', ')}`);
			log(
				`Node 24: two installs at once into a broken folder: 1 installed, both ran it, in ${seconds(Date.now() - started)}`,
			);
		},
	);
}

// `node test/e2e/npmStart.mjs`: only these checks.
if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
	const { assert, checkLines, createHarness } = await import('../realN8n/harness.mjs');
	const harness = createHarness('[npm start]', { report: checkLines, width: 40 });
	await harness.run(() =>
		npmStartChecks({ check: harness.check, assert, cleanups: harness.cleanups }),
	);
}
