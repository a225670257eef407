import { locator as rl, runStora } from '../../helpers/n8n';
import { useResourceFixture } from '../../helpers/sandboxFixture';

describe('Stora node: Product Category', () => {
	const fixture = useResourceFixture();
	const { client, credentials } = fixture;

	it('gets many product categories and one category', async () => {
		const categories = await client.state('product_categories');
		const many = await runStora({
			credentials: credentials(),
			parameters: { resource: 'productCategory', operation: 'getAll', limit: 2 },
		});
		// Categories render only id and name; the seed inserts them oldest first, and the list is newest first.
		expect(many.items.map((item) => item.json)).toEqual([...categories].reverse().slice(0, 2));
		expect((await client.requests())[0]).toMatchObject({
			path: '/2025-09/product_categories',
			query: { limit: '2' },
		});
		const one = await runStora({
			credentials: credentials(),
			parameters: {
				resource: 'productCategory',
				operation: 'get',
				productCategoryId: rl(categories[0].id),
			},
		});
		expect(one.items.map((item) => item.json)).toEqual([
			{ id: categories[0].id, name: categories[0].name },
		]);
	});

	it('sends the documented expand as typed paths; Stora answers for a path a category does not have', async () => {
		await client.configure({ unknown_params: 'reject' });
		const plain = await runStora({
			credentials: credentials(),
			parameters: {
				resource: 'productCategory',
				operation: 'getAll',
				limit: 2,
				options: { expand: ' , ' },
			},
		});
		expect(plain.error).toBeUndefined();
		const expanded = await runStora({
			credentials: credentials(),
			parameters: {
				resource: 'productCategory',
				operation: 'getAll',
				limit: 2,
				options: { expand: ' site , ' },
			},
		});
		expect((await client.requests()).map((request) => request.query)).toEqual([
			{ limit: '2' },
			{ limit: '2', expand: 'site' },
		]);
		// expand itself is documented (no "not allowed"); the path is what Stora refuses.
		expect(expanded.error?.message).toMatch(/\[invalid_url_param\]$/);
		expect(expanded.error?.description).toContain(
			"The expand path 'site' is not an expandable reference",
		);
	});

	it('refuses an Expand that is not a list of reference paths before any request, naming the field', async () => {
		for (const expand of ['Plain text', 'site,,contact site', 'site.', '../site']) {
			const result = await runStora({
				credentials: credentials(),
				parameters: {
					resource: 'productCategory',
					operation: 'getAll',
					limit: 2,
					options: { expand },
				},
			});
			expect(result.error?.message).toMatch(/^Expand: .* is not a reference path/);
			expect(result.error?.description).toContain('nothing was sent to Stora');
		}
		expect(await client.requests()).toEqual([]);
	});
});
