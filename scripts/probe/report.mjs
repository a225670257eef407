/**
 * The report: Markdown a user can paste into an issue, and JSON with a `points` array of {id, verdict, evidence,
 * where}. Both pass through `redact` with every secret of the run (the token, a webhook secret) before they are
 * written, so nothing the server echoed can carry one out.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** Replaces each secret (and any bearer credential) in `text`. */
export function redact(text, secrets) {
	let out = String(text);
	for (const secret of secrets) if (secret && secret.length >= 4) out = out.split(secret).join('[redacted]');
	return out.replace(/(Bearer\s+)[^\s"',]+/gi, '$1[redacted]');
}

/** `value` with every string redacted, deeply. */
export function redactDeep(value, secrets) {
	if (typeof value === 'string') return redact(value, secrets);
	if (Array.isArray(value)) return value.map((item) => redactDeep(item, secrets));
	if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, redactDeep(item, secrets)]));
	return value;
}

const cell = (text) => String(text ?? '').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
const LIST_POINT = /^GET \/2025-09\/([^?]+)\?(.+)$/;

function countVerdicts(points) {
	const counts = {};
	for (const { verdict } of points) counts[verdict] = (counts[verdict] ?? 0) + 1;
	return Object.entries(counts).map(([verdict, count]) => `${count} ${verdict}`).join(', ');
}

/** The Markdown report. `run`: what the JSON's `probe` member holds. */
export function markdown(run, points) {
	const listPoints = points.filter((entry) => LIST_POINT.test(entry.id));
	const others = points.filter((entry) => !LIST_POINT.test(entry.id));
	const lines = [
		'## Stora API probe report',
		'',
		`- Probe: n8n-nodes-stora ${run.package_version}, \`npm run probe\`${run.write ? ' --write' : ''}, ${run.started_at} to ${run.finished_at}`,
		`- API: ${run.base_url} (version 2025-09)`,
		`- Requests: ${run.requests} (${run.rate_limited} answered 429), paced at ${run.pacing.per_second}/s and ${run.pacing.per_minute}/min${run.pacing.budget_share !== undefined ? ` (${Math.round(run.pacing.budget_share * 100)}% of the documented budget)` : ''}; sample of ${run.sample_size} records per list`,
		`- Token scopes (${run.scope_form}): ${run.scopes ? run.scopes.join(', ') || '(none)' : 'not listed by token info'}`,
		`- List parameters: ${countVerdicts(listPoints)}`,
	];
	if (run.stopped) lines.push('', `> **Stopped early:** ${run.stopped}`);
	if (run.leftovers?.length) lines.push('', '> **Left on the account (remove by hand):**', ...run.leftovers.map((item) => `> - ${item}`));
	const byList = new Map();
	for (const entry of listPoints) {
		const [, list, parameter] = LIST_POINT.exec(entry.id);
		if (!byList.has(list)) byList.set(list, []);
		byList.get(list).push({ ...entry, parameter });
	}
	if (byList.size) {
		lines.push('', '### List parameters', '', 'Each parameter the node sends, asked without it, with a value taken from the records, and without it again; only records unchanged in both reads without it count, so other clients writing meanwhile cannot decide a verdict: honoured (the answer changed as it says), ignored (the unchanged records came back as without it), refused (an error naming it, never a 429), unknown (the reason, and what would decide it, follow).', '');
		for (const [list, entries] of byList) {
			lines.push(`<details><summary><code>GET /2025-09/${list}</code>: ${countVerdicts(entries)}</summary>`, '', '| Parameter | Verdict | Evidence |', '|---|---|---|');
			for (const entry of entries) lines.push(`| \`${cell(entry.parameter)}\` | ${cell(entry.verdict)} | ${cell(entry.evidence)} |`);
			lines.push('', '</details>', '');
		}
	}
	lines.push('### Other points', '', '| Point | Verdict | Evidence | Where in the code |', '|---|---|---|---|');
	for (const entry of others) lines.push(`| ${cell(entry.id)} | ${cell(entry.verdict)} | ${cell(entry.evidence)} | ${cell(entry.where)} |`);
	lines.push('', 'Where each list parameter\'s reading lives in the code: `probe-report.json` (`where`).', '');
	return lines.join('\n');
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
