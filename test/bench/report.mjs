// What a full `npm run bench` writes: docs/benchmark.md (every row, with the repetitions behind each median),
// docs/figures/performance.json (docs/quality.md's Performance table, rendered by test/helpers/figures.ts; test/readme.test.ts
// fails while docs/quality.md disagrees with it) and docs/benchmark.png.
import fs from 'node:fs';
import path from 'node:path';

import { N8N_VERSION, REPO } from '../realN8n/n8n.mjs';
import { readFigures, replaceFiguresSection } from '../helpers/figures.ts';
import { fmtRatio, fmtSummary, minutes } from './harness.mjs';

/**
 * How long the run took, setup apart: a first run installs n8n and builds its sqlite3 before the first case, minutes
 * later runs do not spend, and the budget of test/bench/README.md holds for the cases.
 */
const runTime = (run) =>
	`whole run ${minutes(run.ms)} (setup ${minutes(run.setupMs)}, cases ${minutes(run.ms - run.setupMs)})`;

/** docs/benchmark-processors.json: the last full run on each processor kind (its model name), kept side by side. */
const PROCESSORS_FILE = 'benchmark-processors.json';

/** This run's rows as the processors file keeps them. */
function processorEntry(sorted, run) {
	const rows = {};
	for (const r of sorted)
		rows[r.id] = {
			what: r.what.trim(),
			ratio: ratioText(r),
			goal: goalText(r.goal),
			met: metText(r.met, false),
		};
	return {
		n8n: N8N_VERSION,
		node: run.node,
		cores: run.cores,
		minutes: Number((run.ms / 60_000).toFixed(1)),
		setupMinutes: Number((run.setupMs / 60_000).toFixed(1)),
		met: run.met,
		goals: run.total,
		rows,
	};
}

/**
 * The table of every processor kind's last run: a row per figure, a column per kind. A row's text is the newest
 * run's (the file's last kind); a kind whose run measured the row as something else (goals and floors changed between runs) says what.
 */
function processorsTable(kinds) {
	const names = Object.keys(kinds).sort();
	const newest = Object.keys(kinds).reverse();
	const ids = ORDER.filter((id) => names.some((name) => kinds[name].rows[id]));
	const lines = [
		`| # | What | ${names.map((name) => `${name}: ${kinds[name].met}/${kinds[name].goals} met`).join(' | ')} |`,
		`|---|---|${names.map(() => '---').join('|')}|`,
	];
	for (const id of ids) {
		const what = newest.map((name) => kinds[name].rows[id]?.what).find(Boolean);
		const cells = names.map((name) => {
			const cell = kinds[name].rows[id];
			if (!cell) return 'not measured';
			const figure = cell.goal
				? `${cell.ratio}; goal ${cell.goal}: ${cell.met === 'yes' ? 'met' : '**not met**'}`
				: cell.ratio;
			return cell.what === what ? figure : `${figure} (then: ${cell.what})`;
		});
		lines.push(`| ${id} | ${what} | ${cells.join(' | ')} |`);
	}
	return lines;
}

/** docs/benchmark.md's last section, rendered from docs/benchmark-processors.json. */
export function processorsSection(
	kinds = JSON.parse(fs.readFileSync(path.join(REPO, 'docs', PROCESSORS_FILE), 'utf8')).kinds,
) {
	return [
		'## The last run on each processor kind',
		'',
		'Machines of the same kind (2 cores) come with different processors, and per-item figures move with them. Each',
		'full run records its rows under its processor model in `docs/benchmark-processors.json`; this table shows',
		"every kind's last run (goals met then), with the goals that run was held to.",
		'',
		...processorsTable(kinds),
		'',
	];
}

/** Records this run under its processor kind and returns every kind's last run. */
function recordProcessor(sorted, run) {
	const file = path.join(REPO, 'docs', PROCESSORS_FILE);
	const kinds = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')).kinds : {};
	const kind = run.model || 'unknown processor';
	// The newest run's kind goes last: the table takes a row's text from it.
	delete kinds[kind];
	kinds[kind] = processorEntry(sorted, run);
	fs.writeFileSync(file, `${JSON.stringify({ kinds }, null, '\t')}\n`);
	return kinds;
}

/** The docs/quality.md section (test/helpers/figures.ts markers) and its file. */
export const FIGURES_SECTION = 'performance';

/** The table's order. */
export const ORDER = [
	'1a',
	'1b',
	'1c',
	'1i',
	'2a',
	'2i',
	'3a',
	'3f',
	'3s',
	'3b',
	'3c',
	'3d',
	'3e',
	'3i',
	'4a',
	'4b',
	'4c',
	'4i',
	'5a',
	'5d',
	'6a',
	'6b',
	'7a',
	'7b',
	'7c',
	'7d',
	'7e',
	'7f',
	'7g',
	'7h',
];

export const goalText = (goal) =>
	goal
		? `${goal.op === '==' ? '=' : goal.op === '<=' ? '≤' : goal.op === '>=' ? '≥' : goal.op} ${goal.value}`
		: '';

/** A row's ratio as the table shows it: median and range, a count as a count, the tarball in kB. */
export function ratioText(r) {
	if (r.id === '1c') return String(r.ratio?.median ?? '');
	if (r.id === '6b') return `${fmtRatio(r.ratio?.median)} kB`;
	return fmtSummary(r.ratio);
}

const metText = (met, bold = true) =>
	met === undefined ? '' : met ? 'yes' : bold ? '**no**' : 'NO';

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
	const lines = [
		'| # | What | Stora | Reference | Ratio: median (min–max) | Goal | Met |',
		'|---|---|---|---|---|---|---|',
	];
	for (const r of sorted) {
		lines.push(
			`| ${r.id} | ${r.what.trim()} | ${r.stora ?? ''} | ${r.other ?? ''} | ${ratioText(r)} | ${goalText(r.goal)} | ${metText(r.met)} |`,
		);
	}
	return lines;
}

/**
 * docs/figures/performance.json: one row per goal and information row (ids that are not plain numbers, so they keep
 * their order as object keys), in the figures format of test/helpers/figures.ts,
 * plus a last row naming the run (machine, duration, goals met).
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
				runs: (r.ratio?.values ?? [])
					.map((v) => (Number.isFinite(v) ? Number(v.toFixed(4)) : null))
					.join(', '),
				...(r.goal ? { goal: `${r.goal.op} ${r.goal.value}`, met: r.met } : {}),
			},
		};
	}
	rows.run = {
		cells: [
			'',
			`The run: n8n ${N8N_VERSION}, Node ${run.node}, ${run.cores} CPU cores (${run.model}), ${runTime(run)}`,
			'',
			'',
			`${run.met}/${run.total} met`,
		],
		figures: {
			goalsMet: run.met,
			goals: run.total,
			cores: run.cores,
			seconds: Number((run.ms / 1000).toFixed(1)),
			setupSeconds: Number((run.setupMs / 1000).toFixed(1)),
			n8n: N8N_VERSION,
		},
	};
	return { columns: ['#', 'What', 'Ratio: median (min–max)', 'Goal', 'Met'], rows };
}

/** Writes docs/benchmark.md, docs/figures/performance.json and docs/quality.md's Performance table. */
export function writeDocs(sorted, run) {
	const docs = path.join(REPO, 'docs');
	fs.mkdirSync(path.join(docs, 'figures'), { recursive: true });
	const kinds = recordProcessor(sorted, run);
	const notes = sorted.filter((r) => r.note).map((r) => `- **${r.id}**: ${r.note}`);
	const md = [
		"# Benchmark: the Stora nodes next to n8n's own nodes",
		'',
		'Written by `npm run bench` (test/bench/run.mjs; what each case measures and how the HTTP Request node is set up:',
		'[test/bench/README.md](../test/bench/README.md)). Every figure below was measured in the run that wrote this file.',
		`Each side of a case ran ${run.reps} times (cases 2 and 3: ${run.closeReps} times), alternating which went first (S R, R S,`,
		'S R, ...), against the Stora sandbox over loopback HTTP sending only the documented rate-limit headers; a ratio is',
		'the median of the repetitions (their range in brackets), and a goal is met when every repetition produced a value',
		'and every one of them meets it.',
		'',
		`- n8n ${N8N_VERSION}, Node ${run.node}, ${run.cores} CPU cores${run.model ? ` (${run.model})` : ''}`,
		`- ${runTime(run)}; load average ${run.loadAtStart.toFixed(2)} at the start, ${run.loadAtEnd.toFixed(2)} at the end`,
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
		...processorsSection(kinds),
	].join('\n');
	fs.writeFileSync(path.join(docs, 'benchmark.md'), md);
	const figures = figuresFile(sorted, run);
	fs.mkdirSync(path.join(docs, 'figures'), { recursive: true });
	fs.writeFileSync(
		path.join(docs, 'figures', `${FIGURES_SECTION}.json`),
		`${JSON.stringify(figures, null, '\t')}\n`,
	);
	// docs/quality.md's table, rendered as `npm run readme` renders it (only between its markers).
	const readmePath = path.join(REPO, 'docs/quality.md');
	const readme = fs.readFileSync(readmePath, 'utf8');
	const updated = replaceFiguresSection(readme, FIGURES_SECTION, readFigures(FIGURES_SECTION));
	if (updated !== readme) fs.writeFileSync(readmePath, updated);
	return docs;
}
