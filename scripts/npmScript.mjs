// The npm scripts a newcomer runs first (`npm test`, `npm start`, `npm run test:e2e`, `npm run sandbox`) start here,
// on whatever Node the machine has: the toolchain (dev dependencies, Node 24) is installed when missing, then the
// real work runs on Node 24. Usage: node scripts/npmScript.mjs <test|start|e2e|queue|bench|trigger-memory|first-run|sandbox|readme> [args...]
import { spawn } from 'node:child_process';
import path from 'node:path';

import { descendants, onParentGone, processSet } from './processes.mjs';
import { ensureNode24, ensureToolchain, REPO, say, sayAs, seconds } from './toolchain.mjs';

const [command, ...args] = process.argv.slice(2);
// `npm start`'s lines, the toolchain's included, all say they are the demo's.
if (command === 'start') sayAs('demo');

/** `npm test`: every check, in the order that fails fastest; extra arguments go to jest. */
const TEST_STEPS = [
	['build', ['run', 'build']],
	['lint (n8n strict, Prettier)', ['run', 'lint']],
	['typecheck', ['run', 'typecheck']],
	// Exports nothing imports (knip.json: the package and the tests' helpers, as the tests, scripts and nodes use them).
	['unused exports (knip)', ['run', 'knip']],
	['community-package scanner', ['run', 'scan']],
	['jest', ['run', 'test:unit', '--', ...args]],
];

/** How long a child may take to stop after the signal is passed on before its whole process tree is killed. */
const STOP_GRACE_MS = 30_000;

let child;
/** The signal being handled, with the process tree below this one when it came (`tree`). */
let stopping;
// Ctrl-C reaches the whole foreground process group: the child stops itself (the demo stops n8n and the sandbox);
// this process only waits for it. A SIGTERM or SIGHUP sent to this process alone is passed on.
process.on('SIGINT', () => {});
for (const signal of ['SIGTERM', 'SIGHUP']) process.on(signal, () => stop(signal));
// What a process manager's SIGTERM to `npm start` amounts to: npm passes it to the `sh -c` running this script, the
// shell dies without passing it on, and this process is left alone. Stop as if the signal had come here.
onParentGone(() => stop('SIGTERM'), { npmScript: true });

/**
 * Passes `signal` on to the running child and ends when it has. What the child started and left behind (a step run
 * through npm, whose shell dies with the signal, leaves its command running) is signalled too; after STOP_GRACE_MS
 * everything still running below this process is killed.
 */
function stop(signal) {
	if (stopping) return;
	// The tree is taken now: once a shell in between is gone, what it started is no longer below this process.
	stopping = { signal, tree: processSet(descendants(process.pid)) };
	const running = child && child.exitCode === null && child.signalCode === null;
	if (!running) exit(143);
	child.kill(signal);
	setTimeout(() => {
		descendants(process.pid).forEach(stopping.tree.add);
		console.error(
			`[setup] not stopped ${seconds(STOP_GRACE_MS)} after ${signal}: killing pids ${stopping.tree.running().join(', ')}`,
		);
		stopping.tree.signal('SIGKILL');
		process.exit(143);
	}, STOP_GRACE_MS).unref();
}

/** Exits with `code`; after a signal, first signals what the child left running. */
function exit(code) {
	stopping?.tree.signal('SIGTERM');
	process.exit(code);
}

function step(cmd, cmdArgs, env) {
	return new Promise((resolve, reject) => {
		child = spawn(cmd, cmdArgs, { cwd: REPO, env, stdio: 'inherit' });
		child.on('exit', (code, signal) => resolve(code ?? (signal === 'SIGINT' ? 130 : 1)));
		child.on('error', reject);
	});
}

/**
 * A step on Node 24. The binary was checked when the toolchain was ensured; should it be gone by the time it starts
 * (ENOENT: a half-finished install elsewhere, a deleted .tools/), it is checked and installed again, and the step
 * started once more, instead of failing a run that would succeed the second time.
 */
async function nodeStep(nodeBin, cmdArgs, env) {
	try {
		return await step(nodeBin, cmdArgs, env);
	} catch (error) {
		if (!['ENOENT', 'EACCES'].includes(error.code)) throw error;
		say(`${nodeBin} could not be started (${error.code}): checking Node 24 again`);
		return await step(await ensureNode24(), cmdArgs, env);
	}
}

/** When the user's command started: the demo's "Ready in" counts from here, toolchain installs included. */
const STARTED_AT = Date.now();

async function main() {
	const { nodeBin, env } = await ensureToolchain();
	switch (command) {
		case 'test': {
			const started = Date.now();
			for (const [index, [label, npmArgs]] of TEST_STEPS.entries()) {
				say(`npm test ${index + 1}/${TEST_STEPS.length}: ${label}`);
				const code = await step('npm', npmArgs, env).catch((error) => {
					console.error(error.message);
					return 1;
				});
				if (code !== 0) {
					say(`npm test: ${label} failed (exit ${code})`);
					return code;
				}
			}
			say(`npm test: all ${TEST_STEPS.length} steps passed in ${seconds(Date.now() - started)}`);
			return 0;
		}
		case 'start':
			return await nodeStep(nodeBin, [path.join(REPO, 'scripts/demo.mjs'), ...args], {
				...env,
				STORA_COMMAND_STARTED_AT: String(STARTED_AT),
			});
		case 'e2e':
			return await nodeStep(nodeBin, [path.join(REPO, 'test/e2e/run.mjs'), ...args], env);
		case 'bench':
			return await nodeStep(nodeBin, [path.join(REPO, 'test/bench/run.mjs'), ...args], env);
		case 'trigger-memory':
			return await nodeStep(nodeBin, [path.join(REPO, 'scripts/triggerMemory.mjs'), ...args], env);
		case 'first-run':
			// The fresh clones run on the machine's own PATH, as a newcomer's shell has it.
			return await nodeStep(nodeBin, [path.join(REPO, 'scripts/firstRun.mjs'), ...args], {
				...env,
				STORA_MACHINE_PATH: process.env.PATH,
			});
		case 'queue':
			return await nodeStep(nodeBin, [path.join(REPO, 'test/queue/run.mjs'), ...args], env);
		case 'readme': {
			// updateReadme.mjs imports TypeScript directly, which Node does from 22.18 on: it runs on Node 24.
			const code = await step('npm', ['run', 'build'], env);
			return (
				code ||
				(await nodeStep(nodeBin, [path.join(REPO, 'scripts/updateReadme.mjs'), ...args], env))
			);
		}
		case 'sandbox': {
			const code = await step('npx', ['tsc', '-p', 'tsconfig.sandbox.json'], env);
			return (
				code || (await nodeStep(nodeBin, [path.join(REPO, 'build/sandbox/cli.js'), ...args], env))
			);
		}
		default:
			console.error(
				'usage: node scripts/npmScript.mjs <test|start|e2e|queue|bench|trigger-memory|first-run|sandbox|readme> [args...]',
			);
			return 2;
	}
}

main().then(
	(code) => exit(code),
	(error) => {
		console.error(`[setup] ${error.message}`);
		exit(1);
	},
);
