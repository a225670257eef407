/**
 * `npm run probe` against the sandbox playing each reading of each list parameter. The probe's verdict
 * must be the reading the sandbox was set to, for every point: a probe that calls everything "honoured" (or that
 * trusts a 200) fails here.
 */
import { DOCUMENTED } from '../../sandbox/core/documented';
import { startSandbox, type StartedSandbox } from '../../sandbox/index';
import {
	expected,
	FAST,
	HONOUR_ONLY,
	idOf,
	mismatches,
	NEVER_ASKED,
	READINGS,
	table,
	UNDECIDABLE,
	VERDICT,
} from './expectations';
import { leaks, runProbe, type ProbeList } from './probeRun';
import { addVariety } from './variety';

const V = '/2025-09';
async function configure(sandbox: StartedSandbox, body: Record<string, unknown>) {
	const response = await fetch(`${sandbox.url}/__sandbox/config`, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json' },
		body: JSON.stringify(body),
	});
	expect(response.status).toBe(200);
}

describe('npm run probe: list parameter verdicts', () => {
	let sandbox: StartedSandbox;
	beforeAll(async () => {
		sandbox = await startSandbox({ seed: 'demo' });
		await addVariety(
			sandbox.url,
			sandbox.token,
			table.map((list) => list.path),
		);
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
			await configure(sandbox, {
				param_readings: Object.fromEntries(
					table.map((list, index) => [`${V}/${list.path}`, { '*': readingOf(index) }]),
				),
			});
			const run = await runProbe(sandbox.url, sandbox.token, FAST);
			expect(run.code).toBe(0);
			expect(leaks(run, sandbox.token)).toEqual([]);
			expect(
				mismatches(run, table, (list, parameter) =>
					expected(idOf(list, parameter), parameter, readingOf(table.indexOf(list))),
				),
			).toEqual([]);
			for (const entry of run.json.points) {
				if (!entry.id.startsWith(`GET ${V}/`)) continue;
				if (!seen.has(entry.id)) seen.set(entry.id, new Set());
				seen.get(entry.id)!.add(entry.verdict);
			}
			// Each list point says where its reading lives in our code.
			for (const entry of run.json.points.filter((point) => point.id.startsWith(`GET ${V}/`)))
				expect(entry.where).toMatch(/^nodes\//);
		}
		// The same parameter is honoured under one setting, ignored under another and refused under the third.
		const decidable = [...seen].filter(
			([id]) =>
				!UNDECIDABLE[id] &&
				!HONOUR_ONLY[id] &&
				!NEVER_ASKED.includes(id) &&
				!/\?(page|limit)$/.test(id) &&
				id.includes('?'),
		);
		expect(decidable.length).toBeGreaterThan(150);
		expect(
			decidable
				.filter(([, verdicts]) => verdicts.size !== 3)
				.map(([id, verdicts]) => `${id}: ${[...verdicts].join(', ')}`),
		).toEqual([]);
	}, 120_000);

	it('settles a documented filter the list ignores or refuses while the rest of the list honours', async () => {
		await configure(sandbox, {
			param_readings: {
				[`${V}/invoices`]: { '*': 'honour', status: 'ignore', due_after: 'reject', page: 'ignore' },
				[`${V}/units`]: {
					'*': 'honour',
					site_id: 'reject',
					sort_direction: 'ignore',
					page: 'reject',
				},
				[`${V}/contacts`]: {
					'*': 'honour',
					email: 'ignore',
					'metadata[]': 'reject',
					limit: 'ignore',
				},
			},
		});
		const lists = table.filter((list) => ['invoices', 'units', 'contacts'].includes(list.path));
		const run = await runProbe(sandbox.url, sandbox.token, [
			...FAST,
			'--lists',
			'invoices,units,contacts',
		]);
		const special: Record<string, string> = {
			[`GET ${V}/invoices?status`]: 'ignored',
			[`GET ${V}/invoices?due_after`]: 'refused',
			[`GET ${V}/invoices?page`]: 'ignored',
			[`GET ${V}/units?page`]: 'refused',
			[`GET ${V}/units?site_id`]: 'refused',
			[`GET ${V}/units?sort_direction`]: 'ignored',
			[`GET ${V}/contacts?email`]: 'ignored',
			[`GET ${V}/contacts?metadata[]`]: 'refused',
			[`GET ${V}/contacts?limit`]: 'ignored',
		};
		expect(
			mismatches(run, lists, (list, parameter) => special[idOf(list, parameter)] ?? 'honoured'),
		).toEqual([]);
		expect(run.point(`GET ${V}/invoices?status`).evidence).toMatch(/^\(documented\)/);
		expect(run.point(`GET ${V}/units?site_id`).evidence).toContain('422 invalid_url_param');
		expect(run.point(`GET ${V}/units?site_id`).evidence).toContain('(pointers: "site_id")');
	}, 60_000);

	it('follows the unknown-params mode of single lists: documented parameters honoured, the others refused or ignored', async () => {
		await configure(sandbox, {
			unknown_params: { [`${V}/deals`]: 'reject', [`${V}/tasks`]: 'ignore' },
		});
		const lists = table.filter((list) => ['deals', 'tasks'].includes(list.path));
		const run = await runProbe(sandbox.url, sandbox.token, [...FAST, '--lists', 'deals,tasks']);
		const documented = (list: ProbeList, parameter: string) =>
			DOCUMENTED[`GET ${V}/${list.path}`].query.includes(parameter);
		expect(
			mismatches(run, lists, (list, parameter) =>
				documented(list, parameter) ? 'honoured' : list.path === 'deals' ? 'refused' : 'ignored',
			),
		).toEqual([]);
		expect(run.point(`GET ${V}/deals?status`).evidence).toMatch(/^\(not in the docs\)/);
	}, 60_000);

	it('reports the field names the sandbox renders (the spec names) against the documented ones', async () => {
		const run = await runProbe(sandbox.url, sandbox.token, [
			...FAST,
			'--lists',
			'contacts,sites,invoices',
		]);
		const state = (await (await fetch(`${sandbox.url}/__sandbox/state/contacts`)).json()) as {
			contacts: Array<Record<string, unknown>>;
		};
		const specName = state.contacts.some((contact) => 'payments_customer_id' in contact);
		expect(run.point('field name contact.stripe_customer_id').verdict).toBe(
			specName ? 'spec name' : 'docs name',
		);
		expect(run.point(`fields of GET ${V}/contacts`).evidence).toContain(
			'payments_customer_id (docs: stripe_customer_id)',
		);
		expect(run.point('field name site.directions.google_maps_url').verdict).toBe('spec name');
		expect(run.point(`fields of GET ${V}/invoices`).evidence).toContain('extra: updated_at');
	}, 60_000);

	it('settles the overlock spelling of the units status filter under each reading', async () => {
		const units = (await (await fetch(`${sandbox.url}/__sandbox/state/units`)).json()) as {
			units: Array<{ status: string }>;
		};
		expect(units.units.some((unit) => unit.status === 'overlocked')).toBe(true);
		for (const reading of READINGS) {
			await configure(sandbox, { param_readings: { [`${V}/units`]: { status: reading } } });
			const run = await runProbe(sandbox.url, sandbox.token, [...FAST, '--lists', 'units']);
			expect([reading, run.point(`GET ${V}/units?status=overlock`).verdict]).toEqual([
				reading,
				VERDICT[reading],
			]);
		}
	}, 60_000);
});
