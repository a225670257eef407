// The harness the e2e and queue suites share: named checks, timings, cleanups and the closing summary. Both start
// n8n, the sandbox and more as child processes; one copy of the signal and cleanup handling keeps them from outliving
// a run, however it ends.
import { seconds } from '../../scripts/toolchain.mjs';

/**
 * Thrown by a check that failed because of a known n8n bug that has nothing to do with the package
 * (test/realN8n/versions.mjs, KNOWN_N8N_BUGS): the check is reported as that bug, not counted as passed or failed.
 */
export class KnownN8nBug extends Error {
	constructor(id, cause) {
		super(`known n8n bug ${id}: ${cause?.message ?? cause}`);
		this.id = id;
	}
}

/** Indents an error's text under its check line (40 lines at most). */
export const indent = (text) =>
	String(text)
		.split('\n')
		.slice(0, 40)
		.map((line) => `      ${line}`)
		.join('\n');

/** How the e2e checks print: ✓ or ✗, the check's name and time, and under a failure its message. */
export const checkLines = {
	passed: (name, time) => console.log(`  ✓ ${name} (${time})`),
	failed: (name, time, error) => console.log(`  ✗ ${name} (${time})\n${indent(error.message)}`),
};

/** Throws `message` unless `condition` holds: a check's failure. */
export function assert(condition, message) {
	if (!condition) throw new Error(message);
}

/**
 * Creates a suite's harness. Call it once, at the top of the suite: it installs the SIGINT/SIGTERM and
 * unhandledRejection handlers. What differs between the suites is passed in:
 * - `report`: `{ start?(name), passed(name, time), failed(name, time, error) }`, how a check's progress is printed;
 * - `width`: the label column of the Timings table;
 * - `prefixHeadings`: whether the summary's headings carry `prefix` too;
 * - `sections()`: more `[title, lines]` blocks after Timings (printed when not empty);
 * - `summaryOnInterrupt`: print the summary on Ctrl-C as well (a long run's timings are worth keeping).
 */
export function createHarness(
	prefix,
	{ report, width, prefixHeadings = false, sections = () => [], summaryOnInterrupt = false },
) {
	const t0 = Date.now();
	const timings = [];
	const results = [];
	const cleanups = [];
	const log = (...parts) => console.log(prefix, ...parts);
	const heading = (title) => `\n${prefixHeadings ? `${prefix} ` : ''}${title}`;
	let cleaning;
	let interrupted = false;
	let failedToRun;

	/** Runs the registered cleanups once, newest first; the later callers wait for the same run. */
	async function cleanup() {
		cleaning ??= (async () => {
			for (const fn of cleanups.reverse()) {
				try {
					await fn();
				} catch (error) {
					console.error(`${prefix} cleanup failed:`, error.message);
				}
			}
		})();
		return await cleaning;
	}

	for (const signal of ['SIGINT', 'SIGTERM']) {
		process.on(signal, async () => {
			if (interrupted) return;
			interrupted = true;
			console.error(`\n${prefix} ${signal}: stopping what was started`);
			await cleanup();
			if (summaryOnInterrupt) summary('interrupted');
			process.exit(130);
		});
	}
	// A stray rejection must not kill the run before cleanup (the processes it started would outlive it).
	process.on('unhandledRejection', (error) =>
		console.error(`${prefix} unhandled rejection:`, error?.message ?? error),
	);

	/** Runs `fn`, adds its duration to the Timings table and logs it. */
	async function timed(label, fn) {
		const started = Date.now();
		const value = await fn();
		const ms = Date.now() - started;
		timings.push([label, ms]);
		log(`${label}: ${seconds(ms)}`);
		return value;
	}

	/** Runs one named check and records whether it passed. After Ctrl-C nothing is recorded: the services are gone. */
	async function check(name, fn) {
		if (interrupted) return;
		const started = Date.now();
		report.start?.(name);
		try {
			await fn();
			if (interrupted) return;
			results.push({ name, ok: true });
			report.passed(name, seconds(Date.now() - started));
		} catch (error) {
			if (interrupted) return;
			if (error instanceof KnownN8nBug) {
				results.push({ name, known: error.id, error });
				console.log(
					`  ~ ${name} (${seconds(Date.now() - started)}): ${error.message.split('\n')[0]}`,
				);
				return;
			}
			results.push({ name, ok: false, error });
			report.failed(name, seconds(Date.now() - started), error);
		}
	}

	/** Prints timings, the extra sections, the failed checks and "N passed, N failed" last; returns the failed count. */
	function summary(note) {
		console.log(heading('Timings'));
		for (const [label, ms] of timings) console.log(`  ${label.padEnd(width)} ${seconds(ms)}`);
		console.log(`  ${'total'.padEnd(width)} ${seconds(Date.now() - t0)}`);
		for (const [title, lines] of sections()) {
			if (!lines.length) continue;
			console.log(heading(title));
			for (const text of lines) console.log(`  ${text}`);
		}
		const passed = results.filter((r) => r.ok).length;
		const known = results.filter((r) => r.known);
		const failed = results.length - passed - known.length + (failedToRun ? 1 : 0);
		if (results.some((r) => r.ok === false)) {
			console.log(heading('Failed:'));
			for (const r of results.filter((x) => x.ok === false)) console.log(`  ✗ ${r.name}`);
		}
		if (known.length) {
			console.log(heading('Known n8n bugs (not counted):'));
			for (const r of known) console.log(`  ~ ${r.name}: ${r.known}`);
			console.log(
				`\nknown n8n bugs: ${known.length} checks (${[...new Set(known.map((r) => r.known))].join(', ')})`,
			);
		}
		if (note) console.log(`\n${prefix} ${note}`);
		console.log(`\n${passed} passed, ${failed} failed`);
		return failed;
	}

	/**
	 * Runs the suite's `main`, cleans up, prints the summary and exits 1 on any failure (a throw from `main` counts as
	 * one). After Ctrl-C the signal handler owns cleanup and exit (130), so this does neither.
	 */
	async function run(main) {
		try {
			await main();
		} catch (error) {
			failedToRun = error;
			if (!interrupted)
				console.error(`\n${prefix} the harness failed: ${error.stack ?? error.message}`);
		} finally {
			if (!interrupted) await cleanup();
		}
		if (!interrupted) process.exit(summary() ? 1 : 0);
	}

	return { log, timings, cleanups, cleanup, timed, check, run };
}
