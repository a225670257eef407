/** Products (`/products`) over real HTTP, with the base price of a one-time product. */
import type { Json } from '../calls';
import { useSandboxWithClients } from '../fixture';

const fx = useSandboxWithClients({
	seed: 'demo',
	resetEach: false,
	client: { redirect: 'follow' },
});

describe('products and categories', () => {
	test('list/get products; base price for a one-time product', async () => {
		const list = await fx.call('GET', '/2025-09/products');
		expect(list.status).toBe(200);
		expect(list.body.products).toHaveLength(5);
		const product = (list.body.products as Json[]).find((p) => p.charge_type === 'one_time')!;
		expect(Object.keys(product).sort()).toEqual(
			[
				'accounting_code',
				'category',
				'charge_type',
				'created_at',
				'description',
				'id',
				'name',
				'prices',
				'site',
				'sku',
				'updated_at',
			].sort(),
		);
		expect((list.body.products as Json[]).some((p) => p.charge_type === 'recurring')).toBe(true);
		const set = await fx.call('POST', `/2025-09/products/${product.id as string}/base_price`, {
			body: { one_time: { amount: 1099 } },
		});
		expect(set.status).toBe(200);
		expect(
			(set.body.product.prices as Json[]).map((p) => [p.billing_period, p.price.amount]),
		).toEqual([['one_time', 1099]]);
		const got = await fx.call('GET', `/2025-09/products/${product.id as string}?expand=category`);
		expect(got.body.product.category.name).toBeDefined();
		expect(got.body.product.prices[0].price.amount).toBe(1099);
	});
});
