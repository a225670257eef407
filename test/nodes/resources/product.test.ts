import type { INodeParameters } from 'n8n-workflow';

import { searchBilling } from '../../helpers/loadOptions';
import { locator as rl, runStora } from '../../helpers/n8n';
import { amounts, newestFirst } from '../../helpers/records';
import type { StateRecord } from '../../../sandbox/client';
import { useResourceFixture } from '../../helpers/sandboxFixture';

describe('Stora node: Product', () => {
	const fixture = useResourceFixture();
	const { client, credentials } = fixture;

	it('gets many products and one product', async () => {
		const products = await client.state('products');
		const many = await runStora({
			credentials: credentials(),
			parameters: { resource: 'product', operation: 'getAll', returnAll: true },
		});
		expect(many.items.map((item) => item.json)).toEqual([...products].sort(newestFirst));
		await client.clearRequests();
		const one = await runStora({
			credentials: credentials(),
			parameters: {
				resource: 'product',
				operation: 'get',
				productId: rl(products[2].id),
				simplify: true,
			},
		});
		expect(one.items[0].json).toEqual({
			id: products[2].id,
			name: products[2].name,
			sku: products[2].sku,
			category: products[2].category,
			charge_type: products[2].charge_type,
			prices: products[2].prices,
			site: products[2].site,
		});
		expect((await client.requests())[0].path).toBe(`/2025-09/products/${products[2].id}`);
	});

	it('sets base prices per billing period and keeps the other periods', async () => {
		const product = (await client.state('products')).find(
			(record) => record.charge_type === 'one_time',
		)!;
		const before = amounts(product);
		const result = await runStora({
			credentials: credentials(),
			parameters: {
				resource: 'product',
				operation: 'setBasePrice',
				productId: rl(product.id),
				basePrices: {
					price: [
						{ billingPeriod: 'monthly', amount: 1250 },
						{ billingPeriod: 'weekly', amount: 300 },
					],
				},
				options: { expand: ['category'] },
			},
		});
		expect(result.error).toBeUndefined();
		const requests = await client.requests();
		expect(requests).toHaveLength(1);
		expect(requests[0]).toMatchObject({
			method: 'POST',
			path: `/2025-09/products/${product.id}/base_price`,
			query: { expand: 'category' },
		});
		expect(requests[0].body).toEqual({ monthly: { amount: 1250 }, weekly: { amount: 300 } });
		const updated = (await client.state('products')).find((record) => record.id === product.id)!;
		expect(amounts(updated)).toEqual({ ...before, monthly: 1250, weekly: 300 });
		expect(result.items[0].json.prices).toEqual(updated.prices);
		expect((result.items[0].json.category as StateRecord).name).toBeDefined();
	});

	it('checks the base price rows before any request', async () => {
		const [product] = await client.state('products');
		const cases: Array<[Array<Record<string, unknown>>, string]> = [
			[[], 'Base Prices: add at least one price'],
			[
				[
					{ billingPeriod: 'monthly', amount: 100 },
					{ billingPeriod: 'monthly', amount: 200 },
				],
				'Base Prices: monthly is given twice',
			],
			[
				[{ billingPeriod: 'weekly', amount: 12.5 }],
				'Base Prices: 12.5 is not a valid weekly amount',
			],
			[[{ billingPeriod: 'yearly', amount: -1 }], 'Base Prices: -1 is not a valid yearly amount'],
		];
		for (const [price, message] of cases) {
			const result = await runStora({
				credentials: credentials(),
				parameters: {
					resource: 'product',
					operation: 'setBasePrice',
					productId: rl(product.id),
					basePrices: { price: price as INodeParameters[] },
				},
			});
			expect(result.error?.message).toBe(message);
		}
		expect(await client.requests()).toEqual([]);
	});

	it('lists products for the picker', async () => {
		const products = await client.state('products');
		const found = await searchBilling(credentials(), 'searchProducts', 'padlock');
		const padlock = products.find((product) => String(product.name).includes('padlock'))!;
		expect(found.results).toEqual([{ name: padlock.name, value: padlock.id, url: undefined }]);
	});
});
