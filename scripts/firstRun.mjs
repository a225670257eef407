// The front page's first-run times, measured as a newcomer meets them: each of the README's two commands as the first
// command of its own fresh clone (of HEAD, in a path with spaces), on the machine's own PATH (its Node and npm, not
// this script's Node 24), timed by the wall clock from the command's start to its end.
//   npm start -- --smoke   installs the dev dependencies, Node 24 and n8n, brings the demo up, runs an example through
//                          n8n's REST API ("ready in" counts until then), stops;
//   npm test               installs what is missing, then build, lint, typecheck, scanner, every jest suite.
// Each must exit 0, leave `git status` clean, and (npm start) print its "ready in" with no more than the wall time
// since the command started. The times are recorded as the `firstRun` figures (docs/figures/firstRun.json, rendered in the
// README's Development section) when STORA_FIGURES=write; otherwise printed only.
// Usage: npm run first-run [-- --only start|test]      (about 20 minutes on 2 cores; it downloads n8n and Node 24)
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

import { recordFigures } from '../test/helpers/figures.ts';
import { REPO, say, seconds } from './toolchain.mjs';

const { values: args } = parseArgs({ options: { only: { type: 'string' } } });
const COMMANDS = {
	start: { label: 'npm start', npmArgs: ['start', '--', '--smoke'] },
	test: { label: 'npm test', npmArgs: ['test'] },
};
const wanted = args.only ? [args.only] : Object.keys(COMMANDS);
for (const name of wanted)
	if (!COMMANDS[name]) throw new Error(`--only takes start or test, not ${name}`);

// The machine's PATH as the user's shell had it (npmScript.mjs puts Node 24 first for this script).
const machinePath = process.env.STORA_MACHINE_PATH ?? process.env.PATH;
const machineNode = execFileSync('node', ['-v'], {
	env: { ...process.env, PATH: machinePath },
	encoding: 'utf8',
}).trim();
const git = (cwd, ...gitArgs) => execFileSync('git', gitArgs, { cwd, encoding: 'utf8' }).trim();
const commit = git(REPO, 'rev-parse', '--short', 'HEAD');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'stora-first-run-'));

/** Runs `npm <npmArgs>` in `cwd` as a shell would, echoing its output; resolves to { code, ms, output }. */
function npm(cwd, npmArgs) {
	return new Promise((resolve, reject) => {
		const started = Date.now();
		// Nothing of this checkout's toolchain leaks in: only the machine's PATH and an ordinary environment.
		const env = Object.fromEntries(
			Object.entries(process.env).filter(
				([name]) => !/^(STORA_|npm_|NODE_OPTIONS$|INIT_CWD$)/.test(name),
			),
		);
		const child = spawn('npm', npmArgs, {
			cwd,
			env: { ...env, PATH: machinePath },
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		let output = '';
		for (const stream of [child.stdout, child.stderr]) {
			stream.on('data', (chunk) => {
				output += chunk;
				process.stdout.write(chunk);
			});
		}
		child.on('error', reject);
		child.on('exit', (code, signal) =>
			resolve({ code: code ?? (signal ? 128 : 1), ms: Date.now() - started, output }),
		);
	});
}

const measured = {};
try {
	for (const name of wanted) {
		const { label, npmArgs } = COMMANDS[name];
		const clone = path.join(work, 'a path with spaces', name);
		fs.mkdirSync(path.dirname(clone), { recursive: true });
		execFileSync('git', ['clone', '--quiet', '--no-local', REPO, clone]);
		say(`first run: ${label} in a fresh clone of ${commit}, on the machine's Node ${machineNode}`);
		const run = await npm(clone, npmArgs);
		if (run.code !== 0) throw new Error(`${label} exited ${run.code} after ${seconds(run.ms)}`);
		const changed = git(clone, 'status', '--porcelain');
		if (changed) throw new Error(`${label} changed the fresh checkout:\n${changed}`);
		const entry = { label, ms: run.ms };
		if (name === 'start') {
			const ready = /[Rr]eady in ([\d.]+) s/.exec(run.output);
			if (!ready) throw new Error('npm start printed no "Ready in"');
			entry.readyMs = Number(ready[1]) * 1000;
			// "Ready in" counts from the command's start, toolchain installs included: never more than the wall clock.
			if (entry.readyMs > run.ms)
				throw new Error(
					`"Ready in ${ready[1]} s" is more than the ${seconds(run.ms)} the command took`,
				);
			if (entry.readyMs < run.ms / 2)
				throw new Error(
					`"Ready in ${ready[1]} s" leaves out most of the ${seconds(run.ms)} the command took`,
				);
		}
		measured[name] = entry;
		say(
			`first run: ${label} ${seconds(run.ms)}${entry.readyMs ? ` (Ready in ${seconds(entry.readyMs)})` : ''}, git status clean`,
		);
	}
} finally {
	fs.rmSync(work, { recursive: true, force: true });
}

const minutes = (ms) =>
	`${Math.floor(ms / 60_000)} min ${String(Math.round((ms % 60_000) / 1000)).padStart(2, '0')} s`;
const machine = `${os.cpus().length} CPU cores (${os.cpus()[0]?.model.trim()}), the machine's Node ${machineNode}`;
for (const [name, entry] of Object.entries(measured)) {
	const what =
		name === 'start'
			? `\`npm start\` (with \`-- --smoke\`): installs, comes up and runs an example (its "ready in": ${minutes(entry.readyMs)}), stops`
			: '`npm test`: installs, then build, lint, typecheck, scanner and every jest suite';
	recordFigures('firstRun', name, {
		cells: [what, minutes(entry.ms), machine],
		figures: {
			ms: entry.ms,
			...(entry.readyMs ? { readyMs: entry.readyMs } : {}),
			cores: os.cpus().length,
			node: machineNode,
		},
	});
}
