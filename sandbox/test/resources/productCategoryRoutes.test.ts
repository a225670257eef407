/** Product categories (`/product_categories`) over real HTTP. */
import type { Json } from '../calls';
import { useSandboxWithClients } from '../fixture';

const fx = useSandboxWithClients({
	seed: 'demo',
	resetEach: false,
	client: { redirect: 'follow' },
});

describe('products and categories', () => {
	test('product categories render only id and name', async () => {
		const list = await fx.call('GET', '/2025-09/product_categories');
		expect(list.status).toBe(200);
		expect(list.body.product_categories).toHaveLength(3);
		const category = list.body.product_categories[0] as Json;
		expect(Object.keys(category)).toEqual(['id', 'name']);
		const one = await fx.call('GET', `/2025-09/product_categories/${category.id as string}`);
		expect(one.body.product_category).toEqual(category);
		expect((await fx.call('GET', '/2025-09/product_categories/pcat_nope0000000000')).status).toBe(
			404,
		);
	});
});
