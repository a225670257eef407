/**
 * Billing operations over real HTTP: units and their transitions, unit allocations, tenancies, subscriptions,
 * orders (pagination, filters, create, line items, validate, finalize), invoices and credit notes, and the
 * webhook events these operations emit.
 */
import { startReceiver, type Receiver } from '../core/testing';
import { useSandboxWithClients } from './fixture';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

// Not JSON (PDFs): `body` is `{}`; the bytes are in `raw`. The tests build on each other (orders created, then finalized).
const fx = useSandboxWithClients({ seed: 'demo', allowHttpWebhooks: true, resetEach: false, client: { redirect: 'follow', nonJson: () => ({}) } });
let receiver: Receiver;

beforeAll(async () => {
	receiver = await startReceiver();
	const created = await fx.call('POST', '/2025-09/webhook_endpoints', {
		body: {
			name: 'billing tests',
			api_version: '2025-09',
			url: receiver.url,
			event_types: ['order.created', 'unit.updated'],
		},
	});
	expect(created.status).toBeLessThan(300);
});
afterAll(async () => {
	await receiver.close();
});

const list = async (path: string): Promise<Json[]> => {
	const { status, body } = await fx.call('GET', path);
	expect(status).toBe(200);
	const key = Object.keys(body).find((k) => k !== 'meta')!;
	return body[key] as Json[];
};

/** Every record of a list endpoint (all pages). */
async function all(path: string): Promise<Json[]> {
	const out: Json[] = [];
	for (let page = 1; ; page++) {
		const { body } = await fx.call('GET', `${path}${path.includes('?') ? '&' : '?'}limit=100&page=${page}`);
		const key = Object.keys(body).find((k) => k !== 'meta')!;
		out.push(...(body[key] as Json[]));
		if (body.meta.pagination.next === null) return out;
	}
}

const expectError = (response: { status: number; body: Json }, status: number, code: string) => {
	expect(response.status).toBe(status);
	expect(response.body.error.code).toBe(code);
	return response.body.error as Json;
};

describe('units', () => {
	test('list with status (overlock spelling too), site and unit type filters', async () => {
		const units = await all('/2025-09/units');
		expect(units).toHaveLength(60);
		const statuses = new Set(units.map((u) => u.status));
		for (const s of ['available', 'reserved', 'occupied', 'overlocked', 'unavailable', 'repossessed']) expect(statuses).toContain(s);
		expect(Object.keys(units[0]).sort()).toEqual(['created_at', 'id', 'reference_id', 'site', 'status', 'unit_allocation', 'unit_type', 'updated_at']);

		const overlock = await list('/2025-09/units?status=overlock');
		expect(overlock.length).toBeGreaterThan(0);
		expect(overlock.every((u) => u.status === 'overlocked')).toBe(true);
		expect((await list('/2025-09/units?status=overlocked')).map((u) => u.id)).toEqual(overlock.map((u) => u.id));

		const two = await all('/2025-09/units?status=available,reserved');
		expect(new Set(two.map((u) => u.status))).toEqual(new Set(['available', 'reserved']));
		expect(two).toHaveLength(units.filter((u) => u.status === 'available' || u.status === 'reserved').length);

		expectError(await fx.call('GET', '/2025-09/units?status=melted'), 422, 'invalid_url_param');

		const site = units[0].site.id as string;
		const bySite = await all(`/2025-09/units?site_id=${site}`);
		expect(bySite).toHaveLength(15);
		expect(bySite.every((u) => u.site.id === site)).toBe(true);
		const type = units[0].unit_type.id as string;
		const byType = await list(`/2025-09/units?unit_type_id=${type}`);
		expect(byType).toHaveLength(5);

		const one = await fx.call('GET', `/2025-09/units/${units[0].id as string}?expand=unit_type`);
		expect(one.body.unit.unit_type.name).toBeDefined();
		expectError(await fx.call('GET', '/2025-09/units/unit_missing000000'), 404, 'resource_not_found');
	});

	test('reserve → grant_access → deallocate, with conflicts on invalid transitions', async () => {
		const tenancies = await all('/2025-09/tenancies');
		const available = await all('/2025-09/units?status=available');
		const unit = available.find((u) => tenancies.filter((t) => t.ends_at === null && t.site.id === u.site.id).length >= 2)!;
		const [tenancy, other] = tenancies.filter((t) => t.ends_at === null && t.site.id === unit.site.id);

		const reserved = await fx.call('POST', `/2025-09/units/${unit.id as string}/reserve`, { body: { tenancy_id: tenancy.id } });
		expect(reserved.status).toBe(200);
		expect(reserved.body.unit.status).toBe('reserved');
		const allocationId = reserved.body.unit.unit_allocation.id as string;
		const allocation = (await fx.call('GET', `/2025-09/unit_allocations/${allocationId}`)).body.unit_allocation as Json;
		expect(allocation).toMatchObject({ tenancy: { id: tenancy.id }, unit: { id: unit.id }, granted_access_at: null });
		expect(Date.parse(allocation.reserved_at as string)).not.toBeNaN();
		expect(Object.keys(allocation).sort()).toEqual(['created_at', 'granted_access_at', 'id', 'reserved_at', 'tenancy', 'unit', 'updated_at']);
		const withAllocation = (await fx.call('GET', `/2025-09/tenancies/${tenancy.id as string}`)).body.tenancy as Json;
		expect(withAllocation.unit_allocations).toContainEqual({ id: allocationId });

		expectError(await fx.call('POST', `/2025-09/units/${unit.id as string}/reserve`, { body: { tenancy_id: tenancy.id } }), 409, 'conflict');
		expectError(await fx.call('POST', `/2025-09/units/${unit.id as string}/grant_access`, { body: { tenancy_id: other.id } }), 409, 'conflict');

		const granted = await fx.call('POST', `/2025-09/units/${unit.id as string}/grant_access`, { body: { tenancy_id: tenancy.id } });
		expect(granted.status).toBe(200);
		expect(granted.body.unit).toMatchObject({ status: 'occupied', unit_allocation: { id: allocationId } });
		const grantedAllocation = (await fx.call('GET', `/2025-09/unit_allocations/${allocationId}`)).body.unit_allocation as Json;
		expect(Date.parse(grantedAllocation.granted_access_at as string)).not.toBeNaN();
		expectError(await fx.call('POST', `/2025-09/units/${unit.id as string}/grant_access`, { body: { tenancy_id: tenancy.id } }), 409, 'conflict');

		const released = await fx.call('POST', `/2025-09/units/${unit.id as string}/deallocate`);
		expect(released.status).toBe(200);
		expect(released.body.unit).toMatchObject({ status: 'available', unit_allocation: null });
		const after = (await fx.call('GET', `/2025-09/tenancies/${tenancy.id as string}`)).body.tenancy as Json;
		expect(after.unit_allocations).not.toContainEqual({ id: allocationId });
		expectError(await fx.call('POST', `/2025-09/units/${unit.id as string}/deallocate`), 409, 'conflict');

		// Straight to access from available: a new allocation with both timestamps.
		const direct = await fx.call('POST', `/2025-09/units/${unit.id as string}/grant_access`, { body: { tenancy_id: other.id } });
		expect(direct.body.unit.status).toBe('occupied');
		const directAllocation = (await fx.call('GET', `/2025-09/unit_allocations/${direct.body.unit.unit_allocation.id as string}`)).body.unit_allocation as Json;
		expect(directAllocation.id).not.toBe(allocationId);
		expect(directAllocation.granted_access_at).not.toBeNull();
		expect(directAllocation.reserved_at).not.toBeNull();
	});

	test('unit action errors: body, unknown tenancy, ended tenancy, other site, unavailable unit', async () => {
		const tenancies = await all('/2025-09/tenancies');
		const available = (await all('/2025-09/units?status=available'))[0];
		const noBody = expectError(await fx.call('POST', `/2025-09/units/${available.id as string}/reserve`, { body: {} }), 422, 'invalid_content');
		expect(noBody.details).toHaveLength(1);
		const badPrefix = expectError(await fx.call('POST', `/2025-09/units/${available.id as string}/reserve`, { body: { tenancy_id: 'con_x' } }), 422, 'invalid_content');
		expect(badPrefix.details[0].pointer).toBe('/tenancy_id');
		expectError(await fx.call('POST', `/2025-09/units/${available.id as string}/reserve`, { body: { tenancy_id: 'ten_doesnotexist00' } }), 404, 'resource_not_found');
		expectError(await fx.call('POST', '/2025-09/units/unit_doesnotexist0/reserve', { body: { tenancy_id: tenancies[0].id } }), 404, 'resource_not_found');

		const ended = tenancies.find((t) => t.ends_at !== null && t.site.id === available.site.id) ?? tenancies.find((t) => t.ends_at !== null)!;
		const endedUnit = (await all(`/2025-09/units?status=available&site_id=${ended.site.id as string}`))[0];
		expectError(await fx.call('POST', `/2025-09/units/${endedUnit.id as string}/reserve`, { body: { tenancy_id: ended.id } }), 409, 'conflict');

		const elsewhere = tenancies.find((t) => t.ends_at === null && t.site.id !== available.site.id)!;
		const otherSite = expectError(
			await fx.call('POST', `/2025-09/units/${available.id as string}/reserve`, { body: { tenancy_id: elsewhere.id } }),
			422,
			'invalid_content',
		);
		expect(otherSite.details[0].pointer).toBe('/tenancy_id');

		const unavailable = (await list('/2025-09/units?status=unavailable'))[0];
		const local = tenancies.find((t) => t.ends_at === null && t.site.id === unavailable.site.id)!;
		expectError(await fx.call('POST', `/2025-09/units/${unavailable.id as string}/grant_access`, { body: { tenancy_id: local.id } }), 409, 'conflict');
		expectError(await fx.call('POST', `/2025-09/units/${unavailable.id as string}/deallocate`), 409, 'conflict');
	});

	test('overlock and remove overlock by contact', async () => {
		const tenancy = (await all('/2025-09/tenancies')).find((t) => t.ends_at === null)!;
		const contact = tenancy.contact.id as string;
		const occupied = (await all('/2025-09/units?status=occupied')).filter((u) =>
			(tenancy.unit_allocations as Json[]).some((a) => a.id === u.unit_allocation?.id),
		);
		expect(occupied.length).toBeGreaterThan(0);

		const locked = await fx.call('POST', '/2025-09/units/overlock', { body: { contact_id: contact } });
		expect(locked.status).toBe(200);
		expect(locked.body.success.message).toEqual(expect.any(String));
		expect([...(locked.body.meta.unit_ids as string[])].sort()).toEqual(occupied.map((u) => u.id).sort());
		for (const u of occupied) expect((await fx.call('GET', `/2025-09/units/${u.id as string}`)).body.unit.status).toBe('overlocked');

		const twice = await fx.call('POST', '/2025-09/units/overlock', { body: { contact_id: contact } });
		expect(twice.body.meta.unit_ids).toEqual([]);
		expectError(await fx.call('POST', `/2025-09/units/${occupied[0].id as string}/deallocate`), 409, 'conflict');

		const unlocked = await fx.call('POST', '/2025-09/units/remove_overlock', { body: { contact_id: contact } });
		expect([...(unlocked.body.meta.unit_ids as string[])].sort()).toEqual(occupied.map((u) => u.id).sort());
		for (const u of occupied) expect((await fx.call('GET', `/2025-09/units/${u.id as string}`)).body.unit.status).toBe('occupied');

		expectError(await fx.call('POST', '/2025-09/units/overlock', { body: { contact_id: 'con_doesnotexist00' } }), 404, 'resource_not_found');
		expectError(await fx.call('POST', '/2025-09/units/remove_overlock', { body: {} }), 422, 'invalid_content');
	});
});

describe('unit allocations, tenancies, subscriptions', () => {
	test('allocation filters: contact, site, unit, tenancy', async () => {
		const allocations = await all('/2025-09/unit_allocations');
		const tenancies = await all('/2025-09/tenancies');
		const units = await all('/2025-09/units');
		const first = tenancies.find((t) => t.ends_at === null)!;
		const byContact = await list(`/2025-09/unit_allocations?contact_id=${first.contact.id as string}`);
		const contactTenancies = tenancies.filter((t) => t.contact.id === first.contact.id).map((t) => t.id);
		expect(byContact.length).toBeGreaterThan(0);
		expect(byContact.every((a) => contactTenancies.includes(a.tenancy.id))).toBe(true);
		expect(byContact).toHaveLength(allocations.filter((a) => contactTenancies.includes(a.tenancy.id)).length);

		const site = first.site.id as string;
		const bySite = await all(`/2025-09/unit_allocations?site_id=${site}`);
		expect(bySite.length).toBeGreaterThan(0);
		expect(bySite.every((a) => units.find((u) => u.id === a.unit.id)!.site.id === site)).toBe(true);

		const byTenancy = await list(`/2025-09/unit_allocations?tenancy_id=${first.id as string}`);
		expect(byTenancy.every((a) => a.tenancy.id === first.id)).toBe(true);
		const byUnit = await list(`/2025-09/unit_allocations?unit_id=${allocations[0].unit.id as string}`);
		expect(byUnit.map((a) => a.id)).toContain(allocations[0].id);
		expectError(await fx.call('GET', '/2025-09/unit_allocations/alloc_missing00000'), 404, 'resource_not_found');
	});

	test('tenancies: 15 active and 5 ended; get with expand', async () => {
		const tenancies = await all('/2025-09/tenancies');
		expect(tenancies).toHaveLength(20);
		expect(tenancies.filter((t) => t.ends_at === null)).toHaveLength(15);
		expect(Object.keys(tenancies[0]).sort()).toEqual(
			['contact', 'created_at', 'ends_at', 'id', 'order', 'site', 'starts_at', 'subscription', 'unit_allocations', 'updated_at'].sort(),
		);
		const one = await fx.call('GET', `/2025-09/tenancies/${tenancies[0].id as string}?expand=subscription,contact`);
		expect(one.status).toBe(200);
		expect(one.body.tenancy.subscription.billing_period).toMatch(/^(monthly|weekly)$/);
		expect(one.body.tenancy.contact.email).toContain('@');
		const asc = await list('/2025-09/tenancies?sort_direction=ASC&limit=100');
		const created = asc.map((t) => Date.parse(t.created_at as string));
		expect(created).toEqual([...created].sort((a, b) => a - b));
	});

	test('subscriptions: monthly and weekly, renewal dates ahead for active ones', async () => {
		const subscriptions = await all('/2025-09/subscriptions');
		expect(subscriptions).toHaveLength(20);
		expect(new Set(subscriptions.map((s) => s.billing_period))).toEqual(new Set(['monthly', 'weekly']));
		const now = Date.now();
		for (const s of subscriptions.filter((x) => !x.cancelled)) {
			expect(Date.parse(s.current_period.ends_at as string)).toBeGreaterThan(now);
			expect(Date.parse(s.current_period.starts_at as string)).toBeLessThan(Date.parse(s.current_period.ends_at as string));
			expect(s.ends_at).toBeNull();
			expect((s.line_items as Json[]).some((l) => l.type === 'unit_type')).toBe(true);
		}
		const cancelled = subscriptions.filter((s) => s.cancelled);
		expect(cancelled).toHaveLength(5);
		expect(cancelled.every((s) => s.ends_at !== null && s.cancellation_reason !== null)).toBe(true);
		const one = await fx.call('GET', `/2025-09/subscriptions/${subscriptions[0].id as string}`);
		expect(one.body.subscription).toEqual(subscriptions[0]);
		expectError(await fx.call('GET', '/2025-09/subscriptions/sub_missing0000000'), 404, 'resource_not_found');
	});
});

describe('orders: listing', () => {
	test('at least 260 orders, paginated with pagy meta', async () => {
		const first = await fx.call('GET', '/2025-09/orders?limit=100');
		const { count } = first.body.meta.pagination as Json;
		expect(count).toBeGreaterThanOrEqual(260);
		expect(first.body.meta.pagination).toMatchObject({ page: 1, limit: 100, pages: Math.ceil(count / 100), next: 2, prev: null, last: Math.ceil(count / 100) });
		const last = await fx.call('GET', `/2025-09/orders?limit=100&page=${Math.ceil(count / 100)}`);
		expect(last.body.orders).toHaveLength(count - 100 * (Math.ceil(count / 100) - 1));
		expect(last.body.meta.pagination).toMatchObject({ next: null, prev: Math.ceil(count / 100) - 1 });
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
			['source', ['backoffice', 'storefront', 'storefront_multi_step', 'import', 'public_api', 'unspecified']],
			['billing_period', ['monthly', 'weekly', 'every_four_weeks', 'every_three_months', 'every_six_months', 'yearly', 'one_time', null]],
		] as const) {
			expect(new Set(orders.map((o) => o[field]))).toEqual(new Set(values));
		}
		expect(new Set(orders.map((o) => o.site.id)).size).toBe(4);
		expect(new Set(orders.map((o) => o.contact?.id)).size).toBeGreaterThan(10);
		expect(Object.keys(orders[0]).sort()).toEqual(
			[
				'billing_period', 'contact', 'contract_template', 'coupon', 'created_at', 'email_notifications', 'id', 'line_items', 'metadata',
				'one_time_total', 'one_time_total_excluding_tax', 'payment_method', 'payment_url', 'purchase_order_number', 'site', 'source', 'starts_at',
				'status', 'subscription', 'subtotal', 'tax', 'tenancy', 'total', 'total_discount', 'total_excluding_tax', 'updated_at',
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
		expect(periods).toHaveLength(count((o) => o.billing_period === 'one_time' || o.billing_period === 'yearly'));

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
		expect(both).toHaveLength(count((o) => o.metadata.campaign === 'autumn-2025' && o.status === 'completed'));

		expectError(await fx.call('GET', '/2025-09/orders?status=paid'), 422, 'invalid_url_param');
		expectError(await fx.call('GET', '/2025-09/orders?billing_period=daily'), 422, 'invalid_url_param');
	});

	test('windows: created, updated and starts (after inclusive, before exclusive); sort by updated_at', async () => {
		const orders = await all('/2025-09/orders');
		const starting = orders.filter((o) => o.starts_at !== null).sort((a, b) => Date.parse(a.starts_at as string) - Date.parse(b.starts_at as string));
		const bound = starting[Math.floor(starting.length / 2)].starts_at as string;
		const after = await all(`/2025-09/orders?starts_after=${encodeURIComponent(bound)}`);
		const before = await all(`/2025-09/orders?starts_before=${encodeURIComponent(bound)}`);
		expect(after.length + before.length).toBe(starting.length);
		expect(after.every((o) => Date.parse(o.starts_at as string) >= Date.parse(bound))).toBe(true);
		expect(before.every((o) => Date.parse(o.starts_at as string) < Date.parse(bound))).toBe(true);
		expect(after.some((o) => o.starts_at === bound)).toBe(true);

		const createdBound = orders[100].created_at as string;
		const createdAfter = await all(`/2025-09/orders?created_after=${encodeURIComponent(createdBound)}`);
		expect(createdAfter).toHaveLength(101);
		const window = await all(
			`/2025-09/orders?created_after=${encodeURIComponent(orders[150].created_at as string)}&created_before=${encodeURIComponent(createdBound)}`,
		);
		expect(window).toHaveLength(50);
		const updatedAfter = await all(`/2025-09/orders?updated_after=${encodeURIComponent(createdBound)}`);
		expect(updatedAfter.every((o) => Date.parse(o.updated_at as string) >= Date.parse(createdBound))).toBe(true);
		expectError(await fx.call('GET', '/2025-09/orders?starts_after=yesterday'), 422, 'invalid_url_param');

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

		const invalid = expectError(await fx.call('GET', `/2025-09/orders/${order.id as string}/validate`), 422, 'invalid_content');
		expect((invalid.details as Json[]).map((d) => d.pointer)).toEqual(['/starts_at', '/billing_period', '/contact', '/line_items']);
		expect((invalid.details as Json[]).every((d) => typeof d.message === 'string' && d.message.length > 0)).toBe(true);

		const refused = expectError(await fx.call('POST', `/2025-09/orders/${order.id as string}/finalize`), 422, 'invalid_content');
		expect(refused.details).toHaveLength(4);
		expect((await fx.call('GET', `/2025-09/orders/${order.id as string}`)).body.order.status).toBe('draft');

		// A protection line item alone still lacks a unit type line item.
		const line = await fx.call('POST', `/2025-09/orders/${order.id as string}/line_items`, {
			body: { type: 'protection', item: { id: protection.id }, price: { amount: 700 } },
		});
		expect(line.status).toBe(201);
		expect(line.body.line_item).toMatchObject({ type: 'protection', quantity: 1, item: { id: protection.id }, price: { amount: 700 } });
		const still = expectError(await fx.call('GET', `/2025-09/orders/${order.id as string}/validate`), 422, 'invalid_content');
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
		const monthly = (unitType.prices as Json[]).find((p) => p.billing_period === 'monthly')!.price.amount as number;
		expect(order.subtotal.amount).toBe(monthly);
		expect(order.tax.amount).toBe(Math.round(monthly * 0.2));
		expect(order.total.amount).toBe(monthly + Math.round(monthly * 0.2));
		expect(order.email_notifications).toMatchObject({ booking_confirmation: false, move_in_day: true });
		expect(order).toMatchObject({ purchase_order_number: 'PO-42', metadata: { external_id: 'n8n-1' }, contact: { id: contactId } });
		expect(order.line_items).toHaveLength(1);

		const extra = await fx.call('POST', `/2025-09/orders/${order.id as string}/line_items`, {
			body: { type: 'unit_type', item: { id: unitType.id }, quantity: 2, price: { amount: 1000 } },
		});
		expect(extra.status).toBe(201);
		expect(extra.body.line_item.total_excluding_tax.amount).toBe(2000);
		expect(extra.body.line_item.total.amount).toBe(2400);
		const grown = (await fx.call('GET', `/2025-09/orders/${order.id as string}?expand=line_items`)).body.order as Json;
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

		expectError(await fx.call('POST', `/2025-09/orders/${order.id as string}/finalize`), 409, 'conflict');
		expectError(
			await fx.call('POST', `/2025-09/orders/${order.id as string}/line_items`, { body: { type: 'unit_type', item: { id: unitType.id } } }),
			409,
			'conflict',
		);
		const listed = await list(`/2025-09/orders?source=public_api&status=finalized&metadata[external_id]=n8n-1`);
		expect(listed.map((o) => o.id)).toEqual([order.id]);
	});

	test('create with an inline contact and finalize in one go; nothing is created when that fails', async () => {
		const before = (await fx.call('GET', '/2025-09/orders?limit=1')).body.meta.pagination.count as number;
		const email = 'new.customer@example.com';
		const failing = await fx.call('POST', '/2025-09/orders', {
			body: { site: { id: site.id }, contact: { email, full_name: 'New Customer' }, finalize: { cancel_redirect_url: 'https://example.com/x' } },
		});
		expectError(failing, 422, 'invalid_content');
		expect((await fx.call('GET', '/2025-09/orders?limit=1')).body.meta.pagination.count).toBe(before);
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
		const contact = await fx.call('GET', `/2025-09/contacts/${created.body.order.contact.id as string}`);
		expect(contact.status).toBe(200);
		expect(contact.body.contact.email).toBe(email);
		const weekly = (unitType.prices as Json[]).find((p) => p.billing_period === 'weekly')!.price.amount as number;
		const protectionWeekly = (protection.prices as Json[]).find((p) => p.billing_period === 'weekly')!.price.amount as number;
		expect(created.body.order.subtotal.amount).toBe(weekly + protectionWeekly);
	});

	test('invalid bodies and references', async () => {
		const badPeriod = expectError(await fx.call('POST', '/2025-09/orders', { body: { site: { id: site.id }, billing_period: 'daily' } }), 422, 'invalid_content');
		expect(badPeriod.details[0].pointer).toBe('/billing_period');
		const unknownField = expectError(await fx.call('POST', '/2025-09/orders', { body: { site: { id: site.id }, colour: 'red' } }), 422, 'invalid_content');
		expect(unknownField.details[0].pointer).toBe('/colour');
		expectError(await fx.call('POST', '/2025-09/orders', { body: { site: { id: 'site_doesnotexist0' } } }), 404, 'resource_not_found');
		const wrongItem = expectError(
			await fx.call('POST', '/2025-09/orders', { body: { site: { id: site.id }, line_items: [{ type: 'unit_type', item: { id: protection.id } }] } }),
			422,
			'invalid_content',
		);
		expect(wrongItem.details[0].pointer).toBe('/line_items/0/item/id');

		const draft = (await fx.call('POST', '/2025-09/orders', { body: { site: { id: site.id } } })).body.order as Json;
		const lineType = expectError(
			await fx.call('POST', `/2025-09/orders/${draft.id as string}/line_items`, { body: { type: 'gift', item: { id: unitType.id } } }),
			422,
			'invalid_content',
		);
		expect(lineType.details[0].pointer).toBe('/type');
		expectError(
			await fx.call('POST', `/2025-09/orders/${draft.id as string}/line_items`, { body: { type: 'product', item: { id: 'prod_doesnotexist0' } } }),
			404,
			'resource_not_found',
		);
		expectError(await fx.call('POST', '/2025-09/orders/order_doesnotexist/line_items', { body: { type: 'unit_type', item: { id: unitType.id } } }), 404, 'resource_not_found');
		expectError(await fx.call('GET', '/2025-09/orders/order_doesnotexist/validate'), 404, 'resource_not_found');
	});

	test('seeded orders in every state validate as expected', async () => {
		const drafts = await all('/2025-09/orders?status=draft');
		const empty = drafts.find((o) => o.contact === null && o.line_items.length === 0)!;
		const invalid = expectError(await fx.call('GET', `/2025-09/orders/${empty.id as string}/validate`), 422, 'invalid_content');
		expect(invalid.details).toHaveLength(4);
		const completed = (await list('/2025-09/orders?status=completed&source=backoffice'))[0];
		expectError(await fx.call('POST', `/2025-09/orders/${completed.id as string}/finalize`), 409, 'conflict');
		const abandoned = (await list('/2025-09/orders?status=abandoned'))[0];
		expectError(await fx.call('POST', `/2025-09/orders/${abandoned.id as string}/finalize`), 409, 'conflict');
	});

	test('order.created and unit.updated webhooks were delivered', async () => {
		await fx.sandbox.whenDeliveriesIdle();
		const orderEvents = receiver.events.filter((e) => e.type === 'order.created');
		expect(orderEvents.length).toBeGreaterThanOrEqual(3);
		expect(orderEvents.every((e) => typeof e.data.order.id === 'string' && e.data.order.source === 'public_api')).toBe(true);
		const unitEvents = receiver.events.filter((e) => e.type === 'unit.updated');
		expect(unitEvents.length).toBeGreaterThanOrEqual(5);
		expect(unitEvents.map((e) => e.data.unit.status)).toEqual(expect.arrayContaining(['reserved', 'occupied', 'available', 'overlocked']));
	});
});

describe('invoices and credit notes', () => {
	test('every status, type and collection status; filters', async () => {
		const invoices = await all('/2025-09/invoices');
		expect(invoices).toHaveLength(20);
		for (const [param, values] of [
			['status', ['draft', 'deleted', 'open', 'paid', 'uncollectible', 'void']],
			['type', ['subscription', 'ad_hoc', 'deposit']],
			['collection_status', ['pending', 'overdue', 'collected', 'not_collected']],
		] as const) {
			expect(new Set(invoices.map((i) => i[param]))).toEqual(new Set(values));
			const filtered = await all(`/2025-09/invoices?${param}=${values[0]},${values[1]}`);
			expect(filtered).toHaveLength(invoices.filter((i) => i[param] === values[0] || i[param] === values[1]).length);
		}
		const contact = invoices[0].contact.id as string;
		expect(await all(`/2025-09/invoices?contact_id=${contact}`)).toHaveLength(4);
		expect(new Set(invoices.map((i) => i.contact.id)).size).toBe(5);
		for (const param of ['site', 'subscription', 'tenancy'] as const) {
			const id = invoices[0][param].id as string;
			const filtered = await all(`/2025-09/invoices?${param}_id=${id}`);
			expect(filtered.length).toBeGreaterThan(0);
			expect(filtered).toHaveLength(invoices.filter((i) => i[param].id === id).length);
		}
		expectError(await fx.call('GET', '/2025-09/invoices?status=late'), 422, 'invalid_url_param');
		expect(Object.keys(invoices[0]).sort()).toEqual(
			[
				'amount_due', 'amount_paid', 'collection_status', 'contact', 'created_at', 'due_date', 'finalized_at', 'id', 'line_items', 'number',
				'paid_at', 'period_end', 'period_start', 'post_payment_credit_notes_amount', 'pre_payment_credit_notes_amount', 'purchase_order_number',
				'refund_status', 'site', 'status', 'subscription', 'subtotal', 'tax', 'tenancy', 'total', 'type', 'updated_at', 'voided_at',
			].sort(),
		);
	});

	test('sort by due date and the due window', async () => {
		const invoices = await all('/2025-09/invoices?sort_by=due_date&sort_direction=ASC');
		const due = invoices.map((i) => Date.parse(i.due_date as string));
		expect(due).toEqual([...due].sort((a, b) => a - b));
		const now = new Date().toISOString();
		const overdue = await all(`/2025-09/invoices?due_before=${encodeURIComponent(now)}&collection_status=overdue`);
		expect(overdue.length).toBeGreaterThan(0);
		const after = await all(`/2025-09/invoices?due_after=${encodeURIComponent(now)}`);
		const before = await all(`/2025-09/invoices?due_before=${encodeURIComponent(now)}`);
		expect(after.length + before.length).toBe(20);
		expect(after.every((i) => i.collection_status === 'pending')).toBe(true);
		const byUpdated = await all('/2025-09/invoices?sort_by=updated_at');
		const updated = byUpdated.map((i) => Date.parse(i.updated_at as string));
		expect(updated).toEqual([...updated].sort((a, b) => b - a));
		expectError(await fx.call('GET', '/2025-09/invoices?sort_by=total'), 422, 'invalid_url_param');
	});

	test('get as JSON and as PDF', async () => {
		const invoice = (await list('/2025-09/invoices?status=paid'))[0];
		const json = await fx.call('GET', `/2025-09/invoices/${invoice.id as string}?expand=contact`);
		expect(json.body.invoice.contact.email).toContain('@');
		const pdf = await fx.call('GET', `/2025-09/invoices/${invoice.id as string}`, { accept: 'application/pdf' });
		expect(pdf.status).toBe(200);
		expect(pdf.headers.get('content-type')).toBe('application/pdf');
		expect(pdf.raw.subarray(0, 5).toString('latin1')).toBe('%PDF-');
		expect(pdf.raw.toString('latin1')).toContain(invoice.number as string);
		expect(pdf.raw.toString('latin1').trimEnd().endsWith('%%EOF')).toBe(true);
		expectError(await fx.call('GET', `/2025-09/invoices/${invoice.id as string}`, { accept: 'image/png' }), 406, 'invalid_format');
		expectError(await fx.call('GET', '/2025-09/invoices/inv_doesnotexist00'), 404, 'resource_not_found');
	});

	test('credit notes reference invoices and render as PDF', async () => {
		const notes = await all('/2025-09/credit_notes');
		expect(notes).toHaveLength(3);
		expect(new Set(notes.map((n) => n.type))).toEqual(new Set(['pre_payment', 'post_payment']));
		const note = notes[0];
		const invoice = (await fx.call('GET', `/2025-09/invoices/${note.invoice.id as string}`)).body.invoice as Json;
		const field = note.type === 'pre_payment' ? 'pre_payment_credit_notes_amount' : 'post_payment_credit_notes_amount';
		expect(invoice[field].amount).toBe(note.total.amount);
		expect(note.number).toContain(invoice.number as string);
		const one = await fx.call('GET', `/2025-09/credit_notes/${note.id as string}?expand=invoice`);
		expect(one.body.credit_note.invoice.number).toBe(invoice.number);
		const pdf = await fx.call('GET', `/2025-09/credit_notes/${note.id as string}`, { accept: 'application/pdf' });
		expect(pdf.headers.get('content-type')).toBe('application/pdf');
		expect(pdf.raw.toString('latin1')).toContain(note.number as string);
	});
});
