import type { INodeListSearchResult, INodeParameters } from 'n8n-workflow';

import * as listSearch from '../../nodes/Stora/methods/listSearch/billing';
import { Stora } from '../../nodes/Stora/Stora.node';
import { loadOptionsContext } from '../helpers/loadOptions';
import { locator as rl, runStora, tokenCredentials } from '../helpers/n8n';
import { SandboxClient, type StateRecord } from '../../sandbox/client';
import { useSandboxForNode, type StartedSandbox } from '../helpers/sandboxFixture';

type Price = { billing_period: string; price: { amount: number } };

const time = (value: unknown) => Date.parse(String(value));
const newestFirst = (a: StateRecord, b: StateRecord) => time(b.created_at) - time(a.created_at);
const amounts = (record: unknown) =>
	Object.fromEntries(((record as { prices: Price[] }).prices ?? []).map((p) => [p.billing_period, p.price.amount]));

describe('Stora node: billing catalogue (Coupon, Product, Product Category, Protection Level, Subscription)', () => {
	const fixture = useSandboxForNode();
	let sandbox: StartedSandbox;
	let client: SandboxClient;
	beforeEach(() => ({ sandbox, client } = fixture));

	const credentials = () => tokenCredentials(sandbox.url, sandbox.token);

	/** Runs a list search of the node the way n8n's editor does, in n8n-core's real load-options context. */
	async function search(method: keyof typeof listSearch, filter?: string, page?: string): Promise<INodeListSearchResult> {
		const context = loadOptionsContext(credentials(), { resource: 'order', operation: 'get' }, 'parameters.orderId');
		return await listSearch[method].call(context, filter, page);
	}

	describe('Coupon', () => {
		it('gets many coupons sorted by update time within a window', async () => {
			const coupons = await client.state('coupons');
			const result = await runStora({
				credentials: credentials(),
				parameters: {
					resource: 'coupon',
					operation: 'getAll',
					limit: 10,
					filters: { updatedAfter: '2000-01-01T00:00:00.000Z', createdBefore: '2100-01-01T00:00:00.000Z' },
					options: { sortBy: 'updated_at', sortDirection: 'ASC' },
				},
			});
			expect(result.error).toBeUndefined();
			expect(await client.requests()).toMatchObject([
				{
					method: 'GET',
					path: '/2025-09/coupons',
					query: {
						limit: '10',
						updated_after: '2000-01-01T00:00:00.000Z',
						created_before: '2100-01-01T00:00:00.000Z',
						sort_by: 'updated_at',
						sort_direction: 'ASC',
					},
				},
			]);
			expect(result.items.map((item) => item.json)).toEqual(
				[...coupons].sort((a, b) => time(a.updated_at) - time(b.updated_at)),
			);
		});

		it('gets a coupon picked from the list', async () => {
			const [, coupon] = await client.state('coupons');
			const result = await runStora({
				credentials: credentials(),
				parameters: { resource: 'coupon', operation: 'get', couponId: rl(coupon.id, 'list') },
			});
			expect(result.items.map((item) => item.json)).toEqual([coupon]);
			expect((await client.requests())[0].path).toBe(`/2025-09/coupons/${coupon.id}`);
		});

		it('lists coupons for the picker, searchable by name or code', async () => {
			const coupons = await client.state('coupons');
			const all = await search('searchCoupons');
			expect(all.results.map((result) => result.value).sort()).toEqual(coupons.map((coupon) => coupon.id).sort());
			const half = coupons.find((coupon) => coupon.code === 'HALF3')!;
			const found = await search('searchCoupons', 'half3');
			expect(found.results).toEqual([{ name: `${String(half.name)} (HALF3)`, value: half.id, url: undefined }]);
		});
	});

	describe('Product', () => {
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
				parameters: { resource: 'product', operation: 'get', productId: rl(products[2].id), simplify: true },
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
			const product = (await client.state('products')).find((record) => record.charge_type === 'one_time')!;
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
				[[{ billingPeriod: 'weekly', amount: 12.5 }], 'Base Prices: 12.5 is not a valid weekly amount'],
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
			const found = await search('searchProducts', 'padlock');
			const padlock = products.find((product) => String(product.name).includes('padlock'))!;
			expect(found.results).toEqual([{ name: padlock.name, value: padlock.id, url: undefined }]);
		});
	});

	describe('Product Category', () => {
		it('gets many product categories and one category', async () => {
			const categories = await client.state('product_categories');
			const many = await runStora({
				credentials: credentials(),
				parameters: { resource: 'productCategory', operation: 'getAll', limit: 2 },
			});
			// Categories render only id and name; the seed inserts them oldest first, and the list is newest first.
			expect(many.items.map((item) => item.json)).toEqual([...categories].reverse().slice(0, 2));
			expect((await client.requests())[0]).toMatchObject({ path: '/2025-09/product_categories', query: { limit: '2' } });
			const one = await runStora({
				credentials: credentials(),
				parameters: { resource: 'productCategory', operation: 'get', productCategoryId: rl(categories[0].id) },
			});
			expect(one.items.map((item) => item.json)).toEqual([{ id: categories[0].id, name: categories[0].name }]);
		});

		it('sends the documented expand as typed paths; Stora answers for a path a category does not have', async () => {
			await client.configure({ unknown_params: 'reject' });
			const plain = await runStora({
				credentials: credentials(),
				parameters: { resource: 'productCategory', operation: 'getAll', limit: 2, options: { expand: ' , ' } },
			});
			expect(plain.error).toBeUndefined();
			const expanded = await runStora({
				credentials: credentials(),
				parameters: { resource: 'productCategory', operation: 'getAll', limit: 2, options: { expand: ' site , ' } },
			});
			expect((await client.requests()).map((request) => request.query)).toEqual([{ limit: '2' }, { limit: '2', expand: 'site' }]);
			// expand itself is documented (no "not allowed"); the path is what Stora refuses.
			expect(expanded.error?.message).toMatch(/\[invalid_url_param\]$/);
			expect(expanded.error?.description).toContain("The expand path 'site' is not an expandable reference");
		});

		it('refuses an Expand that is not a list of reference paths before any request, naming the field', async () => {
			for (const expand of ['Plain text', 'site,,contact site', 'site.', '../site']) {
				const result = await runStora({
					credentials: credentials(),
					parameters: { resource: 'productCategory', operation: 'getAll', limit: 2, options: { expand } },
				});
				expect(result.error?.message).toMatch(/^Expand: .* is not a reference path/);
				expect(result.error?.description).toContain('nothing was sent to Stora');
			}
			expect(await client.requests()).toEqual([]);
		});
	});

	describe('Protection Level', () => {
		it('gets many protection levels, oldest first when asked', async () => {
			const levels = await client.state('protection_levels');
			const result = await runStora({
				credentials: credentials(),
				parameters: { resource: 'protectionLevel', operation: 'getAll', options: { sortDirection: 'ASC' } },
			});
			expect((await client.requests())[0]).toMatchObject({
				path: '/2025-09/protection_levels',
				query: { limit: '50', sort_direction: 'ASC' },
			});
			expect(result.items.map((item) => item.json)).toEqual([...levels].sort((a, b) => newestFirst(b, a)));
		});

		it('gets one protection level and sets its base prices', async () => {
			const [level] = await client.state('protection_levels');
			const one = await runStora({
				credentials: credentials(),
				parameters: { resource: 'protectionLevel', operation: 'get', protectionLevelId: rl(level.id) },
			});
			expect(one.items.map((item) => item.json)).toEqual([level]);
			await client.clearRequests();
			const result = await runStora({
				credentials: credentials(),
				parameters: {
					resource: 'protectionLevel',
					operation: 'setBasePrice',
					protectionLevelId: rl(level.id),
					basePrices: { price: [{ billingPeriod: 'every_four_weeks', amount: 700 }] },
				},
			});
			expect(result.error).toBeUndefined();
			expect(await client.requests()).toMatchObject([
				{
					method: 'POST',
					path: `/2025-09/protection_levels/${level.id}/base_price`,
					body: { every_four_weeks: { amount: 700 } },
				},
			]);
			expect(amounts(result.items[0].json)).toEqual({ ...amounts(level), every_four_weeks: 700 });
		});

		it('sends the documented expand on Set Base Price', async () => {
			await client.configure({ unknown_params: 'reject' });
			const [level] = await client.state('protection_levels');
			const result = await runStora({
				credentials: credentials(),
				parameters: {
					resource: 'protectionLevel',
					operation: 'setBasePrice',
					protectionLevelId: rl(level.id),
					basePrices: { price: [{ billingPeriod: 'monthly', amount: 900 }] },
					options: { expand: 'site' },
				},
			});
			expect(await client.requests()).toMatchObject([
				{
					method: 'POST',
					path: `/2025-09/protection_levels/${level.id}/base_price`,
					query: { expand: 'site' },
					body: { monthly: { amount: 900 } },
				},
			]);
			// The docs' protection level has no site reference yet (site scoping is announced), so Stora refuses the path.
			expect(result.error?.description).toContain("The expand path 'site' is not an expandable reference");
		});

		it('warns on every protection level operation about the announced breaking change', () => {
			const notice = new Stora().description.properties.find(
				(property) => property.type === 'notice' && property.displayOptions?.show?.resource?.includes('protectionLevel'),
			);
			expect(notice?.displayName).toMatch(/breaking change/);
			expect(notice?.displayOptions?.show?.operation).toBeUndefined();
		});

		it('lists protection levels for the picker by cover level', async () => {
			const levels = await client.state('protection_levels');
			const all = await search('searchProtectionLevels');
			expect(all.results.map((result) => result.value)).toEqual([...levels].sort(newestFirst).map((level) => level.id));
			const formatted = String((levels[1].cover_level as { formatted: string }).formatted);
			expect(all.results.find((result) => result.value === levels[1].id)?.name).toBe(`Cover up to ${formatted} (${levels[1].id})`);
		});
	});

	describe('Subscription', () => {
		it('gets every subscription with Return All', async () => {
			const subscriptions = await client.state('subscriptions');
			const result = await runStora({
				credentials: credentials(),
				parameters: { resource: 'subscription', operation: 'getAll', returnAll: true },
			});
			expect(result.items.map((item) => item.json.id)).toEqual([...subscriptions].sort(newestFirst).map((s) => s.id));
		});

		it('gets a subscription with its contact and line item items expanded', async () => {
			const [subscription] = await client.state('subscriptions');
			const result = await runStora({
				credentials: credentials(),
				parameters: {
					resource: 'subscription',
					operation: 'get',
					subscriptionId: rl(subscription.id),
					options: { expand: ['contact', 'line_items.item'] },
				},
			});
			expect(result.error).toBeUndefined();
			expect((await client.requests())[0]).toMatchObject({
				path: `/2025-09/subscriptions/${subscription.id}`,
				query: { expand: 'contact,line_items.item' },
			});
			const json = result.items[0].json;
			expect((json.contact as StateRecord).id).toBe((subscription.contact as StateRecord).id);
			expect((json.contact as StateRecord).email).toBeDefined();
			const items = (json.line_items as Array<{ item: StateRecord }>).map((line) => line.item);
			expect(items.map((item) => item.id)).toEqual(
				(subscription.line_items as Array<{ item: { id: string } }>).map((line) => line.item.id),
			);
			expect(items.every((item) => Object.keys(item).length > 1)).toBe(true);
		});
	});

	describe('list searches of the other billing pickers', () => {
		it('pages through orders with the API page number as the token', async () => {
			const orders = [...(await client.state('orders'))].sort(newestFirst);
			const first = await search('searchOrders');
			expect(first.results).toHaveLength(100);
			expect(first.paginationToken).toBe('2');
			expect(first.results[0].value).toBe(orders[0].id);
			expect(first.results[0].name).toContain(String(orders[0].status));
			const second = await search('searchOrders', undefined, first.paginationToken);
			expect(second.results[0].value).toBe(orders[100].id);
			const queries = (await client.requests()).map((request) => request.query);
			expect(queries).toEqual([
				{ limit: '100', page: '1' },
				{ limit: '100', page: '2' },
			]);
		});

		it('finds invoices, credit notes, subscriptions and categories by what their labels show', async () => {
			const [invoice] = await client.state('invoices');
			const invoices = await search('searchInvoices', String(invoice.number));
			expect(invoices.results.map((result) => result.value)).toEqual([invoice.id]);
			const [note] = await client.state('credit_notes');
			expect((await search('searchCreditNotes', String(note.number))).results.map((r) => r.value)).toEqual([note.id]);
			const [subscription] = await client.state('subscriptions');
			expect((await search('searchSubscriptions', subscription.id)).results[0].value).toBe(subscription.id);
			const [category] = await client.state('product_categories');
			expect((await search('searchProductCategories', String(category.name))).results).toEqual([
				{ name: category.name, value: category.id, url: undefined },
			]);
		});
	});
});
