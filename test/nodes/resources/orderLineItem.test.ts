import { locator as rl, runStora } from '../../helpers/n8n';
import { emptyDraftOrder, idOf, recordById } from '../../helpers/records';
import { useResourceFixture } from '../../helpers/sandboxFixture';

describe('Stora node: Order Line Item', () => {
	const fixture = useResourceFixture();
	const { client, credentials } = fixture;

	describe('Order Line Item: Create', () => {
		it('adds a unit type line with quantity and price to a draft order, and the order totals follow', async () => {
			const order = await emptyDraftOrder(client);
			const unitType = (await client.state('unit_types')).find(
				(type) => idOf(type.site) === idOf(order.site),
			)!;
			const result = await runStora({
				credentials: credentials(),
				parameters: {
					resource: 'orderLineItem',
					operation: 'create',
					orderLineItemOrderId: rl(order.id),
					lineItemType: 'unit_type',
					orderLineItemUnitTypeId: unitType.id,
					additionalFields: { quantity: 2, price: 5000 },
				},
			});
			expect(result.error).toBeUndefined();
			const requests = await client.requests();
			expect(requests).toHaveLength(1);
			expect(requests[0]).toMatchObject({
				method: 'POST',
				path: `/2025-09/orders/${order.id}/line_items`,
			});
			expect(requests[0].body).toEqual({
				type: 'unit_type',
				item: { id: unitType.id },
				quantity: 2,
				price: { amount: 5000 },
			});
			const line = result.items[0].json;
			expect(line).toEqual(recordById(await client.state('order_line_items'), String(line.id)));
			expect(line).toMatchObject({ type: 'unit_type', quantity: 2, price: { amount: 5000 } });
			const updated = recordById(await client.state('orders'), order.id);
			expect(updated.line_items).toEqual([{ id: line.id }]);
			expect(updated.subtotal).toMatchObject({ amount: 10000 });
		});

		it('adds protection, product and security deposit lines through their own pickers', async () => {
			const order = await emptyDraftOrder(client);
			const [protection] = await client.state('protection_levels');
			const [product] = await client.state('products');
			const unitType = (await client.state('unit_types')).find((type) => type.security_deposit)!;
			const cases: Array<[Record<string, unknown>, Record<string, unknown>]> = [
				[
					{ lineItemType: 'protection', orderLineItemProtectionLevelId: rl(protection.id) },
					{ type: 'protection', item: { id: protection.id } },
				],
				[
					{ lineItemType: 'product', orderLineItemProductId: rl(product.id) },
					{ type: 'product', item: { id: product.id } },
				],
				[
					{ lineItemType: 'security_deposit', orderLineItemUnitTypeId: unitType.id },
					{ type: 'security_deposit', item: { id: unitType.id } },
				],
			];
			for (const [parameters, body] of cases) {
				await client.clearRequests();
				const result = await runStora({
					credentials: credentials(),
					parameters: {
						resource: 'orderLineItem',
						operation: 'create',
						orderLineItemOrderId: rl(order.id),
						...parameters,
					},
				});
				expect(result.error).toBeUndefined();
				expect((await client.requests())[0].body).toEqual(body);
				expect(result.items[0].json).toMatchObject(body);
			}
			expect(recordById(await client.state('orders'), order.id).line_items).toHaveLength(3);
		});

		it('checks the item and quantity before any request', async () => {
			const order = await emptyDraftOrder(client);
			const [product] = await client.state('products');
			const cases: Array<[Record<string, unknown>, RegExp]> = [
				[
					{ lineItemType: 'protection', orderLineItemProtectionLevelId: rl(product.id) },
					/A protection level ID starts with "plvl_"/,
				],
				[
					{ lineItemType: 'unit_type', orderLineItemUnitTypeId: product.id },
					/^Unit Type: ".*" is not an? unit type ID$/,
				],
				[
					{
						lineItemType: 'product',
						orderLineItemProductId: rl(product.id),
						additionalFields: { quantity: 0 },
					},
					/^Quantity: 0 is out of range$/,
				],
				[
					{
						lineItemType: 'product',
						orderLineItemProductId: rl(product.id),
						additionalFields: { price: 12.5 },
					},
					/^Price \(Minor Units\): 12.5 is out of range$/,
				],
				// An expression giving true would pass as 1 by Number() and be sent as "true".
				[
					{
						lineItemType: 'product',
						orderLineItemProductId: rl(product.id),
						additionalFields: { quantity: '={{ true }}' },
					},
					/^Quantity: true is out of range$/,
				],
			];
			for (const [parameters, message] of cases) {
				const result = await runStora({
					credentials: credentials(),
					parameters: {
						resource: 'orderLineItem',
						operation: 'create',
						orderLineItemOrderId: rl(order.id),
						...parameters,
					},
				});
				expect(result.error?.message).toMatch(message);
			}
			expect(await client.requests()).toEqual([]);
		});

		it('surfaces the conflict when the order is no longer a draft', async () => {
			const completed = (await client.state('orders')).find(
				(order) => order.status === 'completed',
			)!;
			const [product] = await client.state('products');
			const result = await runStora({
				credentials: credentials(),
				parameters: {
					resource: 'orderLineItem',
					operation: 'create',
					orderLineItemOrderId: rl(completed.id),
					lineItemType: 'product',
					orderLineItemProductId: rl(product.id),
				},
			});
			expect(result.error?.message).toMatch(/\[conflict\]$/);
			expect((result.error as { httpCode?: string }).httpCode).toBe('409');
			expect(recordById(await client.state('orders'), completed.id).line_items).toEqual(
				completed.line_items,
			);
		});
	});
});
