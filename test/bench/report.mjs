// What a full `npm run bench` writes: docs/benchmark.md (every row, with the repetitions behind each median),
// docs/figures/performance.json (docs/quality.md's Performance table, rendered by test/helpers/figures.ts; test/readme.test.ts
// fails while docs/quality.md disagrees with it) and docs/benchmark.png.
import fs from 'node:fs';
import path from 'node:path';

import { N8N_VERSION, REPO } from '../realN8n/n8n.mjs';
import { readFigures, replaceFiguresSection } from '../helpers/figures.ts';
import { fmtRatio, fmtSummary } from './harness.mjs';

const minutes = (ms) => `${(ms / 60_000).toFixed(1)} min`;

/** The docs/quality.md section (test/helpers/figures.ts markers) and its file. */
export const FIGURES_SECTION = 'performance';

/** The table's order. */
export const ORDER = ['1a', '1b', '1c', '1i', '2a', '2b', '2i', '3a', '3s', '3b', '3c', '3i', '4a', '4b', '4c', '4i', '5a', '5d', '6a', '6b'];

export const goalText = (goal) => (goal ? `${goal.op === '==' ? '=' : goal.op === '<=' ? '≤' : goal.op === '>=' ? '≥' : goal.op} ${goal.value}` : '');

/** A row's ratio as the table shows it: median and range, a count as a count, the tarball in kB. */
export function ratioText(r) {
	if (r.id === '1c') return String(r.ratio?.median ?? '');
	if (r.id === '6b') return `${fmtRatio(r.ratio?.median)} kB`;
	return fmtSummary(r.ratio);
}

const metText = (met, bold = true) => (met === undefined ? '' : met ? 'yes' : bold ? '**no**' : 'NO');

export function consoleTable(sorted) {
	const cells = sorted.map((r) => [
		r.id,
		r.what.length > 78 ? `${r.what.slice(0, 77)}…` : r.what,
		r.stora ?? '',
		r.other ?? '',
		ratioText(r),
		goalText(r.goal),
		metText(r.met, false),
	]);
	const head = ['#', 'What', 'Stora', 'Reference', 'Ratio (min–max)', 'Goal', 'Met'];
	const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => String(c[i]).length)));
	const line = (c) => c.map((v, i) => String(v).padEnd(widths[i])).join('  ');
	return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.map(line)];
}

function markdownTable(sorted) {
	const lines = ['| # | What | Stora | Reference | Ratio: median (min–max) | Goal | Met |', '|---|---|---|---|---|---|---|'];
	for (const r of sorted) {
		lines.push(`| ${r.id} | ${r.what.trim()} | ${r.stora ?? ''} | ${r.other ?? ''} | ${ratioText(r)} | ${goalText(r.goal)} | ${metText(r.met)} |`);
	}
	return lines;
}

/**
 * docs/figures/performance.json: one row per goal and information row (ids that are not plain numbers, so they keep
 * their order as object keys), in the figures format of test/helpers/figures.ts,
 * plus a last row naming the run (machine, date, duration, goals met).
 */
function figuresFile(sorted, run) {
	const rows = {};
	for (const r of sorted) {
		rows[r.id] = {
			cells: [r.id, r.what.trim(), ratioText(r), goalText(r.goal), metText(r.met)],
			figures: {
				median: r.ratio?.median ?? null,
				min: r.ratio?.min ?? null,
				max: r.ratio?.max ?? null,
				runs: (r.ratio?.values ?? []).map((v) => (Number.isFinite(v) ? Number(v.toFixed(4)) : null)).join(', '),
				...(r.goal ? { goal: `${r.goal.op} ${r.goal.value}`, met: r.met } : {}),
			},
			measured: run.date,
		};
	}
	rows.run = {
		cells: ['', `The run: n8n ${N8N_VERSION}, Node ${run.node}, ${run.cores} CPU cores (${run.model}), ${run.date.slice(0, 10)}, whole run ${minutes(run.ms)}`, '', '', `${run.met}/${run.total} met`],
		figures: { goalsMet: run.met, goals: run.total, cores: run.cores, seconds: Number((run.ms / 1000).toFixed(1)), n8n: N8N_VERSION },
		measured: run.date,
	};
	return { columns: ['#', 'What', 'Ratio: median (min–max)', 'Goal', 'Met'], rows };
}

/** Writes docs/benchmark.md, docs/figures/performance.json and docs/quality.md's Performance table. */
export function writeDocs(sorted, run) {
	const docs = path.join(REPO, 'docs');
	const notes = sorted.filter((r) => r.note).map((r) => `- **${r.id}**: ${r.note}`);
	const md = [
		"# Benchmark: the Stora nodes next to n8n's own nodes",
		'',
		'Written by `npm run bench` (test/bench/run.mjs; what each case measures and how the HTTP Request node is set up:',
		'[test/bench/README.md](../test/bench/README.md)). Every figure below was measured in the run that wrote this file.',
		`Each side of a case ran ${run.reps} times, alternating which went first (S R, R S, S R), against the Stora sandbox over`,
		'loopback HTTP sending only the documented rate-limit headers; a ratio is the median of the repetitions (their',
		'range in brackets), and a goal is met when the median meets it and every repetition produced a value.',
		'',
		`- n8n ${N8N_VERSION}, Node ${run.node}, ${run.cores} CPU cores${run.model ? ` (${run.model})` : ''}`,
		`- ${run.date.slice(0, 10)}; whole run ${minutes(run.ms)}; load average ${run.loadAtStart.toFixed(2)} at the start, ${run.loadAtEnd.toFixed(2)} at the end`,
		'- The machine is shared with other test runs, so single figures can move by several percent between runs; the',
		'  ratios compare runs made minutes apart under the same conditions.',
		'',
		`**${run.met}/${run.total} goals met.**`,
		'',
		...markdownTable(sorted),
		'',
		'![Ratios against their goals](benchmark.png)',
		'',
		'## Details',
		'',
		...notes,
		'',
	].join('\n');
	fs.writeFileSync(path.join(docs, 'benchmark.md'), md);
	const figures = figuresFile(sorted, run);
	fs.mkdirSync(path.join(docs, 'figures'), { recursive: true });
	fs.writeFileSync(path.join(docs, 'figures', `${FIGURES_SECTION}.json`), `${JSON.stringify(figures, null, '\t')}\n`);
	// docs/quality.md's table, rendered as `npm run readme` renders it (only between its markers).
	const readmePath = path.join(REPO, 'docs/quality.md');
	const readme = fs.readFileSync(readmePath, 'utf8');
	const updated = replaceFiguresSection(readme, FIGURES_SECTION, readFigures(FIGURES_SECTION));
	if (updated !== readme) fs.writeFileSync(readmePath, updated);
	return docs;
}
