/** Order line items (`/orders/:id/line_items`) over real HTTP: bodies and references. */
import { expectError, pages, type Json } from '../calls';
import { useSandboxWithClients } from '../fixture';

const fx = useSandboxWithClients({
	seed: 'demo',
	resetEach: false,
	client: { redirect: 'follow' },
});
const { list, all } = pages(fx);

describe('orders: create, line items, validate, finalize', () => {
	let site: Json;
	let unitType: Json;

	beforeAll(async () => {
		site = (await list('/2025-09/sites'))[0];
		unitType = (await all('/2025-09/unit_types')).find((t) => t.site.id === site.id)!;
	});

	test('invalid line item bodies and references', async () => {
		const draft = (await fx.call('POST', '/2025-09/orders', { body: { site: { id: site.id } } }))
			.body.order as Json;
		const lineType = expectError(
			await fx.call('POST', `/2025-09/orders/${draft.id as string}/line_items`, {
				body: { type: 'gift', item: { id: unitType.id } },
			}),
			422,
			'invalid_content',
		);
		expect(lineType.details[0].pointer).toBe('/type');
		expectError(
			await fx.call('POST', `/2025-09/orders/${draft.id as string}/line_items`, {
				body: { type: 'product', item: { id: 'prod_doesnotexist0' } },
			}),
			404,
			'resource_not_found',
		);
		expectError(
			await fx.call('POST', '/2025-09/orders/order_doesnotexist/line_items', {
				body: { type: 'unit_type', item: { id: unitType.id } },
			}),
			404,
			'resource_not_found',
		);
		expectError(
			await fx.call('GET', '/2025-09/orders/order_doesnotexist/validate'),
			404,
			'resource_not_found',
		);
	});
});
