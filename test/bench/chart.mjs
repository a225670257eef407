// docs/benchmark.png: one bar per goal, the measured ratio against its goal (a marker), green when met. Drawn as SVG
// and turned into a PNG by Debian's Chromium (test/realN8n/setup.sh installs it when missing; driven by playwright-core,
// a dev dependency) or, failing that, ImageMagick's `convert` where the machine has it.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { REPO } from '../realN8n/n8n.mjs';

const esc = (text) =>
	String(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Short labels for the chart (the table has the long ones). */
const LABELS = {
	'1a': '1a Return All, 10/s 60/min: Stora / floor',
	'1b': '1b Return All, 10/s 60/min: Stora / HTTP Request',
	'1c': '1c 429s reaching the user (count)',
	'2a': '2a Return All, no limit, sequential: Stora / bare loop',
	'3a': '3a Updates, 10/s 600/min: Stora / held floor',
	'3b': '3b Updates: Stora / HTTP Request',
	'3f': '3f First update sent after the node started (s)',
	'3c': '3c CPU per update: Stora / HTTP Request',
	'3d': '3d CPU per create, no limit: Stora / HTTP Request',
	'4a': '4a 150,000 records as CSV: Stora / bare loop',
	'4b': '4b Peak memory per record: Stora / HTTP Request',
	'4c': '4c CPU per record: Stora / HTTP Request',
	'5a': '5a Trigger deliveries/s: Stora / Webhook',
	'6b': '6b Tarball size / 300 kB',
};

/** The SVG: a shared 0–2 scale; values beyond it are cut at the edge and written out. */
export function chartSvg(goals, { cores, n8nVersion }) {
	const width = 1000;
	const left = 380;
	const right = 150;
	const top = 70;
	const barH = 28;
	const gap = 16;
	const max = 2;
	const plotW = width - left - right;
	const height = top + goals.length * (barH + gap) + 60;
	const x = (v) => left + (Math.min(Math.max(v, 0), max) / max) * plotW;
	const parts = [
		`<svg xmlns="http://www.w3.org/2000/svg" style="display:block" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="Liberation Sans, Arial, sans-serif">`,
		`<rect width="100%" height="100%" fill="#ffffff"/>`,
		`<text x="20" y="32" font-size="20" font-weight="bold" fill="#222">n8n-nodes-stora benchmark: measured ratio vs goal</text>`,
		`<text x="20" y="54" font-size="13" fill="#555">n8n ${esc(n8nVersion)}, ${cores} cores; bar = median of the repetitions, whisker = their range, black mark = goal; green = met, red = not met</text>`,
	];
	for (let v = 0; v <= max; v += 0.25) {
		parts.push(
			`<line x1="${x(v)}" y1="${top - 6}" x2="${x(v)}" y2="${height - 50}" stroke="${v === 1 ? '#999' : '#e4e4e4'}" stroke-width="1"/>`,
		);
		parts.push(
			`<text x="${x(v)}" y="${height - 32}" font-size="12" fill="#666" text-anchor="middle">${v.toFixed(2)}</text>`,
		);
	}
	goals.forEach((row, i) => {
		const y = top + i * (barH + gap);
		// The median, with the repetitions' range as a whisker.
		let { median: value, min, max: high } = row.ratio ?? {};
		let goal = row.goal.value;
		if (row.id === '6b') {
			value /= row.goal.value;
			min = high = value;
			goal = 1;
		}
		const measured = !Number.isNaN(value) && value !== undefined;
		const colour = row.met ? '#2e9d57' : '#d0413a';
		const goalLabel = `${row.goal.op === '==' ? '=' : row.goal.op === '<=' ? '≤' : row.goal.op === '>=' ? '≥' : '<'} ${row.id === '6b' ? '300 kB' : row.goal.value}`;
		parts.push(
			`<text x="${left - 12}" y="${y + barH / 2 - 2}" font-size="13" fill="#222" text-anchor="end">${esc(LABELS[row.id] ?? `${row.id} ${row.what}`)}</text>`,
		);
		parts.push(
			`<text x="${left - 12}" y="${y + barH / 2 + 13}" font-size="11" fill="#666" text-anchor="end">goal ${esc(goalLabel)}</text>`,
		);
		if (measured) {
			parts.push(
				`<rect x="${left}" y="${y}" width="${Math.max(2, x(value) - left)}" height="${barH}" fill="${colour}" rx="2"/>`,
			);
			if (Number.isFinite(min) && Number.isFinite(high) && high > min) {
				const mid = y + barH / 2;
				parts.push(
					`<line x1="${x(min)}" y1="${mid}" x2="${x(high)}" y2="${mid}" stroke="#333" stroke-width="1.5"/>`,
				);
				for (const end of [min, high])
					parts.push(
						`<line x1="${x(end)}" y1="${mid - 6}" x2="${x(end)}" y2="${mid + 6}" stroke="#333" stroke-width="1.5"/>`,
					);
			}
		}
		parts.push(
			`<line x1="${x(goal)}" y1="${y - 4}" x2="${x(goal)}" y2="${y + barH + 4}" stroke="#111" stroke-width="3"/>`,
		);
		if (measured) {
			// The value right of both the bar and the goal mark, so neither hides it.
			const label = `${row.id === '1c' ? value : value >= 10 ? value.toFixed(1) : value.toFixed(3)}${value > max ? ' (off the scale)' : ''}`;
			parts.push(
				`<text x="${Math.max(x(value), x(goal), x(Number.isFinite(high) ? high : 0)) + 8}" y="${y + barH / 2 + 5}" font-size="13" font-weight="bold" fill="${colour}">${esc(label)}</text>`,
			);
		} else {
			parts.push(
				`<text x="${left + 6}" y="${y + barH / 2 + 5}" font-size="13" fill="#d0413a">not measured (failed)</text>`,
			);
		}
	});
	parts.push('</svg>');
	return { svg: parts.join('\n'), width, height };
}

async function withChromium(html, width, height, out, cleanups) {
	if (!fs.existsSync('/usr/bin/chromium') && !process.env.E2E_CHROMIUM) {
		const setup = spawnSync('bash', [path.join(REPO, 'test/realN8n/setup.sh')], {
			encoding: 'utf8',
		});
		if (setup.status !== 0)
			throw new Error(
				`Chromium is missing and test/realN8n/setup.sh failed: ${(setup.stderr || setup.stdout).trim().split('\n').pop()}`,
			);
	}
	const { launchChromium } = await import('../realN8n/chromium.mjs');
	const chromium = await launchChromium();
	cleanups.push(chromium.stop);
	try {
		const page = await chromium.context.newPage();
		await page.setViewportSize({ width, height });
		await page.setContent(html);
		await page.screenshot({ path: out, clip: { x: 0, y: 0, width, height } });
	} finally {
		const i = cleanups.indexOf(chromium.stop);
		if (i >= 0) cleanups.splice(i, 1);
		await chromium.stop();
	}
}

/** Writes the chart to `out` (PNG). */
export async function renderChart(goals, out, { cores, n8nVersion, cleanups = [] }) {
	const { svg, width, height } = chartSvg(goals, { cores, n8nVersion });
	const html = `<!doctype html><html><body style="margin:0;overflow:hidden"><div style="width:${width}px;height:${height}px">${svg}</div></body></html>`;
	try {
		await withChromium(html, width, height, out, cleanups);
		return 'chromium';
	} catch (error) {
		const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'stora-bench-chart-'));
		try {
			const file = path.join(scratch, 'chart.svg');
			fs.writeFileSync(file, svg);
			const result = spawnSync('convert', [file, out], { encoding: 'utf8' });
			if (result.status !== 0)
				throw new Error(`no Chromium (${error.message}) and no ImageMagick convert`);
			return 'convert';
		} finally {
			fs.rmSync(scratch, { recursive: true, force: true });
		}
	}
}
