/** Orders (`/orders`) over real HTTP: pagination, filters, windows, create, validate, finalize, and the order.created events. */
import { expectError, pages, type Json } from '../calls';
import { useSandboxWithClients, useReceiver } from '../fixture';

// The tests build on each other (orders created, then finalized).
const fx = useSandboxWithClients({
	seed: 'demo',
	allowHttpWebhooks: true,
	resetEach: false,
	client: { redirect: 'follow' },
});
const receiver = useReceiver(fx, 'billing tests', ['order.created', 'unit.updated']);
const { list, all } = pages(fx);

describe('orders: listing', () => {
	test('at least 260 orders, paginated with pagy meta', async () => {
		const first = await fx.call('GET', '/2025-09/orders?limit=100');
		const { count } = first.body.meta.pagination as Json;
		expect(count).toBeGreaterThanOrEqual(260);
		expect(first.body.meta.pagination).toMatchObject({
			page: 1,
			limit: 100,
			pages: Math.ceil(count / 100),
			next: 2,
			prev: null,
			last: Math.ceil(count / 100),
		});
		const last = await fx.call('GET', `/2025-09/orders?limit=100&page=${Math.ceil(count / 100)}`);
		expect(last.body.orders).toHaveLength(count - 100 * (Math.ceil(count / 100) - 1));
		expect(last.body.meta.pagination).toMatchObject({
			next: null,
			prev: Math.ceil(count / 100) - 1,
		});
		const defaultPage = await fx.call('GET', '/2025-09/orders');
		expect(defaultPage.body.orders).toHaveLength(50);
		expectError(await fx.call('GET', '/2025-09/orders?limit=101'), 422, 'invalid_url_param');

		const orders = await all('/2025-09/orders');
		expect(new Set(orders.map((o) => o.id)).size).toBe(count);
		expect(new Set(orders.map((o) => o.created_at)).size).toBe(count);
		const created = orders.map((o) => Date.parse(o.created_at as string));
		expect(created).toEqual([...created].sort((a, b) => b - a));
		for (const [field, values] of [
			['status', ['draft', 'finalized', 'completed', 'abandoned']],
			[
				'source',
				[
					'backoffice',
					'storefront',
					'storefront_multi_step',
					'import',
					'public_api',
					'unspecified',
				],
			],
			[
				'billing_period',
				[
					'monthly',
					'weekly',
					'every_four_weeks',
					'every_three_months',
					'every_six_months',
					'yearly',
					'one_time',
					null,
				],
			],
		] as const) {
			expect(new Set(orders.map((o) => o[field]))).toEqual(new Set(values));
		}
		expect(new Set(orders.map((o) => o.site.id)).size).toBe(4);
		expect(new Set(orders.map((o) => o.contact?.id)).size).toBeGreaterThan(10);
		expect(Object.keys(orders[0]).sort()).toEqual(
			[
				'billing_period',
				'contact',
				'contract_template',
				'coupon',
				'created_at',
				'email_notifications',
				'id',
				'line_items',
				'metadata',
				'one_time_total',
				'one_time_total_excluding_tax',
				'payment_method',
				'payment_url',
				'purchase_order_number',
				'site',
				'source',
				'starts_at',
				'status',
				'subscription',
				'subtotal',
				'tax',
				'tenancy',
				'total',
				'total_discount',
				'total_excluding_tax',
				'updated_at',
			].sort(),
		);
	});

	test('filters: status, source, billing period, contact, site, metadata', async () => {
		const orders = await all('/2025-09/orders');
		const count = (pred: (o: Json) => boolean) => orders.filter(pred).length;

		const statuses = await all('/2025-09/orders?status=draft,abandoned');
		expect(statuses).toHaveLength(count((o) => o.status === 'draft' || o.status === 'abandoned'));
		expect(new Set(statuses.map((o) => o.status))).toEqual(new Set(['draft', 'abandoned']));

		const unspecified = await all('/2025-09/orders?source=unspecified');
		expect(unspecified.length).toBeGreaterThan(0);
		expect(unspecified.every((o) => o.source === 'unspecified')).toBe(true);

		const periods = await all('/2025-09/orders?billing_period=one_time,yearly');
		expect(periods).toHaveLength(
			count((o) => o.billing_period === 'one_time' || o.billing_period === 'yearly'),
		);

		const contact = orders.find((o) => o.contact)!.contact.id as string;
		const byContact = await all(`/2025-09/orders?contact_id=${contact}`);
		expect(byContact).toHaveLength(count((o) => o.contact?.id === contact));
		const sites = [orders[0].site.id, orders[1].site.id].join(',');
		const bySites = await all(`/2025-09/orders?site_id=${sites}`);
		expect(bySites).toHaveLength(count((o) => sites.split(',').includes(o.site.id as string)));

		const campaign = await all('/2025-09/orders?metadata[campaign]=spring-2025');
		expect(campaign.length).toBeGreaterThan(0);
		expect(campaign).toHaveLength(count((o) => o.metadata.campaign === 'spring-2025'));
		const both = await all('/2025-09/orders?metadata[campaign]=autumn-2025&status=completed');
		expect(both).toHaveLength(
			count((o) => o.metadata.campaign === 'autumn-2025' && o.status === 'completed'),
		);

		expectError(await fx.call('GET', '/2025-09/orders?status=paid'), 422, 'invalid_url_param');
		expectError(
			await fx.call('GET', '/2025-09/orders?billing_period=daily'),
			422,
			'invalid_url_param',
		);
	});

	test('windows: created, updated and starts (after inclusive, before exclusive); sort by updated_at', async () => {
		const orders = await all('/2025-09/orders');
		const starting = orders
			.filter((o) => o.starts_at !== null)
			.sort((a, b) => Date.parse(a.starts_at as string) - Date.parse(b.starts_at as string));
		const bound = starting[Math.floor(starting.length / 2)].starts_at as string;
		const after = await all(`/2025-09/orders?starts_after=${encodeURIComponent(bound)}`);
		const before = await all(`/2025-09/orders?starts_before=${encodeURIComponent(bound)}`);
		expect(after.length + before.length).toBe(starting.length);
		expect(after.every((o) => Date.parse(o.starts_at as string) >= Date.parse(bound))).toBe(true);
		expect(before.every((o) => Date.parse(o.starts_at as string) < Date.parse(bound))).toBe(true);
		expect(after.some((o) => o.starts_at === bound)).toBe(true);

		const createdBound = orders[100].created_at as string;
		const createdAfter = await all(
			`/2025-09/orders?created_after=${encodeURIComponent(createdBound)}`,
		);
		expect(createdAfter).toHaveLength(101);
		const window = await all(
			`/2025-09/orders?created_after=${encodeURIComponent(orders[150].created_at as string)}&created_before=${encodeURIComponent(createdBound)}`,
		);
		expect(window).toHaveLength(50);
		const updatedAfter = await all(
			`/2025-09/orders?updated_after=${encodeURIComponent(createdBound)}`,
		);
		expect(
			updatedAfter.every((o) => Date.parse(o.updated_at as string) >= Date.parse(createdBound)),
		).toBe(true);
		expectError(
			await fx.call('GET', '/2025-09/orders?starts_after=yesterday'),
			422,
			'invalid_url_param',
		);

		const byUpdated = await all('/2025-09/orders?sort_by=updated_at&sort_direction=ASC');
		const updated = byUpdated.map((o) => Date.parse(o.updated_at as string));
		expect(updated).toEqual([...updated].sort((a, b) => a - b));
	});
});

describe('orders: create, line items, validate, finalize', () => {
	let site: Json;
	let unitType: Json;
	let protection: Json;
	let contactId: string;

	beforeAll(async () => {
		site = (await list('/2025-09/sites'))[0];
		unitType = (await all('/2025-09/unit_types')).find((t) => t.site.id === site.id)!;
		protection = (await list('/2025-09/protection_levels'))[0];
		contactId = (await all('/2025-09/tenancies'))[0].contact.id as string;
	});

	test('a bare draft fails validation with one detail per problem; finalize refuses it', async () => {
		const created = await fx.call('POST', '/2025-09/orders', { body: { site: { id: site.id } } });
		expect(created.status).toBe(201);
		const order = created.body.order as Json;
		expect(order).toMatchObject({
			status: 'draft',
			source: 'public_api',
			billing_period: null,
			contact: null,
			starts_at: null,
			line_items: [],
			payment_url: null,
			site: { id: site.id },
		});
		expect(order.total).toMatchObject({ amount: 0, currency: 'GBP' });
		expect(order.one_time_total.amount).toBe(0);

		const invalid = expectError(
			await fx.call('GET', `/2025-09/orders/${order.id as string}/validate`),
			422,
			'invalid_content',
		);
		expect((invalid.details as Json[]).map((d) => d.pointer)).toEqual([
			'/starts_at',
			'/billing_period',
			'/contact',
			'/line_items',
		]);
		expect(
			(invalid.details as Json[]).every(
				(d) => typeof d.message === 'string' && d.message.length > 0,
			),
		).toBe(true);

		const refused = expectError(
			await fx.call('POST', `/2025-09/orders/${order.id as string}/finalize`),
			422,
			'invalid_content',
		);
		expect(refused.details).toHaveLength(4);
		expect((await fx.call('GET', `/2025-09/orders/${order.id as string}`)).body.order.status).toBe(
			'draft',
		);

		// A protection line item alone still lacks a unit type line item.
		const line = await fx.call('POST', `/2025-09/orders/${order.id as string}/line_items`, {
			body: { type: 'protection', item: { id: protection.id }, price: { amount: 700 } },
		});
		expect(line.status).toBe(201);
		expect(line.body.line_item).toMatchObject({
			type: 'protection',
			quantity: 1,
			item: { id: protection.id },
			price: { amount: 700 },
		});
		const still = expectError(
			await fx.call('GET', `/2025-09/orders/${order.id as string}/validate`),
			422,
			'invalid_content',
		);
		expect((still.details as Json[]).map((d) => d.pointer)).toContain('/line_items');
	});

	test('create a complete order, add line items (totals follow), validate, finalize, then 409s', async () => {
		const startsAt = new Date(Date.now() + 7 * 86_400_000).toISOString();
		const created = await fx.call('POST', '/2025-09/orders', {
			body: {
				site: { id: site.id },
				billing_period: 'monthly',
				starts_at: startsAt,
				contact: { id: contactId },
				payment_method: 'card',
				purchase_order_number: 'PO-42',
				emails: { booking_confirmation: false, move_in_day: true },
				metadata: { external_id: 'n8n-1' },
				line_items: [{ type: 'unit_type', item: { id: unitType.id } }],
			},
		});
		expect(created.status).toBe(201);
		const order = created.body.order as Json;
		const monthly = (unitType.prices as Json[]).find((p) => p.billing_period === 'monthly')!.price
			.amount as number;
		expect(order.subtotal.amount).toBe(monthly);
		expect(order.tax.amount).toBe(Math.round(monthly * 0.2));
		expect(order.total.amount).toBe(monthly + Math.round(monthly * 0.2));
		expect(order.email_notifications).toMatchObject({
			booking_confirmation: false,
			move_in_day: true,
		});
		expect(order).toMatchObject({
			purchase_order_number: 'PO-42',
			metadata: { external_id: 'n8n-1' },
			contact: { id: contactId },
		});
		expect(order.line_items).toHaveLength(1);

		const extra = await fx.call('POST', `/2025-09/orders/${order.id as string}/line_items`, {
			body: { type: 'unit_type', item: { id: unitType.id }, quantity: 2, price: { amount: 1000 } },
		});
		expect(extra.status).toBe(201);
		expect(extra.body.line_item.total_excluding_tax.amount).toBe(2000);
		expect(extra.body.line_item.total.amount).toBe(2400);
		const grown = (await fx.call('GET', `/2025-09/orders/${order.id as string}?expand=line_items`))
			.body.order as Json;
		expect(grown.line_items).toHaveLength(2);
		expect(grown.line_items[1].id).toBe(extra.body.line_item.id);
		expect(grown.subtotal.amount).toBe(monthly + 2000);
		expect(grown.total.amount).toBe(order.total.amount + 2400);

		const valid = await fx.call('GET', `/2025-09/orders/${order.id as string}/validate`);
		expect(valid.status).toBe(200);
		expect(valid.body.order.id).toBe(order.id);
		expect(valid.body.meta.request_id).toEqual(expect.any(String));

		const finalized = await fx.call('POST', `/2025-09/orders/${order.id as string}/finalize`, {
			body: { finalize: { cancel_redirect_url: 'https://example.com/cancel' } },
		});
		expect(finalized.status).toBe(200);
		expect(finalized.body.order.status).toBe('finalized');
		expect(finalized.body.order.payment_url).toMatch(/^https:\/\//);

		expectError(
			await fx.call('POST', `/2025-09/orders/${order.id as string}/finalize`),
			409,
			'conflict',
		);
		expectError(
			await fx.call('POST', `/2025-09/orders/${order.id as string}/line_items`, {
				body: { type: 'unit_type', item: { id: unitType.id } },
			}),
			409,
			'conflict',
		);
		const listed = await list(
			`/2025-09/orders?source=public_api&status=finalized&metadata[external_id]=n8n-1`,
		);
		expect(listed.map((o) => o.id)).toEqual([order.id]);
	});

	test('create with an inline contact and finalize in one go; nothing is created when that fails', async () => {
		const before = (await fx.call('GET', '/2025-09/orders?limit=1')).body.meta.pagination
			.count as number;
		const email = 'new.customer@example.com';
		const failing = await fx.call('POST', '/2025-09/orders', {
			body: {
				site: { id: site.id },
				contact: { email, full_name: 'New Customer' },
				finalize: { cancel_redirect_url: 'https://example.com/x' },
			},
		});
		expectError(failing, 422, 'invalid_content');
		expect((await fx.call('GET', '/2025-09/orders?limit=1')).body.meta.pagination.count).toBe(
			before,
		);
		expect((await list(`/2025-09/contacts?email=${encodeURIComponent(email)}`)).length).toBe(0);

		const created = await fx.call('POST', '/2025-09/orders', {
			body: {
				site: { id: site.id },
				billing_period: 'weekly',
				starts_at: new Date(Date.now() + 86_400_000).toISOString(),
				contact: { email, full_name: 'New Customer' },
				line_items: [
					{ type: 'unit_type', item: { id: unitType.id } },
					{ type: 'protection', item: { id: protection.id } },
				],
				finalize: { cancel_redirect_url: 'https://example.com/cancel' },
			},
		});
		expect(created.status).toBe(201);
		expect(created.body.order.status).toBe('finalized');
		const contact = await fx.call(
			'GET',
			`/2025-09/contacts/${created.body.order.contact.id as string}`,
		);
		expect(contact.status).toBe(200);
		expect(contact.body.contact.email).toBe(email);
		const weekly = (unitType.prices as Json[]).find((p) => p.billing_period === 'weekly')!.price
			.amount as number;
		const protectionWeekly = (protection.prices as Json[]).find(
			(p) => p.billing_period === 'weekly',
		)!.price.amount as number;
		expect(created.body.order.subtotal.amount).toBe(weekly + protectionWeekly);
	});

	test('invalid bodies and references', async () => {
		const badPeriod = expectError(
			await fx.call('POST', '/2025-09/orders', {
				body: { site: { id: site.id }, billing_period: 'daily' },
			}),
			422,
			'invalid_content',
		);
		expect(badPeriod.details[0].pointer).toBe('/billing_period');
		const unknownField = expectError(
			await fx.call('POST', '/2025-09/orders', { body: { site: { id: site.id }, colour: 'red' } }),
			422,
			'invalid_content',
		);
		expect(unknownField.details[0].pointer).toBe('/colour');
		expectError(
			await fx.call('POST', '/2025-09/orders', { body: { site: { id: 'site_doesnotexist0' } } }),
			404,
			'resource_not_found',
		);
		const wrongItem = expectError(
			await fx.call('POST', '/2025-09/orders', {
				body: {
					site: { id: site.id },
					line_items: [{ type: 'unit_type', item: { id: protection.id } }],
				},
			}),
			422,
			'invalid_content',
		);
		expect(wrongItem.details[0].pointer).toBe('/line_items/0/item/id');
	});

	test('seeded orders in every state validate as expected', async () => {
		const drafts = await all('/2025-09/orders?status=draft');
		const empty = drafts.find((o) => o.contact === null && o.line_items.length === 0)!;
		const invalid = expectError(
			await fx.call('GET', `/2025-09/orders/${empty.id as string}/validate`),
			422,
			'invalid_content',
		);
		expect(invalid.details).toHaveLength(4);
		const completed = (await list('/2025-09/orders?status=completed&source=backoffice'))[0];
		expectError(
			await fx.call('POST', `/2025-09/orders/${completed.id as string}/finalize`),
			409,
			'conflict',
		);
		const abandoned = (await list('/2025-09/orders?status=abandoned'))[0];
		expectError(
			await fx.call('POST', `/2025-09/orders/${abandoned.id as string}/finalize`),
			409,
			'conflict',
		);
	});

	test('order.created webhooks were delivered', async () => {
		await fx.sandbox.whenDeliveriesIdle();
		const orderEvents = receiver.events.filter((e) => e.type === 'order.created');
		expect(orderEvents.length).toBeGreaterThanOrEqual(3);
		expect(
			orderEvents.every(
				(e) => typeof e.data.order.id === 'string' && e.data.order.source === 'public_api',
			),
		).toBe(true);
	});
});
