/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/require-node-api-error -- test tooling under test/, never published */
/**
 * Measured figures in the README, generated instead of typed: any README section can be a table rendered from a
 * figures file that the runs measuring it write.
 *
 * - The README marks the section `<!-- figures:<name>:start ... -->` ... `<!-- figures:<name>:end -->`; everything
 *   between the markers is rendered from `docs/figures/<name>.json`:
 *   `{ "columns": [...], "rows": { "<id>": { "cells": [...], "figures": {...} } } }`,
 *   one table row per entry of `rows`, in the file's order (a new id goes last).
 * - A run records its row with `recordFigures(name, id, row)` after the assertions on those figures passed, so a row
 *   only ever holds what a passing run measured. It writes only when the environment has `STORA_FIGURES=write`
 *   (`STORA_FIGURES=write npx jest <suites>`, `STORA_FIGURES=write npm run test:e2e`), because an ordinary run must
 *   not change committed files, and `test/readme.test.ts` would fail on a README older than the run. Rows are merged
 *   into the file under a lock, as jest runs test files in parallel workers; a row another suite wrote stays as it is.
 * - `npm run readme` (scripts/updateReadme.mjs) renders every section from its file, and `test/readme.test.ts`
 *   fails while the README disagrees with a committed figures file (so also in a writing run that changed a figure,
 *   until `npm run readme`). Tests assert bounds (timings vary); the README shows what the last run measured.
 * - Another section (the benchmark's Performance, say) needs only its markers in the README and its
 *   `docs/figures/<name>.json` with `columns` and `rows: {}`; its runner calls `recordFigures('<name>', ...)`.
 *
 * Kept free of imports other than Node's own, so Node runs it directly (type stripping) from .mjs scripts
 * (updateReadme.mjs, the e2e and benchmark runners) and jest checks the README against it.
 */
import {
	closeSync,
	existsSync,
	openSync,
	readdirSync,
	readFileSync,
	renameSync,
	rmSync,
	statSync,
	writeFileSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** The repository root: the nearest folder up from the working directory with this package's package.json. */
function repositoryRoot(): string {
	for (let dir = process.cwd(); ; dir = dirname(dir)) {
		const manifest = join(dir, 'package.json');
		if (
			existsSync(manifest) &&
			(JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'n8n-nodes-stora'
		)
			return dir;
		if (dirname(dir) === dir) throw new Error('Run from inside the n8n-nodes-stora repository');
	}
}
const FIGURES_DIR = join(repositoryRoot(), 'docs', 'figures');
/** Set to `write` to let runs record their figures. */
const FIGURES_ENV = 'STORA_FIGURES';

export interface FigureRow {
	/** The table's cells, in the order of the file's `columns`; the numbers in them come from `figures`. */
	cells: string[];
	/** The raw measurements behind the cells. */
	figures: Record<string, number | string | boolean>;
}

export interface FiguresFile {
	columns: string[];
	rows: Record<string, FigureRow>;
}

const startMarker = (name: string) => `<!-- figures:${name}:start`;
const endMarker = (name: string) => `<!-- figures:${name}:end -->`;

/** Whether this run writes figures (`STORA_FIGURES=write`). */
export function writingFigures(): boolean {
	return process.env[FIGURES_ENV] === 'write';
}

/** Prints a figure as one `figures:` line on stdout, so a run's log holds the numbers the README summarises. */
export function printFigure(line: string): void {
	process.stdout.write(`figures: ${line}\n`);
}

const fileOf = (name: string, dir: string) => join(dir, `${name}.json`);

export function readFigures(name: string, dir = FIGURES_DIR): FiguresFile {
	return JSON.parse(readFileSync(fileOf(name, dir), 'utf8')) as FiguresFile;
}

/** Every figures file: section name → file. */
export function allFigures(dir = FIGURES_DIR): Record<string, FiguresFile> {
	if (!existsSync(dir)) return {};
	const names = readdirSync(dir)
		.filter((file) => file.endsWith('.json'))
		.map((file) => basename(file, '.json'));
	return Object.fromEntries(names.sort().map((name) => [name, readFigures(name, dir)]));
}

/** A pipe in a cell would end it early. */
const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** The markdown table of a figures file. */
function renderFigures(file: FiguresFile): string {
	const lines = [`| ${file.columns.join(' | ')} |`, `|${file.columns.map(() => '---').join('|')}|`];
	for (const [id, row] of Object.entries(file.rows)) {
		if (row.cells.length !== file.columns.length)
			throw new Error(
				`figures row ${id} has ${row.cells.length} cells for ${file.columns.length} columns`,
			);
		lines.push(`| ${row.cells.map(cell).join(' | ')} |`);
	}
	return lines.join('\n');
}

/** The README with the section `name` rendered from `file`; throws when the README lacks its markers. */
export function replaceFiguresSection(readme: string, name: string, file: FiguresFile): string {
	const start = readme.indexOf(startMarker(name));
	const end = readme.indexOf(endMarker(name));
	if (start < 0 || end < start)
		throw new Error(`README lacks the ${startMarker(name)} ... ${endMarker(name)} markers`);
	const afterStart = readme.indexOf('-->', start) + '-->'.length;
	return `${readme.slice(0, afterStart)}\n${renderFigures(file)}\n${readme.slice(end)}`;
}

/** The documents that hold figures sections: the README (first-run times) and docs/quality.md (the rest). */
export const FIGURES_DOCUMENTS = ['README.md', 'docs/quality.md'];

/** Whether `text` holds the markers of section `name`. */
export const holdsSection = (text: string, name: string) =>
	text.includes(startMarker(name)) && text.includes(endMarker(name));

/** The document with every section whose markers it holds rendered from its figures file. */
export function renderAllFigureSections(readme: string, dir = FIGURES_DIR): string {
	return Object.entries(allFigures(dir))
		.filter(([name]) => holdsSection(readme, name))
		.reduce((text, [name, file]) => replaceFiguresSection(text, name, file), readme);
}

/** Blocks the thread for `ms` (the lock is held for a few milliseconds; an async wait would not fit a sync API). */
function pause(ms: number): void {
	Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Runs `update` holding `<file>.lock`; a lock left by a run that died (older than 30 s) is taken over. */
function withLock<T>(file: string, update: () => T): T {
	const lock = `${file}.lock`;
	for (let waited = 0; ; waited += 20) {
		try {
			closeSync(openSync(lock, 'wx'));
			break;
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
			const stale = (() => {
				try {
					return Date.now() - statSync(lock).mtimeMs > 30_000;
				} catch {
					return false;
				}
			})();
			if (stale) rmSync(lock, { force: true });
			else if (waited > 10_000) throw new Error(`${lock} held for more than 10 s`);
			else pause(20);
		}
	}
	try {
		return update();
	} finally {
		rmSync(lock, { force: true });
	}
}

/**
 * Records the row `id` of the section `name` (printing its cells as a `figures:` line either way); writes it into
 * `docs/figures/<name>.json` only when `STORA_FIGURES=write`. Call it after the assertions on the figures: the
 * assertions hold the behaviour, the row only shows what the run measured. The section's file must exist: it holds
 * the columns.
 */
export function recordFigures(
	name: string,
	id: string,
	row: FigureRow,
	options: { dir?: string } = {},
): void {
	const { dir = FIGURES_DIR } = options;
	printFigure(`${name}/${id}: ${row.cells[row.cells.length - 1]}`);
	const file = fileOf(name, dir);
	if (!writingFigures()) return;
	withLock(file, () => {
		const figures = JSON.parse(readFileSync(file, 'utf8')) as FiguresFile;
		figures.rows[id] = { cells: row.cells, figures: row.figures };
		const temporary = `${file}.${process.pid}.tmp`;
		writeFileSync(temporary, `${JSON.stringify(figures, null, '\t')}\n`);
		renameSync(temporary, file);
	});
}

/**
 * The earliest time (ms from the first request) at which the last of `count` requests can go when no window of the
 * documented kind ever holds more than its limit (any 1 s: `perSecond`, any 60 s: `perMinute`; 0: no limit): the
 * floor a rate-limited run is measured against.
 */
export function rateLimitFloorMs(
	count: number,
	{ perSecond, perMinute }: { perSecond: number; perMinute: number },
): number {
	const at: number[] = [];
	for (let k = 0; k < count; k++) {
		let t = 0;
		if (perSecond > 0 && k >= perSecond) t = Math.max(t, at[k - perSecond] + 1000);
		if (perMinute > 0 && k >= perMinute) t = Math.max(t, at[k - perMinute] + 60_000);
		at.push(t);
	}
	return at[count - 1] ?? 0;
}
