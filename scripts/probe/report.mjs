/**
 * The report: one page of Markdown a user can paste into an issue (summary.mjs: each point, its verdict, the
 * evidence and what the package does about it), and JSON with a `points` array of {id, verdict, evidence, where}.
 * Both pass through `redact` with every secret of the run (the token, a webhook secret) before they are written, so
 * nothing the server echoed can carry one out.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

import { summaryRows } from './summary.mjs';

/** Replaces each secret (and any bearer credential) in `text`. */
export function redact(text, secrets) {
	let out = String(text);
	for (const secret of secrets)
		if (secret && secret.length >= 4) out = out.split(secret).join('[redacted]');
	return out.replace(/(Bearer\s+)[^\s"',]+/gi, '$1[redacted]');
}

/** `value` with every string redacted, deeply. */
export function redactDeep(value, secrets) {
	if (typeof value === 'string') return redact(value, secrets);
	if (Array.isArray(value)) return value.map((item) => redactDeep(item, secrets));
	if (value && typeof value === 'object')
		return Object.fromEntries(
			Object.entries(value).map(([key, item]) => [key, redactDeep(item, secrets)]),
		);
	return value;
}

const cell = (text) =>
	String(text ?? '')
		.replace(/\|/g, '\\|')
		.replace(/\r?\n/g, ' ');

/**
 * One page: the report a user pastes into an issue stays within these (checked by test/probe/probeReport.test.ts);
 * evidence is cut to fit, saying so, and every point's full evidence is in probe-report.json.
 */
export const ONE_PAGE = { lines: 40, characters: 9000 };
const CUTS = [Infinity, 300, 200, 140, 90, 60];

function countVerdicts(points) {
	const counts = {};
	for (const { verdict } of points) counts[verdict] = (counts[verdict] ?? 0) + 1;
	return Object.entries(counts)
		.sort((a, b) => b[1] - a[1])
		.map(([verdict, count]) => `${count} ${verdict}`)
		.join(', ');
}

/** The Markdown report. `run`: what the JSON's `probe` member holds. */
export function markdown(run, points) {
	const head = [
		'## Stora API probe report',
		'',
		`- Probe: n8n-nodes-stora ${run.package_version}, \`npm run probe\`${run.write ? ' --write' : ''}, ${run.started_at} to ${run.finished_at}`,
		`- API: ${run.base_url} (version 2025-09); token scopes: ${run.scopes ? `${run.scopes.length}, as ${run.scope_form === 'array' ? 'an array' : `a ${run.scope_form}`}` : 'not listed by token info'}`,
		`- Requests: ${run.requests} (${run.rate_limited} answered 429), paced at ${run.pacing.per_second}/s and ${run.pacing.per_minute}/min${run.pacing.budget_share !== undefined ? ` (${Math.round(run.pacing.budget_share * 100)}% of the documented budget)` : ''}; sample of ${run.sample_size} records per list`,
		`- ${points.length} points: ${countVerdicts(points)}. Each point, its full evidence and the code holding the node's reading: probe-report.json.`,
	];
	if (run.stopped) head.push('', `> **Stopped early:** ${run.stopped}`);
	if (run.leftovers?.length)
		head.push(
			'',
			'> **Left on the account (remove by hand):**',
			...run.leftovers.map((item) => `> - ${item}`),
		);
	const rows = summaryRows(points);
	for (const cut of CUTS) {
		const clipped = (text) => (text.length > cut ? `${text.slice(0, cut - 1)}…` : text);
		const lines = [
			...head,
			'',
			'| Point | Verdict | Evidence | What the package does about it |',
			'|---|---|---|---|',
			...rows.map(
				(row) =>
					`| ${cell(row.point)} | ${cell(row.verdict)} | ${cell(clipped(row.evidence))} | ${cell(row.does)} |`,
			),
		];
		lines.push(
			'',
			`Unknown: the node keeps its reading; the evidence says what would decide it.${cut === Infinity ? '' : ` Evidence cut to ${cut} characters a row to fit one page.`}`,
		);
		const text = lines.join('\n');
		if (text.length <= ONE_PAGE.characters || cut === CUTS[CUTS.length - 1]) return text;
	}
	return '';
}

/** Writes probe-report.md and probe-report.json into `folder`; returns the Markdown and the paths. */
export async function writeReport(folder, run, points, secrets) {
	const safeRun = redactDeep(run, secrets);
	const safePoints = redactDeep(points, secrets);
	const md = redact(markdown(safeRun, safePoints), secrets);
	const json = redact(JSON.stringify({ probe: safeRun, points: safePoints }, null, 2), secrets);
	await mkdir(folder, { recursive: true });
	const mdPath = path.join(folder, 'probe-report.md');
	const jsonPath = path.join(folder, 'probe-report.json');
	await writeFile(mdPath, `${md}\n`);
	await writeFile(jsonPath, `${json}\n`);
	return { md, mdPath, jsonPath };
}
