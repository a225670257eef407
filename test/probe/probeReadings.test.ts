/**
 * Issue 36: `npm run probe` against the sandbox playing each reading of each list parameter. The probe's verdict
 * must be the reading the sandbox was set to, for every point: a probe that calls everything "honoured" (or that
 * trusts a 200) fails here.
 */
import { DOCUMENTED } from '../../sandbox/core/documented';
import { startSandbox, type StartedSandbox } from '../../sandbox/index';
import { leaks, probeTable, runProbe, type ProbeList, type ProbeRun } from './probeRun';
import { addVariety } from './variety';

const V = '/2025-09';
const READINGS = ['honour', 'ignore', 'reject'] as const;
type Reading = (typeof READINGS)[number];
const VERDICT: Record<Reading, string> = { honour: 'honoured', ignore: 'ignored', reject: 'refused' };
const FAST = ['--rate', '1000/100000'];

/**
 * Points the demo data cannot decide, and why: the probe must say "unknown" there (or "refused", which an error
 * settles whatever the data). Every other point must come out as the reading.
 */
const UNDECIDABLE: Record<string, string> = {
	[`GET ${V}/credit_notes?sort_by`]: 'credit notes carry no updated_at',
	[`GET ${V}/credit_notes?updated_after`]: 'credit notes carry no updated_at',
	[`GET ${V}/product_categories?sort_by`]: 'product categories carry no timestamps',
	[`GET ${V}/product_categories?created_after`]: 'product categories carry no timestamps',
	[`GET ${V}/product_categories?created_before`]: 'product categories carry no timestamps',
	[`GET ${V}/product_categories?updated_after`]: 'product categories carry no timestamps',
};
/** Free-text Expand, no reference on the records: nothing to send. */
const NEVER_ASKED = [`GET ${V}/product_categories?expand`];

const table = probeTable();
const idOf = (list: ProbeList, parameter: string) => `GET ${V}/${list.path}?${parameter}`;

function expected(id: string, parameter: string, reading: Reading): string {
	if (NEVER_ASKED.includes(id)) return 'unknown';
	// `*` leaves page and limit alone (sandbox/core/readings.ts): every list honours them.
	if (parameter === 'page' || parameter === 'limit') return 'honoured';
	if (UNDECIDABLE[id]) return reading === 'reject' ? 'refused' : 'unknown';
	return VERDICT[reading];
}

/** `run`'s list points that differ from `want(id, parameter)`, one line each. */
function mismatches(run: ProbeRun, lists: ProbeList[], want: (list: ProbeList, parameter: string) => string): string[] {
	const wrong: string[] = [];
	for (const list of lists) {
		for (const parameter of list.parameters) {
			const id = idOf(list, parameter);
			const found = run.json.points.find((entry) => entry.id === id);
			const wanted = want(list, parameter);
			if (found?.verdict !== wanted) wrong.push(`${id}: ${found?.verdict ?? 'no point'} (wanted ${wanted}) ${found?.evidence ?? ''}`);
		}
	}
	return wrong;
}

async function configure(sandbox: StartedSandbox, body: Record<string, unknown>) {
	const response = await fetch(`${sandbox.url}/__sandbox/config`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
	expect(response.status).toBe(200);
}

describe('npm run probe: list parameter verdicts', () => {
	let sandbox: StartedSandbox;
	beforeAll(async () => {
		sandbox = await startSandbox({ seed: 'demo' });
		await addVariety(sandbox.url, sandbox.token, table.map((list) => list.path));
	});
	afterAll(async () => await sandbox.close());
	afterEach(async () => await configure(sandbox, { unknown_params: {}, param_readings: {} }));

	it('lists every parameter the node sends, per list', () => {
		expect(table.length).toBe(24);
		expect(table.reduce((sum, list) => sum + list.parameters.length, 0)).toBeGreaterThan(200);
	});

	it('tells honoured, ignored and refused apart on every list, each list playing another reading, three times round', async () => {
		const seen = new Map<string, Set<string>>();
		for (let round = 0; round < READINGS.length; round++) {
			const readingOf = (index: number) => READINGS[(index + round) % READINGS.length];
			await configure(sandbox, { param_readings: Object.fromEntries(table.map((list, index) => [`${V}/${list.path}`, { '*': readingOf(index) }])) });
			const run = await runProbe(sandbox.url, sandbox.token, FAST);
			expect(run.code).toBe(0);
			expect(leaks(run, sandbox.token)).toEqual([]);
			expect(mismatches(run, table, (list, parameter) => expected(idOf(list, parameter), parameter, readingOf(table.indexOf(list))))).toEqual([]);
			for (const entry of run.json.points) {
				if (!entry.id.startsWith(`GET ${V}/`)) continue;
				if (!seen.has(entry.id)) seen.set(entry.id, new Set());
				seen.get(entry.id)!.add(entry.verdict);
			}
			// Each list point says where its reading lives in our code.
			for (const entry of run.json.points.filter((point) => point.id.startsWith(`GET ${V}/`))) expect(entry.where).toMatch(/^nodes\//);
		}
		// The same parameter is honoured under one setting, ignored under another and refused under the third.
		const decidable = [...seen].filter(([id]) => !UNDECIDABLE[id] && !NEVER_ASKED.includes(id) && !/\?(page|limit)$/.test(id) && id.includes('?'));
		expect(decidable.length).toBeGreaterThan(150);
		expect(decidable.filter(([, verdicts]) => verdicts.size !== 3).map(([id, verdicts]) => `${id}: ${[...verdicts].join(', ')}`)).toEqual([]);
	}, 120_000);

	it('settles a documented filter the list ignores or refuses while the rest of the list honours', async () => {
		await configure(sandbox, {
			param_readings: {
				[`${V}/invoices`]: { '*': 'honour', status: 'ignore', due_after: 'reject' },
				[`${V}/units`]: { '*': 'honour', site_id: 'reject', sort_direction: 'ignore' },
				[`${V}/contacts`]: { '*': 'honour', email: 'ignore', 'metadata[]': 'reject', limit: 'ignore' },
			},
		});
		const lists = table.filter((list) => ['invoices', 'units', 'contacts'].includes(list.path));
		const run = await runProbe(sandbox.url, sandbox.token, [...FAST, '--lists', 'invoices,units,contacts']);
		const special: Record<string, string> = {
			[`GET ${V}/invoices?status`]: 'ignored',
			[`GET ${V}/invoices?due_after`]: 'refused',
			[`GET ${V}/units?site_id`]: 'refused',
			[`GET ${V}/units?sort_direction`]: 'ignored',
			[`GET ${V}/contacts?email`]: 'ignored',
			[`GET ${V}/contacts?metadata[]`]: 'refused',
			[`GET ${V}/contacts?limit`]: 'ignored',
		};
		expect(mismatches(run, lists, (list, parameter) => special[idOf(list, parameter)] ?? 'honoured')).toEqual([]);
		expect(run.point(`GET ${V}/invoices?status`).evidence).toMatch(/^\(documented\)/);
		expect(run.point(`GET ${V}/units?site_id`).evidence).toContain('422 invalid_url_param');
		expect(run.point(`GET ${V}/units?site_id`).evidence).toContain('(pointers: "site_id")');
	}, 60_000);

	it('follows the unknown-params mode of single lists: documented parameters honoured, the others refused or ignored', async () => {
		await configure(sandbox, { unknown_params: { [`${V}/deals`]: 'reject', [`${V}/tasks`]: 'ignore' } });
		const lists = table.filter((list) => ['deals', 'tasks'].includes(list.path));
		const run = await runProbe(sandbox.url, sandbox.token, [...FAST, '--lists', 'deals,tasks']);
		const documented = (list: ProbeList, parameter: string) => DOCUMENTED[`GET ${V}/${list.path}`].query.includes(parameter);
		expect(mismatches(run, lists, (list, parameter) => (documented(list, parameter) ? 'honoured' : list.path === 'deals' ? 'refused' : 'ignored'))).toEqual([]);
		expect(run.point(`GET ${V}/deals?status`).evidence).toMatch(/^\(not in the docs\)/);
	}, 60_000);

	it('reports the field names the sandbox renders (the spec names) against the documented ones', async () => {
		const run = await runProbe(sandbox.url, sandbox.token, [...FAST, '--lists', 'contacts,sites,invoices']);
		const state = (await (await fetch(`${sandbox.url}/__sandbox/state/contacts`)).json()) as { contacts: Array<Record<string, unknown>> };
		const specName = state.contacts.some((contact) => 'payments_customer_id' in contact);
		expect(run.point('field name contact.stripe_customer_id').verdict).toBe(specName ? 'spec name' : 'docs name');
		expect(run.point(`fields of GET ${V}/contacts`).evidence).toContain('payments_customer_id (docs: stripe_customer_id)');
		expect(run.point('field name site.directions.google_maps_url').verdict).toBe('spec name');
		expect(run.point(`fields of GET ${V}/invoices`).evidence).toContain('extra: updated_at');
	}, 60_000);

	it('settles the overlock spelling of the units status filter under each reading', async () => {
		const units = (await (await fetch(`${sandbox.url}/__sandbox/state/units`)).json()) as { units: Array<{ status: string }> };
		expect(units.units.some((unit) => unit.status === 'overlocked')).toBe(true);
		for (const reading of READINGS) {
			await configure(sandbox, { param_readings: { [`${V}/units`]: { status: reading } } });
			const run = await runProbe(sandbox.url, sandbox.token, [...FAST, '--lists', 'units']);
			expect([reading, run.point(`GET ${V}/units?status=overlock`).verdict]).toEqual([reading, VERDICT[reading]]);
		}
	}, 60_000);
});
