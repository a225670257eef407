/** The list engine over real HTTP: pagination meta, validation, sorting, filters, windows, metadata, search, CSV. */
import { WIDGET_BASE, WIDGET_NAMES, widgetsModule } from '../core/testing';
import { useSandboxWithClients } from './fixture';

const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();

describe('sandbox list engine', () => {
	const fx = useSandboxWithClients({ modules: [widgetsModule], resetEach: false });
	const names = (body: { widgets: Array<{ name: string }> }) => body.widgets.map((w) => w.name);

	it('defaults to page 1, limit 50, created_at DESC with a stable tie-break', async () => {
		const res = await fx.call('GET', '/2025-09/widgets');
		expect(res.status).toBe(200);
		expect(Object.keys(res.body)).toEqual(['widgets', 'meta']);
		expect(res.body.meta.pagination).toEqual({
			count: 7,
			last: 1,
			limit: 50,
			next: null,
			page: 1,
			pages: 1,
			prev: null,
		});
		// widgets 5 and 6 share created_at: DESC puts the later-inserted one first
		expect(names(res.body)).toEqual([...WIDGET_NAMES].reverse());
		const asc = await fx.call('GET', '/2025-09/widgets?sort_direction=ASC');
		expect(names(asc.body)).toEqual(WIDGET_NAMES);
	});

	it('reports exact pagination meta on first, middle, last, beyond-last pages', async () => {
		const page = async (n: number) =>
			(await fx.call('GET', `/2025-09/widgets?limit=3&page=${n}&sort_direction=ASC`)).body;
		const first = await page(1);
		expect(first.meta.pagination).toEqual({
			count: 7,
			last: 3,
			limit: 3,
			next: 2,
			page: 1,
			pages: 3,
			prev: null,
		});
		expect(names(first)).toEqual(WIDGET_NAMES.slice(0, 3));
		const middle = await page(2);
		expect(middle.meta.pagination).toEqual({
			count: 7,
			last: 3,
			limit: 3,
			next: 3,
			page: 2,
			pages: 3,
			prev: 1,
		});
		expect(names(middle)).toEqual(WIDGET_NAMES.slice(3, 6));
		const last = await page(3);
		expect(last.meta.pagination).toEqual({
			count: 7,
			last: 3,
			limit: 3,
			next: null,
			page: 3,
			pages: 3,
			prev: 2,
		});
		expect(names(last)).toEqual(WIDGET_NAMES.slice(6));
		const beyond = await page(9);
		expect(beyond.widgets).toEqual([]);
		expect(beyond.meta.pagination).toEqual({
			count: 7,
			last: 3,
			limit: 3,
			next: null,
			page: 9,
			pages: 3,
			prev: 3,
		});
	});

	it('gives an empty list one empty page', async () => {
		const res = await fx.call('GET', '/2025-09/widgets?color=red&search=nomatch');
		expect(res.body.widgets).toEqual([]);
		expect(res.body.meta.pagination).toEqual({
			count: 0,
			last: 1,
			limit: 50,
			next: null,
			page: 1,
			pages: 1,
			prev: null,
		});
	});

	it.each([
		['page=0', 'page'],
		['page=-1', 'page'],
		['page=1.5', 'page'],
		['page=abc', 'page'],
		['limit=0', 'limit'],
		['limit=101', 'limit'],
		['limit=ten', 'limit'],
		['sort_by=color', 'sort_by'],
		['sort_direction=UP', 'sort_direction'],
		['color=green', 'color'],
		['created_after=yesterday', 'created_after'],
		['updated_before=2025-13-45T00:00:00Z', 'updated_before'],
	])('rejects %s with 422 invalid_url_param pointing at %s', async (query, pointer) => {
		const res = await fx.call('GET', `/2025-09/widgets?${query}`);
		expect(res.status).toBe(422);
		expect(res.body.error.code).toBe('invalid_url_param');
		expect(res.body.error.details).toEqual([{ message: expect.any(String), pointer }]);
	});

	it('accepts limit 100 and 1, and ignores unknown query parameters', async () => {
		expect((await fx.call('GET', '/2025-09/widgets?limit=100')).body.meta.pagination.limit).toBe(
			100,
		);
		const one = await fx.call('GET', '/2025-09/widgets?limit=1&foo=bar&filter[x]=1');
		expect(one.status).toBe(200);
		expect(one.body.widgets).toHaveLength(1);
		expect(one.body.meta.pagination).toMatchObject({ count: 7, pages: 7, next: 2 });
	});

	it('sorts by another allowed attribute, case-insensitively', async () => {
		const res = await fx.call('GET', '/2025-09/widgets?sort_by=name&sort_direction=asc');
		expect(names(res.body)).toEqual(
			[...WIDGET_NAMES].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())),
		);
	});

	it('filters by comma-separated values, `unspecified` (null) and reference ids', async () => {
		const colors = async (q: string) =>
			(await fx.call('GET', `/2025-09/widgets?${q}&sort_direction=ASC`)).body.widgets.map(
				(w: { color: string | null }) => w.color,
			);
		expect(await colors('color=red')).toEqual(['red', 'red', 'red']);
		expect(await colors('color=red,blue')).toEqual(['red', 'blue', 'red', 'blue', 'red']);
		expect(await colors('color=unspecified')).toEqual([null, null]);
		expect(await colors('color=blue,unspecified')).toEqual(['blue', null, 'blue', null]);
		const gadget = fx.sandbox.core.all('gadgets')[1].id;
		const byGadget = await fx.call('GET', `/2025-09/widgets?gadget_id=${gadget}`);
		expect(byGadget.body.meta.pagination.count).toBe(3);
	});

	it('treats `<x>_after` as inclusive and `<x>_before` as exclusive', async () => {
		const count = async (q: string) =>
			(await fx.call('GET', `/2025-09/widgets?${q}`)).body.meta.pagination.count;
		const day2 = iso(WIDGET_BASE + 2 * DAY);
		expect(await count(`created_after=${day2}`)).toBe(5); // widgets 2..6
		expect(await count(`created_before=${day2}`)).toBe(2); // widgets 0, 1
		expect(await count(`created_after=${day2}&created_before=${iso(WIDGET_BASE + 3 * DAY)}`)).toBe(
			1,
		);
		expect(
			await count(`created_after=${encodeURIComponent('2025-01-03T00:00:00.001+00:00')}`),
		).toBe(4);
		expect(await count('created_before=2025-01-02')).toBe(1);
		expect(await count(`updated_after=${iso(WIDGET_BASE + 5 * DAY + 3_600_000)}`)).toBe(2);
	});

	it('filters by metadata[key]=value', async () => {
		const res = await fx.call('GET', '/2025-09/widgets?metadata[tier]=silver');
		expect(res.body.widgets.map((w: { metadata: { tier: string } }) => w.metadata.tier)).toEqual([
			'silver',
			'silver',
			'silver',
		]);
		expect((await fx.call('GET', '/2025-09/widgets?metadata[missing]=x')).body.widgets).toEqual([]);
	});

	it('searches case-insensitively, every token must match', async () => {
		const search = async (q: string) =>
			names(
				(
					await fx.call(
						'GET',
						`/2025-09/widgets?search=${encodeURIComponent(q)}&sort_direction=ASC`,
					)
				).body,
			);
		expect(await search('FOUR')).toEqual(['Widget four']);
		expect(await search('big widget')).toEqual(['Widget three, "the big one"']);
		expect(await search('widget nothing')).toEqual([]);
	});

	it('renders the list as CSV: header from flattened keys, refs as ids, RFC 4180 quoting', async () => {
		const res = await fx.call('GET', '/2025-09/widgets?sort_direction=ASC&limit=4', {
			headers: { Accept: 'text/csv' },
		});
		expect(res.status).toBe(200);
		expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
		const lines = res.text.trimEnd().split('\r\n');
		expect(lines[0]).toBe('id,name,color,gadget,metadata.tier,created_at,updated_at,name_length');
		expect(lines).toHaveLength(5);
		const widget = fx.sandbox.core.all('widgets')[3];
		expect(lines[4]).toBe(
			`${widget.id},"Widget three, ""the big one""",red,${(widget.gadget as { id: string }).id},silver,${widget.created_at},${widget.updated_at},${String(widget.name).length}`,
		);
	});
});

// The engine keeps the last sorted orders (a walk pages through one unchanged list); each answer must still be the
// order of the records as they are now.
describe('sandbox list engine, records changing between pages', () => {
	const fx = useSandboxWithClients({ modules: [widgetsModule] });
	const byName = async (page = 1) =>
		(
			await fx.call('GET', `/2025-09/widgets?sort_by=name&sort_direction=ASC&limit=3&page=${page}`)
		).body.widgets.map((w: { name: string }) => w.name);
	const sortedNames = () =>
		fx.sandbox.core
			.all('widgets')
			.map((w) => String(w.name))
			.sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1));

	it('follows an update through the store, a record changed in place, an insert and a delete', async () => {
		const firstPage = async () => {
			const names = await byName(1);
			expect(names).toEqual(sortedNames().slice(0, 3));
			return names;
		};
		const before = await firstPage();
		const [first, second] = fx.sandbox.core.all('widgets');
		fx.sandbox.core.update('widgets', first.id, { name: 'aaa renamed' });
		expect(await firstPage()).toContain('aaa renamed');
		// A handler may change a stored record itself (the store hands out the stored object).
		fx.sandbox.core.get('widgets', second.id)!.name = 'AAA changed in place';
		expect((await firstPage()).slice(0, 2)).toEqual(['AAA changed in place', 'aaa renamed']);
		const created = await fx.call('POST', '/2025-09/widgets', { body: { name: '0 created' } });
		expect(created.status).toBe(201);
		expect((await firstPage())[0]).toBe('0 created');
		expect((await fx.call('DELETE', `/2025-09/widgets/${first.id}`)).status).toBe(200);
		expect(await firstPage()).toEqual(['0 created', 'AAA changed in place', before[0]]);
		expect([...(await byName(1)), ...(await byName(2)), ...(await byName(3))]).toEqual(
			sortedNames(),
		);
	});

	it('gives a window on the sort field, both directions, as filtering every record would, also once a record has no time', async () => {
		const stored = () => fx.sandbox.core.all('widgets');
		const grid = [-1, 0, 1, 2, 5, 6].flatMap((day) => [
			WIDGET_BASE + day * DAY,
			WIDGET_BASE + day * DAY + 1,
		]);
		const check = async () => {
			for (const direction of ['ASC', 'DESC']) {
				for (const after of grid) {
					for (const before of grid) {
						const res = await fx.call(
							'GET',
							`/2025-09/widgets?sort_by=created_at&sort_direction=${direction}&created_after=${iso(after)}&created_before=${iso(before)}&limit=100`,
						);
						const inside = stored().filter(
							(w) =>
								w.created_at !== null &&
								Date.parse(String(w.created_at)) >= after &&
								Date.parse(String(w.created_at)) < before,
						);
						const all = (
							await fx.call(
								'GET',
								`/2025-09/widgets?sort_by=created_at&sort_direction=${direction}&limit=100`,
							)
						).body.widgets;
						// The window keeps the order of the whole list.
						const expected = all
							.filter((w: { id: string }) => inside.some((r) => r.id === w.id))
							.map((w: { id: string }) => w.id);
						expect([
							direction,
							iso(after),
							iso(before),
							res.body.widgets.map((w: { id: string }) => w.id),
						]).toEqual([direction, iso(after), iso(before), expected]);
						expect(res.body.meta.pagination.count).toBe(expected.length);
					}
				}
			}
		};
		await check();
		// A stored record without a time (the type says a string; a handler may still leave it empty).
		(fx.sandbox.core.get('widgets', stored()[3].id) as Record<string, unknown>).created_at = null;
		await check();
	});
});
