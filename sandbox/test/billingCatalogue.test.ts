/**
 * Billing catalogue over real HTTP: sites, unit types, products, product categories, protection levels, coupons,
 * base prices, CSV lists and the image redirect to the files host.
 */
import { useSandboxWithClients, withSandbox } from './fixture';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

// Not JSON (CSV lists): `body` is `{ text }`.
const fx = useSandboxWithClients({ seed: 'demo', resetEach: false, client: { redirect: 'follow', nonJson: (text) => ({ text }) } });

const absolute = (url: string) => (url.startsWith('/') ? `${fx.sandbox.url}${url}` : url);

describe('sites', () => {
	test('list has the seeded sites with the documented fields', async () => {
		const { status, body } = await fx.call('GET', '/2025-09/sites');
		expect(status).toBe(200);
		expect(body.sites).toHaveLength(4);
		expect(body.meta.pagination).toMatchObject({ count: 4, page: 1, pages: 1, next: null, prev: null });
		for (const site of body.sites as Json[]) {
			expect(Object.keys(site).sort()).toEqual(
				['access_hours', 'address', 'created_at', 'description', 'directions', 'id', 'images', 'name', 'opened_at', 'phone', 'updated_at'].sort(),
			);
			expect(site.id).toMatch(/^site_/);
			expect(Object.keys(site.access_hours)).toEqual(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday']);
			expect(Object.keys(site.address).sort()).toEqual(['city', 'line_1', 'line_2', 'postal_code']);
			expect(site.directions.maps_url).toMatch(/^https:\/\//);
		}
		const statuses = (body.sites as Json[]).flatMap((s) => Object.values(s.access_hours as Record<string, Json>).map((d) => d.status));
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
		expect((hit.body.sites as Json[]).map((s) => s.name)).toEqual(['Acme Storage Manchester Central']);
		const words = await fx.call('GET', '/2025-09/sites?search=acme%20bridge');
		expect((words.body.sites as Json[]).map((s) => s.name)).toEqual(['Acme Storage London Bridge']);
		const none = await fx.call('GET', '/2025-09/sites?search=glasgow');
		expect(none.body.sites).toEqual([]);
	});

	test('created window: after inclusive, before exclusive', async () => {
		const all = (await fx.call('GET', '/2025-09/sites?sort_by=created_at&sort_direction=ASC')).body.sites as Json[];
		const bound = encodeURIComponent(all[1].created_at as string);
		const after = (await fx.call('GET', `/2025-09/sites?created_after=${bound}`)).body.sites as Json[];
		expect(after.map((s) => s.id).sort()).toEqual(all.slice(1).map((s) => s.id).sort());
		const before = (await fx.call('GET', `/2025-09/sites?created_before=${bound}`)).body.sites as Json[];
		expect(before.map((s) => s.id)).toEqual([all[0].id]);
		const updated = (await fx.call('GET', `/2025-09/sites?updated_after=${encodeURIComponent('2999-01-01T00:00:00Z')}`)).body.sites;
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
		const csv = await fx.call('GET', '/2025-09/sites?sort_by=name&sort_direction=ASC', { accept: 'text/csv' });
		expect(csv.status).toBe(200);
		expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
		const lines = csv.text.trim().split(/\r\n/);
		expect(lines).toHaveLength(5);
		expect(lines[0].split(',')).toEqual(expect.arrayContaining(['id', 'name', 'address.city', 'access_hours.monday.status']));
		expect(lines[1]).toContain('Acme Storage Bristol Harbourside');
	});
});

describe('images', () => {
	test('site and unit type images redirect to a pre-signed URL on another host', async () => {
		const sites = (await fx.call('GET', '/2025-09/sites')).body.sites as Json[];
		const withImage = sites.find((s) => s.images.default !== null)!;
		expect(sites.some((s) => s.images.default === null)).toBe(true);
		const image = withImage.images.default as Json;
		expect(Object.keys(image).sort()).toEqual(['large', 'medium', 'original', 'small']);
		expect(image.original).toMatch(/\/2025-09\/images\/[A-Za-z0-9_-]+--[0-9a-f]{40}\/site-photo\.png$/);
		// Paths on the API's base URL (absolute once the core exposes its base URL to render hooks).
		expect(absolute(image.original as string).startsWith(`${fx.sandbox.url}/2025-09/images/`)).toBe(true);

		// No bearer token: image URLs are fetched as they are.
		const redirect = await fetch(absolute(image.original as string), { redirect: 'manual' });
		expect(redirect.status).toBe(302);
		const location = redirect.headers.get('location')!;
		expect(new URL(location).origin).toBe(new URL(fx.sandbox.filesUrl).origin);
		expect(new URL(location).origin).not.toBe(new URL(fx.sandbox.url).origin);

		const file = await fetch(location);
		expect(file.status).toBe(200);
		expect(file.headers.get('content-type')).toBe('image/png');
		const bytes = Buffer.from(await file.arrayBuffer());
		expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
		const width = bytes.readUInt32BE(16);

		const small = await fetch(absolute(image.small as string), { redirect: 'manual' });
		const smallBytes = Buffer.from(await (await fetch(small.headers.get('location')!)).arrayBuffer());
		expect(smallBytes.readUInt32BE(16)).toBeLessThan(width);

		const unitTypes = (await fx.call('GET', '/2025-09/unit_types?limit=100')).body.unit_types as Json[];
		const typed = unitTypes.find((t) => t.images.default !== null)!;
		const typeRedirect = await fetch(absolute(typed.images.default.medium as string), { redirect: 'manual' });
		expect(typeRedirect.status).toBe(302);
		expect(typeRedirect.headers.get('location')).toContain('unit-type-photo.png');
	});

	test('forged tokens and wrong file names are 404', async () => {
		const sites = (await fx.call('GET', '/2025-09/sites')).body.sites as Json[];
		const original = absolute(sites.find((s) => s.images.default !== null)!.images.default.original as string);
		const forged = original.replace(/--([0-9a-f])/, (_m, c: string) => `--${c === '0' ? '1' : '0'}`);
		expect((await fetch(forged, { redirect: 'manual' })).status).toBe(404);
		expect((await fetch(original.replace('site-photo.png', 'other.png'), { redirect: 'manual' })).status).toBe(404);
	});
});

describe('unit types', () => {
	test('list and get, with monthly and weekly prices', async () => {
		const { status, body } = await fx.call('GET', '/2025-09/unit_types?limit=100');
		expect(status).toBe(200);
		expect(body.unit_types).toHaveLength(12);
		const type = body.unit_types[0] as Json;
		expect(Object.keys(type).sort()).toEqual(
			[
				'_links', 'created_at', 'dimensions', 'dynamic_pricing', 'id', 'images', 'live_prices', 'name', 'payments_product_id', 'prices',
				'promotion', 'require_insurance_coverage', 'require_security_deposit', 'security_deposit', 'selling_points', 'site', 'size_description',
				'slug', 'status', 'updated_at',
			].sort(),
		);
		expect(type._links['sf:new_order'].href).toMatch(/^\//);
		expect((type.prices as Json[]).map((p) => p.billing_period)).toEqual(['monthly', 'weekly']);
		expect(type.prices[0].price).toMatchObject({ currency: 'GBP' });
		expect(type.prices[0].payments_price_id).toMatch(/^price_/);
		expect((body.unit_types as Json[]).some((t) => t.promotion !== null)).toBe(true);

		const one = await fx.call('GET', `/2025-09/unit_types/${type.id as string}?expand=site`);
		expect(one.status).toBe(200);
		expect(one.body.unit_type.site.name).toMatch(/^Acme Storage/);
	});

	test('set base price: one entry per period set, unknown period 422', async () => {
		const type = ((await fx.call('GET', '/2025-09/unit_types')).body.unit_types as Json[])[0];
		const set = await fx.call('POST', `/2025-09/unit_types/${type.id as string}/base_price`, {
			body: { monthly: { amount: 12345 }, weekly: { amount: 3000 }, yearly: { amount: 120000 } },
		});
		expect(set.status).toBe(200);
		const prices = set.body.unit_type.prices as Json[];
		expect(prices.map((p) => [p.billing_period, p.price.amount])).toEqual([
			['monthly', 12345],
			['weekly', 3000],
			['yearly', 120000],
		]);
		expect(prices[0].price.formatted).toBe('£123.45');
		const again = await fx.call('GET', `/2025-09/unit_types/${type.id as string}`);
		expect(again.body.unit_type.prices).toEqual(prices);

		const unknown = await fx.call('POST', `/2025-09/unit_types/${type.id as string}/base_price`, { body: { daily: { amount: 100 } } });
		expect(unknown.status).toBe(422);
		expect(unknown.body.error.code).toBe('invalid_content');
		expect(unknown.body.error.details[0].pointer).toBe('/daily');

		const fraction = await fx.call('POST', `/2025-09/unit_types/${type.id as string}/base_price`, { body: { monthly: { amount: 12.5 } } });
		expect(fraction.status).toBe(422);
		expect(fraction.body.error.details[0].pointer).toBe('/monthly/amount');

		const empty = await fx.call('POST', `/2025-09/unit_types/${type.id as string}/base_price`, { body: {} });
		expect(empty.status).toBe(422);

		const missing = await fx.call('POST', '/2025-09/unit_types/utype_doesnotexist0/base_price', { body: { monthly: { amount: 1 } } });
		expect(missing.status).toBe(404);

		const readOnly = await fx.control.token(['public.unit_type:read']);
		const denied = await fx.call('POST', `/2025-09/unit_types/${type.id as string}/base_price`, { body: { monthly: { amount: 1 } }, token: readOnly });
		expect(denied.status).toBe(403);
		expect(denied.body.error.message).toContain('public.unit_type:write');
	});
});

describe('products and categories', () => {
	test('list/get products; base price for a one-time product', async () => {
		const list = await fx.call('GET', '/2025-09/products');
		expect(list.status).toBe(200);
		expect(list.body.products).toHaveLength(5);
		const product = (list.body.products as Json[]).find((p) => p.charge_type === 'one_time')!;
		expect(Object.keys(product).sort()).toEqual(
			['accounting_code', 'category', 'charge_type', 'created_at', 'description', 'id', 'name', 'prices', 'site', 'sku', 'updated_at'].sort(),
		);
		expect((list.body.products as Json[]).some((p) => p.charge_type === 'recurring')).toBe(true);
		const set = await fx.call('POST', `/2025-09/products/${product.id as string}/base_price`, { body: { one_time: { amount: 1099 } } });
		expect(set.status).toBe(200);
		expect((set.body.product.prices as Json[]).map((p) => [p.billing_period, p.price.amount])).toEqual([['one_time', 1099]]);
		const got = await fx.call('GET', `/2025-09/products/${product.id as string}?expand=category`);
		expect(got.body.product.category.name).toBeDefined();
		expect(got.body.product.prices[0].price.amount).toBe(1099);
	});

	test('product categories render only id and name', async () => {
		const list = await fx.call('GET', '/2025-09/product_categories');
		expect(list.status).toBe(200);
		expect(list.body.product_categories).toHaveLength(3);
		const category = list.body.product_categories[0] as Json;
		expect(Object.keys(category)).toEqual(['id', 'name']);
		const one = await fx.call('GET', `/2025-09/product_categories/${category.id as string}`);
		expect(one.body.product_category).toEqual(category);
		expect((await fx.call('GET', '/2025-09/product_categories/pcat_nope0000000000')).status).toBe(404);
	});
});

describe('protection levels', () => {
	test('list/get and base price keeps other periods', async () => {
		const list = await fx.call('GET', '/2025-09/protection_levels?sort_direction=ASC');
		expect(list.status).toBe(200);
		const levels = list.body.protection_levels as Json[];
		expect(levels).toHaveLength(3);
		expect(Object.keys(levels[0]).sort()).toEqual(
			['account_code', 'cover_level', 'created_at', 'id', 'payments_product_id', 'prices', 'public', 'updated_at'].sort(),
		);
		expect(levels[0].cover_level.amount).toBe(100000);
		const set = await fx.call('POST', `/2025-09/protection_levels/${levels[0].id as string}/base_price`, { body: { monthly: { amount: 650 } } });
		expect(set.status).toBe(200);
		expect((set.body.protection_level.prices as Json[]).map((p) => [p.billing_period, p.price.amount])).toEqual([
			['monthly', 650],
			['weekly', levels[0].prices[1].price.amount],
		]);
		const one = await fx.call('GET', `/2025-09/protection_levels/${levels[0].id as string}`);
		expect(one.body.protection_level.prices[0].price.amount).toBe(650);
	});
});

describe('coupons', () => {
	test('percentage and amount coupons, sorts and windows', async () => {
		const list = await fx.call('GET', '/2025-09/coupons?sort_by=created_at&sort_direction=ASC');
		expect(list.status).toBe(200);
		const coupons = list.body.coupons as Json[];
		expect(coupons).toHaveLength(3);
		const percentage = coupons.find((c) => c.type === 'percentage')!;
		const amount = coupons.find((c) => c.type === 'amount')!;
		expect(percentage.percent).toBeGreaterThan(0);
		expect(percentage).not.toHaveProperty('amount');
		expect(amount.amount).toMatchObject({ amount: 1000, currency: 'GBP' });
		expect(amount).not.toHaveProperty('percent');
		expect(Object.keys(percentage.auto_apply_to).sort()).toEqual(['products', 'protections', 'subscriptions', 'unit_types']);

		const byUpdated = (await fx.call('GET', '/2025-09/coupons?sort_by=updated_at&sort_direction=DESC')).body.coupons as Json[];
		const updated = byUpdated.map((c) => Date.parse(c.updated_at as string));
		expect(updated).toEqual([...updated].sort((a, b) => b - a));

		const bound = encodeURIComponent(coupons[1].created_at as string);
		const after = (await fx.call('GET', `/2025-09/coupons?created_after=${bound}`)).body.coupons as Json[];
		expect(after).toHaveLength(2);

		const one = await fx.call('GET', `/2025-09/coupons/${amount.id as string}`);
		expect(one.body.coupon).toEqual(amount);
	});
});

describe('other seeds', () => {
	test("the 'empty' seed has no billing records", async () => {
		await withSandbox({ seed: 'empty' }, async (empty) => {
			for (const path of ['sites', 'unit_types', 'units', 'orders', 'invoices', 'subscriptions', 'coupons', 'products']) {
				const response = await fetch(`${empty.url}/2025-09/${path}`, { headers: { Authorization: `Bearer ${empty.token}` } });
				const body = (await response.json()) as Json;
				expect(body.meta.pagination.count).toBe(0);
			}
		});
	});

	test('without CRM contacts the demo seed skips contact-dependent records but still has 260+ orders', async () => {
		const [{ modules: inventory }, { modules: billing }] = await Promise.all([import('../resources/inventory'), import('../resources/billing')]);
		await withSandbox({ seed: 'demo', modules: [...inventory, ...billing] }, async (alone) => {
			const get = async (path: string) =>
				(await (await fetch(`${alone.url}/2025-09/${path}`, { headers: { Authorization: `Bearer ${alone.token}` } })).json()) as Json;
			expect((await get('sites')).sites).toHaveLength(4);
			expect((await get('tenancies')).meta.pagination.count).toBe(0);
			expect((await get('invoices')).meta.pagination.count).toBe(0);
			expect((await get('units?status=occupied')).meta.pagination.count).toBe(0);
			const orders = await get('orders?limit=100');
			expect(orders.meta.pagination.count).toBeGreaterThanOrEqual(260);
			expect((orders.orders as Json[]).every((o) => o.contact === null)).toBe(true);
		});
	});
});
