/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- test under test/, never published */
/**
 * The report a user pastes into an issue is one page (at most 40 lines and 9,000 characters of Markdown):
 * each point with its verdict, the evidence and what the package does about that verdict, naming the one place the
 * package keeps its reading in a user's words (no file path); every point in full stays in probe-report.json, and the
 * token appears nowhere.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { startSandbox, type StartedSandbox } from '../../sandbox/index';
import { FAST, table, V } from './expectations';
import { control, freePort, leaks, ROOT, runProbe, type ProbeRun } from './probeRun';
import { addVariety } from './variety';

const ONE_PAGE = { lines: 40, characters: 9000 };

/** The report's table rows: point, verdict, evidence, what the package does. */
function rowsOf(md: string): string[][] {
	return md
		.split('\n')
		.filter((line) => line.startsWith('| ') && !line.startsWith('| Point |'))
		.map((line) => line.slice(2, -2).split(/ (?<!\\)\| /));
}

function expectOnePage(run: ProbeRun) {
	expect(run.md.trimEnd().split('\n').length).toBeLessThanOrEqual(ONE_PAGE.lines);
	expect(run.md.length).toBeLessThanOrEqual(ONE_PAGE.characters);
	const rows = rowsOf(run.md);
	expect(rows.length).toBeGreaterThan(5);
	for (const row of rows) {
		expect(row).toHaveLength(4);
		for (const cell of row) expect(cell.trim()).not.toBe('');
		// Where the package keeps a reading, in words: never a file path.
		expect(row[3]).not.toMatch(/\.(ts|mjs|js)\b|nodes\//);
	}
	return rows;
}

const row = (rows: string[][], label: string) => rows.find((entry) => entry[0] === label)!;
const count = (run: ProbeRun, test: (id: string) => boolean, verdict: string) =>
	run.json.points.filter((entry) => test(entry.id) && entry.verdict === verdict).length;
const isFilter = (id: string) =>
	/^GET \/2025-09\/[^?]+\?[^=]+$/.test(id) &&
	!/\?(page|limit|sort_by|sort_direction|expand|\w+_(after|before))$/.test(id);

describe('npm run probe: the one-page report', () => {
	let sandbox: StartedSandbox;
	beforeAll(async () => {
		sandbox = await startSandbox({ seed: 'demo', allowHttpWebhooks: true });
		await addVariety(
			sandbox.url,
			sandbox.token,
			table.map((list) => list.path),
		);
	});
	afterAll(async () => await sandbox.close());
	afterEach(async () => {
		await control(sandbox, 'POST', '/config', { noise: {}, param_readings: {} });
		await control(sandbox, 'DELETE', '/faults');
	});

	it('gives each point its verdicts, evidence and what the package does about them, in one page, with --write', async () => {
		const readings = ['honour', 'ignore', 'reject'];
		await control(sandbox, 'POST', '/config', {
			param_readings: Object.fromEntries(
				table.map((list, index) => [`${V}/${list.path}`, { '*': readings[index % 3] }]),
			),
		});
		const port = await freePort();
		const run = await runProbe(sandbox.url, sandbox.token, [
			...FAST,
			'--write',
			'--yes',
			'--webhook-url',
			`http://127.0.0.1:${port}/hooks`,
			'--listen',
			String(port),
			'--webhook-wait',
			'10',
		]);
		expect(run.code).toBe(0);
		const rows = expectOnePage(run);
		expect(run.stdout.trimEnd()).toBe(run.md.trimEnd());
		// The figures in a row are the JSON's.
		const filters = row(rows, 'List filters');
		for (const verdict of ['honoured', 'ignored', 'refused'])
			expect(filters[1]).toContain(`${verdict} ${count(run, isFilter, verdict)}`);
		// What the package does follows each verdict the row holds, and names where the reading is kept.
		expect(filters[3]).toContain('Ignored: Get Many stops with "Stora did not apply the filter …"');
		expect(filters[3]).toContain("Refused: Stora's 422 is shown naming the node's parameter.");
		expect(filters[3]).toContain("Kept in one place: the node's filter checks.");
		// The exceptions are named with their evidence.
		expect(filters[2]).toMatch(/ignored: [a-z_/]+\?\w+/);
		expect(row(rows, 'Sort (sort_by, sort_direction)')[3]).toContain(
			'Ignored: Get Many and Return All give the records in the order the list returns them',
		);
		expect(row(rows, 'Webhook signature (t, v1)')[1]).toBe('seconds 1, hex 1');
		expect(row(rows, 'Idempotency replay, create status')[3]).toContain(
			'Replayed: a POST the node retries after a timeout returns the first record',
		);
		expect(row(rows, 'Deleting a webhook endpoint')[3]).toContain(
			'Exists: deactivating a Stora Trigger removes its endpoint.',
		);
		expect(row(rows, 'Not asked in this run')[2]).toContain('oauth2 consent page host');
		// Every point is in the JSON, with the file holding the node's reading.
		expect(run.json.points.length).toBeGreaterThan(300);
		expect(run.md).toContain(`- ${run.json.points.length} points: `);
		expect(leaks(run, sandbox.token)).toEqual([]);
	}, 90_000);

	it('stays one page when other clients write, a 429 comes and the writes leave records behind', async () => {
		await control(sandbox, 'POST', '/config', {
			noise: { writer: { every: 2 }, contention: { every: 100, times: 1 } },
		});
		await control(sandbox, 'POST', '/faults', {
			match: { method: 'DELETE' },
			responses: [{ status: 500 }, { status: 500 }],
		});
		const run = await runProbe(sandbox.url, sandbox.token, [...FAST, '--write', '--yes']);
		expect(run.code).toBe(0);
		const rows = expectOnePage(run);
		expect(run.md).toContain('Left on the account (remove by hand)');
		expect(row(rows, 'List filters')[2]).toMatch(
			/unknown: \d+ other clients wrote meanwhile \(a quieter time decides\)/,
		);
		expect(run.json.probe.rate_limited).toBeGreaterThan(0);
		expect(row(rows, 'Time windows (…_after, …_before)')[3]).toMatch(/^(Honoured|Unknown): /);
		for (const id of (await control(sandbox, 'GET', '/state/contacts')).contacts
			.filter((contact) => String(contact.email).startsWith('stora-probe-'))
			.map((contact) => contact.id)) {
			await control(sandbox, 'DELETE', `/state/contacts/${String(id)}`);
		}
		expect(leaks(run, sandbox.token)).toEqual([]);
	}, 90_000);

	it('says where a bound is not as the docs read it and the node checks it, and what follows', async () => {
		await control(sandbox, 'POST', '/config', {
			noise: { bounds: { [`${V}/contacts`]: { before: 'inclusive', after: 'exclusive' } } },
		});
		const run = await runProbe(sandbox.url, sandbox.token, [...FAST, '--lists', 'contacts']);
		const windows = row(expectOnePage(run), 'Time windows (…_after, …_before)');
		expect(windows[3]).toMatch(
			/Bound not as the docs say on contacts\?created_after, contacts\?created_before, .*: a record exactly at it stops Get Many; please report it\./,
		);
	}, 60_000);

	it('cuts the evidence, and says so, where the points would not fit one page', () => {
		const url = pathToFileURL(path.join(ROOT, 'scripts/probe/report.mjs')).href;
		const script = `
			const { markdown } = await import(${JSON.stringify(url)});
			const points = [];
			for (let i = 0; i < 400; i++) points.push({ id: 'GET /2025-09/list' + i + '?status', verdict: ['honoured', 'ignored', 'refused', 'unknown', 'odd' + i][i % 5], evidence: 'x'.repeat(900), where: 'nodes/x.ts' });
			const run = { package_version: '0', started_at: 'a', finished_at: 'b', base_url: 'https://example.com', requests: 1, rate_limited: 0, pacing: { per_second: 3, per_minute: 20, budget_share: 0.33 }, sample_size: 10, scope_form: 'array', scopes: [], leftovers: ['contact con_1 (DELETE answered 500): DELETE /2025-09/contacts/con_1'] };
			process.stdout.write(markdown(run, points));`;
		const md = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
			encoding: 'utf8',
		});
		expect(md.split('\n').length).toBeLessThanOrEqual(ONE_PAGE.lines);
		expect(md.length).toBeLessThanOrEqual(ONE_PAGE.characters);
		expect(md).toMatch(/Evidence cut to \d+ characters a row to fit one page\./);
		expect(md).toContain('400 points: ');
	});
});
