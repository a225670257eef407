// The npm scripts a newcomer runs first (`npm test`, `npm start`, `npm run test:e2e`, `npm run sandbox`) start here,
// on whatever Node the machine has: the toolchain (dev dependencies, Node 24) is installed when missing, then the
// real work runs on Node 24. Usage: node test/tools/npmScript.mjs <test|start|e2e|queue|bench|sandbox> [args...]
import { spawn } from 'node:child_process';
import path from 'node:path';

import { ensureToolchain, REPO, say, seconds } from './toolchain.mjs';

const [command, ...args] = process.argv.slice(2);

/** `npm test`: every check, in the order that fails fastest; extra arguments go to jest. */
const TEST_STEPS = [
	['build', ['run', 'build']],
	['lint (n8n strict)', ['run', 'lint']],
	['typecheck', ['run', 'typecheck']],
	['community-package scanner', ['run', 'scan']],
	['jest', ['run', 'test:unit', '--', ...args]],
];

let child;
// Ctrl-C reaches the whole foreground process group: the child stops itself (the demo stops n8n and the sandbox);
// this process only waits for it. A SIGTERM sent to this process alone is passed on.
process.on('SIGINT', () => {});
for (const signal of ['SIGTERM', 'SIGHUP']) {
	process.on(signal, () => {
		if (child && child.exitCode === null) child.kill(signal);
		else process.exit(143);
	});
}

function step(cmd, cmdArgs, env) {
	return new Promise((resolve) => {
		child = spawn(cmd, cmdArgs, { cwd: REPO, env, stdio: 'inherit' });
		child.on('exit', (code, signal) => resolve(code ?? (signal === 'SIGINT' ? 130 : 1)));
		child.on('error', (error) => {
			console.error(error.message);
			resolve(1);
		});
	});
}

async function main() {
	const { nodeBin, env } = await ensureToolchain();
	switch (command) {
		case 'test': {
			const started = Date.now();
			for (const [index, [label, npmArgs]] of TEST_STEPS.entries()) {
				say(`npm test ${index + 1}/${TEST_STEPS.length}: ${label}`);
				const code = await step('npm', npmArgs, env);
				if (code !== 0) {
					say(`npm test: ${label} failed (exit ${code})`);
					return code;
				}
			}
			say(`npm test: all ${TEST_STEPS.length} steps passed in ${seconds(Date.now() - started)}`);
			return 0;
		}
		case 'start':
			return await step(nodeBin, [path.join(REPO, 'test/e2e/demo.mjs'), ...args], env);
		case 'e2e':
			return await step(nodeBin, [path.join(REPO, 'test/e2e/run.mjs'), ...args], env);
		case 'bench':
			return await step(nodeBin, [path.join(REPO, 'test/bench/run.mjs'), ...args], env);
		case 'queue':
			return await step(nodeBin, [path.join(REPO, 'test/queue/run.mjs'), ...args], env);
		case 'sandbox': {
			const code = await step('npx', ['tsc', '-p', 'tsconfig.sandbox.json'], env);
			return code || (await step(nodeBin, [path.join(REPO, 'build/test/sandbox/cli.js'), ...args], env));
		}
		default:
			console.error('usage: node test/tools/npmScript.mjs <test|start|e2e|queue|bench|sandbox> [args...]');
			return 2;
	}
}

main().then(
	(code) => process.exit(code),
	(error) => {
		console.error(`[setup] ${error.message}`);
		process.exit(1);
	},
);
