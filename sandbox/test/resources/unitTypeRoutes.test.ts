/** Unit types (`/unit_types`) over real HTTP: list, get, prices and setting the base price. */
import type { Json } from '../calls';
import { useSandboxWithClients } from '../fixture';

const fx = useSandboxWithClients({
	seed: 'demo',
	resetEach: false,
	client: { redirect: 'follow' },
});

describe('unit types', () => {
	test('list and get, with monthly and weekly prices', async () => {
		const { status, body } = await fx.call('GET', '/2025-09/unit_types?limit=100');
		expect(status).toBe(200);
		expect(body.unit_types).toHaveLength(12);
		const type = body.unit_types[0] as Json;
		expect(Object.keys(type).sort()).toEqual(
			[
				'_links',
				'created_at',
				'dimensions',
				'dynamic_pricing',
				'id',
				'images',
				'live_prices',
				'name',
				'payments_product_id',
				'prices',
				'promotion',
				'require_insurance_coverage',
				'require_security_deposit',
				'security_deposit',
				'selling_points',
				'site',
				'size_description',
				'slug',
				'status',
				'updated_at',
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

		const unknown = await fx.call('POST', `/2025-09/unit_types/${type.id as string}/base_price`, {
			body: { daily: { amount: 100 } },
		});
		expect(unknown.status).toBe(422);
		expect(unknown.body.error.code).toBe('invalid_content');
		expect(unknown.body.error.details[0].pointer).toBe('/daily');

		const fraction = await fx.call('POST', `/2025-09/unit_types/${type.id as string}/base_price`, {
			body: { monthly: { amount: 12.5 } },
		});
		expect(fraction.status).toBe(422);
		expect(fraction.body.error.details[0].pointer).toBe('/monthly/amount');

		const empty = await fx.call('POST', `/2025-09/unit_types/${type.id as string}/base_price`, {
			body: {},
		});
		expect(empty.status).toBe(422);

		const missing = await fx.call('POST', '/2025-09/unit_types/utype_doesnotexist0/base_price', {
			body: { monthly: { amount: 1 } },
		});
		expect(missing.status).toBe(404);

		const readOnly = await fx.control.token(['public.unit_type:read']);
		const denied = await fx.call('POST', `/2025-09/unit_types/${type.id as string}/base_price`, {
			body: { monthly: { amount: 1 } },
			token: readOnly,
		});
		expect(denied.status).toBe(403);
		expect(denied.body.error.message).toContain('public.unit_type:write');
	});
});
