/** Sites (`/sites`) over real HTTP: documented fields, sorts, search, windows, get, CSV. */
import type { Json } from '../calls';
import { useSandboxWithClients } from '../fixture';

// Not JSON (CSV lists): `body` is `{ text }`.
const fx = useSandboxWithClients({
	seed: 'demo',
	resetEach: false,
	client: { redirect: 'follow', nonJson: (text) => ({ text }) },
});

describe('sites', () => {
	test('list has the seeded sites with the documented fields', async () => {
		const { status, body } = await fx.call('GET', '/2025-09/sites');
		expect(status).toBe(200);
		expect(body.sites).toHaveLength(4);
		expect(body.meta.pagination).toMatchObject({
			count: 4,
			page: 1,
			pages: 1,
			next: null,
			prev: null,
		});
		for (const site of body.sites as Json[]) {
			expect(Object.keys(site).sort()).toEqual(
				[
					'access_hours',
					'address',
					'created_at',
					'description',
					'directions',
					'id',
					'images',
					'name',
					'opened_at',
					'phone',
					'updated_at',
				].sort(),
			);
			expect(site.id).toMatch(/^site_/);
			expect(Object.keys(site.access_hours)).toEqual([
				'monday',
				'tuesday',
				'wednesday',
				'thursday',
				'friday',
				'saturday',
				'sunday',
			]);
			expect(Object.keys(site.address).sort()).toEqual(['city', 'line_1', 'line_2', 'postal_code']);
			expect(site.directions.maps_url).toMatch(/^https:\/\//);
		}
		const statuses = (body.sites as Json[]).flatMap((s) =>
			Object.values(s.access_hours as Record<string, Json>).map((d) => d.status),
		);
		expect(statuses).toEqual(expect.arrayContaining(['set_hours', 'closed', 'twenty_four_hours']));
		const setHours = (body.sites as Json[])
			.flatMap((s) => Object.values(s.access_hours as Record<string, Json>))
			.find((d) => d.status === 'set_hours')!;
		expect(setHours.open).toMatch(/^\d{2}:\d{2}$/);
		expect(setHours.close).toMatch(/^\d{2}:\d{2}$/);
	});

	test('sort by name, both directions', async () => {
		const asc = await fx.call('GET', '/2025-09/sites?sort_by=name&sort_direction=ASC');
		const names = (asc.body.sites as Json[]).map((s) => s.name as string);
		expect(names).toEqual([...names].sort());
		const desc = await fx.call('GET', '/2025-09/sites?sort_by=name&sort_direction=DESC');
		expect((desc.body.sites as Json[]).map((s) => s.name)).toEqual([...names].reverse());
		const bad = await fx.call('GET', '/2025-09/sites?sort_by=due_date');
		expect(bad.status).toBe(422);
		expect(bad.body.error.code).toBe('invalid_url_param');
	});

	test('fuzzy name search', async () => {
		const hit = await fx.call('GET', '/2025-09/sites?search=manchester');
		expect((hit.body.sites as Json[]).map((s) => s.name)).toEqual([
			'Acme Storage Manchester Central',
		]);
		const words = await fx.call('GET', '/2025-09/sites?search=acme%20bridge');
		expect((words.body.sites as Json[]).map((s) => s.name)).toEqual(['Acme Storage London Bridge']);
		const none = await fx.call('GET', '/2025-09/sites?search=glasgow');
		expect(none.body.sites).toEqual([]);
	});

	test('created window: after inclusive, before exclusive', async () => {
		const all = (await fx.call('GET', '/2025-09/sites?sort_by=created_at&sort_direction=ASC')).body
			.sites as Json[];
		const bound = encodeURIComponent(all[1].created_at as string);
		const after = (await fx.call('GET', `/2025-09/sites?created_after=${bound}`)).body
			.sites as Json[];
		expect(after.map((s) => s.id).sort()).toEqual(
			all
				.slice(1)
				.map((s) => s.id)
				.sort(),
		);
		const before = (await fx.call('GET', `/2025-09/sites?created_before=${bound}`)).body
			.sites as Json[];
		expect(before.map((s) => s.id)).toEqual([all[0].id]);
		const updated = (
			await fx.call(
				'GET',
				`/2025-09/sites?updated_after=${encodeURIComponent('2999-01-01T00:00:00Z')}`,
			)
		).body.sites;
		expect(updated).toEqual([]);
	});

	test('get one site, 404 for an unknown one', async () => {
		const list = (await fx.call('GET', '/2025-09/sites')).body.sites as Json[];
		const one = await fx.call('GET', `/2025-09/sites/${list[0].id as string}`);
		expect(one.status).toBe(200);
		expect(one.body.site).toEqual(list[0]);
		const missing = await fx.call('GET', '/2025-09/sites/site_doesnotexist00');
		expect(missing.status).toBe(404);
		expect(missing.body.error.code).toBe('resource_not_found');
	});

	test('CSV list', async () => {
		const csv = await fx.call('GET', '/2025-09/sites?sort_by=name&sort_direction=ASC', {
			accept: 'text/csv',
		});
		expect(csv.status).toBe(200);
		expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
		const lines = csv.text.trim().split(/\r\n/);
		expect(lines).toHaveLength(5);
		expect(lines[0].split(',')).toEqual(
			expect.arrayContaining(['id', 'name', 'address.city', 'access_hours.monday.status']),
		);
		expect(lines[1]).toContain('Acme Storage Bristol Harbourside');
	});
});
