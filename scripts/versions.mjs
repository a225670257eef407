// `npm run test:versions`: the real-n8n suite (test/e2e/run.mjs) against every n8n the package supports
// (test/realN8n/versions.mjs), one after the other: each installed once into its own .cache/n8n-<version> on the Node it
// runs on, the Chromium parts against the newest only. Prints a table version × checks, and last
// `versions: N/M passed`. After a run of every version it writes what the last run measured: the README shows which
// n8n works on which Node, docs/compatibility.md the whole table and the known n8n bugs (each between its markers).
//
//   npm run test:versions [-- --only <version|line>] [--no-browser] [--no-readme]
//
// Each run's whole output goes to .cache/test-versions/<version>.log; its lines are shown as they come. Plain Node ESM
// that the machine's own Node runs: the toolchain (dev dependencies, Node 24) is installed first when missing.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { checkRegistry, registryLine, untested } from '../test/realN8n/registry.mjs';
import { KNOWN_N8N_BUGS, N8N_VERSIONS, selectedVersion } from '../test/realN8n/versions.mjs';
import { ensureToolchain, REPO, seconds } from './toolchain.mjs';

export const README_START = '<!-- versions:start (written by npm run test:versions) -->';
export const README_END = '<!-- versions:end -->';
export const DETAIL_START = '<!-- versions-detail:start (written by npm run test:versions) -->';
export const DETAIL_END = '<!-- versions-detail:end -->';
/** Where the whole table goes; the README links there. */
export const DETAIL_FILE = 'docs/compatibility.md';
/** The anchor of the heading above DETAIL_START in DETAIL_FILE ("The last run of every version"). */
export const DETAIL_ANCHOR = 'the-last-run-of-every-version';

const { values: args } = parseArgs({
	options: {
		only: { type: 'string' },
		'no-browser': { type: 'boolean', default: false },
		'no-readme': { type: 'boolean', default: false },
	},
});

const LOG_DIR = path.join(REPO, '.cache', 'test-versions');
const minutes = (ms) => `${(ms / 60_000).toFixed(1)} min`;

/** What a run printed: its summary line, the known n8n bugs it reported, and the n8n install time. */
export function parseRun(output) {
	const summary = [...output.matchAll(/^(\d+) passed, (\d+) failed$/gm)].at(-1);
	const known = /^known n8n bugs: (\d+) checks \(([^)]*)\)$/m.exec(output);
	const install = /^\s+n8n install \(cached when unchanged\)\s+([\d.]+) s$/m.exec(output);
	return {
		passed: summary ? Number(summary[1]) : undefined,
		failed: summary ? Number(summary[2]) : undefined,
		known: known ? Number(known[1]) : 0,
		knownIds: known ? known[2].split(', ').filter(Boolean) : [],
		installMs: install ? Number(install[1]) * 1000 : undefined,
	};
}

/** What the installed n8n says of itself: the Node range it accepts and the n8n-workflow it bundles. */
function installed(version) {
	const read = (file) => {
		try {
			return JSON.parse(
				fs.readFileSync(
					path.join(REPO, '.cache', `n8n-${version.n8n}`, 'node_modules', file),
					'utf8',
				),
			);
		} catch {
			return {};
		}
	};
	return {
		engines: read('n8n/package.json').engines?.node,
		workflow: read('n8n-workflow/package.json').version,
	};
}

/** Runs the e2e suite against one version; resolves to its parsed result, exit code and wall time. */
function runVersion(version, { nodeBin, env }) {
	fs.mkdirSync(LOG_DIR, { recursive: true });
	const logFile = path.join(LOG_DIR, `${version.n8n}.log`);
	const log = fs.createWriteStream(logFile);
	const browser = version.browser === true && !args['no-browser'];
	const started = Date.now();
	return new Promise((resolve) => {
		const child = spawn(
			nodeBin,
			[path.join(REPO, 'test/e2e/run.mjs'), ...(browser ? [] : ['--no-browser'])],
			{
				cwd: REPO,
				env: { ...env, E2E_N8N_VERSION: version.n8n },
				stdio: ['ignore', 'pipe', 'pipe'],
			},
		);
		current = child;
		let output = '';
		let partial = '';
		const take = (chunk) => {
			const text = chunk.toString();
			output += text;
			log.write(text);
			const lines = (partial + text).split('\n');
			partial = lines.pop();
			for (const line of lines) console.log(`[${version.n8n}] ${line}`);
		};
		child.stdout.on('data', take);
		child.stderr.on('data', take);
		child.on('exit', (code, signal) => {
			current = undefined;
			if (partial) console.log(`[${version.n8n}] ${partial}`);
			log.end();
			resolve({
				version,
				browser,
				code: code ?? signal,
				ms: Date.now() - started,
				logFile,
				...installed(version),
				...parseRun(output),
			});
		});
	});
}

const ok = (r) => r.code === 0 && r.failed === 0 && r.passed > 0;
const result = (r) => (ok(r) ? 'passed' : `**failed** (exit ${r.code})`);

/**
 * The results as the README shows them, for a user deciding whether to install: each n8n, the Node it ran on, what
 * passed; then where the details are, whether the registry has a newer n8n 2.x (test/realN8n/registry.mjs) and the
 * closing tally.
 */
export function renderSummary(results, { registry }) {
	return [
		'The last `npm run test:versions`:',
		'',
		'| n8n | Tested on Node | Checks passed | Result |',
		'|---|---|---|---|',
		...results.map(
			(r) => `| ${r.version.n8n} | ${r.version.node} | ${r.passed ?? '–'} | ${result(r)} |`,
		),
		'',
		// The registry's answer in the same paragraph: the README is kept to its front-page length.
		`Each run in full (its times, the known n8n bugs it reproduces): [${DETAIL_FILE}](${DETAIL_FILE}#${DETAIL_ANCHOR}).${registry ? ` ${registryLine(registry)}` : ''}`,
		'',
		`versions: ${results.filter(ok).length}/${results.length} passed`,
	].join('\n');
}

/**
 * The results in full, for docs/compatibility.md: the whole table, the known n8n bugs, the registry's newer n8n 2.x
 * and the closing tally.
 */
export function renderResults(results, { machine, registry }) {
	const lines = [
		`The last \`npm run test:versions\`, on ${machine}:`,
		'',
		'| n8n | Node it accepts | Tested on Node | n8n-workflow | Checks passed | Failed | Known n8n bugs (not counted) | Chromium parts | n8n install | Run | Result |',
		'|---|---|---|---|---|---|---|---|---|---|---|',
		...results.map((r) =>
			[
				'',
				r.version.n8n,
				`\`${r.engines ?? '?'}\``,
				r.version.node,
				r.workflow ?? '?',
				r.passed ?? '–',
				r.failed ?? '–',
				r.known ? `${r.known} (${r.knownIds.join(', ')})` : '0',
				r.browser ? 'yes' : 'no',
				r.installMs === undefined ? '–' : seconds(r.installMs),
				minutes(r.ms),
				result(r),
				'',
			]
				.join(' | ')
				.trim(),
		),
	];
	const bugs = [...new Set(results.flatMap((r) => r.knownIds))];
	if (bugs.length) {
		lines.push(
			'',
			"Known n8n bugs, reproduced by each run with n8n's own nodes before the cases (test/realN8n/versions.mjs):",
		);
		for (const id of bugs) {
			const bug = KNOWN_N8N_BUGS[id];
			lines.push(`- \`${id}\`: ${bug.title}. ${bug.explanation} Reproduction: ${bug.steps}`);
		}
	}
	if (registry) lines.push('', registryLine(registry));
	lines.push('', `versions: ${results.filter(ok).length}/${results.length} passed`);
	return lines.join('\n');
}

/** `text` with the section between the markers (the README's by default) replaced. */
export function replaceVersionsSection(
	text,
	section,
	[startMarker, endMarker] = [README_START, README_END],
) {
	const start = text.indexOf(startMarker);
	const end = text.indexOf(endMarker);
	if (start < 0 || end < start)
		throw new Error(`the file lacks the ${startMarker} ... ${endMarker} markers`);
	return `${text.slice(0, start + startMarker.length)}\n${section}\n${text.slice(end)}`;
}

let current;
let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM']) {
	process.on(signal, () => {
		// The run stops what it started (its own signal handling); this waits for it, then runs no other version.
		interrupted = true;
		if (current) current.kill(signal);
		else process.exit(130);
	});
}

async function main() {
	const versions = args.only ? [selectedVersion(args.only)] : N8N_VERSIONS;
	const toolchain = await ensureToolchain();
	const results = [];
	for (const version of versions) {
		console.log(
			`\n=== n8n ${version.n8n} on Node ${version.node} (${results.length + 1} of ${versions.length})`,
		);
		results.push(await runVersion(version, toolchain));
		if (interrupted) {
			console.log('\ninterrupted: no other version runs, the README is left as it was');
			return 130;
		}
		const last = results.at(-1);
		console.log(
			`=== n8n ${version.n8n}: ${last.passed ?? '?'} passed, ${last.failed ?? '?'} failed, ${last.known} known n8n bug checks, ${minutes(last.ms)} (log: ${path.relative(REPO, last.logFile)})`,
		);
	}
	const cpus = os.cpus().length;
	// A run of every version also asks the registry whether a newer n8n 2.x installs (about a minute per newer version).
	const registry = args.only ? undefined : checkRegistry();
	const section = renderResults(results, {
		machine: `${cpus} CPU cores, ${os.platform()}`,
		registry,
	});
	console.log(`\n${section}`);
	if (!args.only && !args['no-readme']) {
		const write = (file, text, markers) => {
			const full = path.join(REPO, file);
			fs.writeFileSync(full, replaceVersionsSection(fs.readFileSync(full, 'utf8'), text, markers));
		};
		write('README.md', renderSummary(results, { registry }));
		write(DETAIL_FILE, section, [DETAIL_START, DETAIL_END]);
		console.log(`\nREADME.md and ${DETAIL_FILE}: the versions tables are updated`);
	}
	// The tally again, last.
	console.log(section.split('\n').at(-1));
	if (registry && untested(registry).length)
		console.log(
			`\nnot tested: n8n ${untested(registry)
				.map((v) => v.n8n)
				.join(', ')} installs from the registry`,
		);
	return results.every((r) => r.code === 0 && r.failed === 0 && r.passed > 0) &&
		!(registry && untested(registry).length)
		? 0
		: 1;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
	main().then(
		(code) => process.exit(code),
		(error) => {
			console.error(error);
			process.exit(1);
		},
	);
}
