/** Units (`/units`) over real HTTP: filters, reserve/grant access/deallocate, overlock, and the unit.updated events they emit. */
import { expectError, pages, type Json } from '../calls';
import { useSandboxWithClients, useReceiver } from '../fixture';

// The tests build on each other (a unit reserved, then granted access, then released).
const fx = useSandboxWithClients({
	seed: 'demo',
	allowHttpWebhooks: true,
	resetEach: false,
	client: { redirect: 'follow' },
});
const receiver = useReceiver(fx, 'billing tests', ['order.created', 'unit.updated']);
const { list, all } = pages(fx);

describe('units', () => {
	test('list with status (overlock spelling too), site and unit type filters', async () => {
		const units = await all('/2025-09/units');
		expect(units).toHaveLength(60);
		const statuses = new Set(units.map((u) => u.status));
		for (const s of [
			'available',
			'reserved',
			'occupied',
			'overlocked',
			'unavailable',
			'repossessed',
		])
			expect(statuses).toContain(s);
		expect(Object.keys(units[0]).sort()).toEqual([
			'created_at',
			'id',
			'reference_id',
			'site',
			'status',
			'unit_allocation',
			'unit_type',
			'updated_at',
		]);

		const overlock = await list('/2025-09/units?status=overlock');
		expect(overlock.length).toBeGreaterThan(0);
		expect(overlock.every((u) => u.status === 'overlocked')).toBe(true);
		expect((await list('/2025-09/units?status=overlocked')).map((u) => u.id)).toEqual(
			overlock.map((u) => u.id),
		);

		const two = await all('/2025-09/units?status=available,reserved');
		expect(new Set(two.map((u) => u.status))).toEqual(new Set(['available', 'reserved']));
		expect(two).toHaveLength(
			units.filter((u) => u.status === 'available' || u.status === 'reserved').length,
		);

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
		expectError(
			await fx.call('GET', '/2025-09/units/unit_missing000000'),
			404,
			'resource_not_found',
		);
	});

	test('reserve → grant_access → deallocate, with conflicts on invalid transitions', async () => {
		const tenancies = await all('/2025-09/tenancies');
		const available = await all('/2025-09/units?status=available');
		const unit = available.find(
			(u) => tenancies.filter((t) => t.ends_at === null && t.site.id === u.site.id).length >= 2,
		)!;
		const [tenancy, other] = tenancies.filter(
			(t) => t.ends_at === null && t.site.id === unit.site.id,
		);

		const reserved = await fx.call('POST', `/2025-09/units/${unit.id as string}/reserve`, {
			body: { tenancy_id: tenancy.id },
		});
		expect(reserved.status).toBe(200);
		expect(reserved.body.unit.status).toBe('reserved');
		const allocationId = reserved.body.unit.unit_allocation.id as string;
		const allocation = (await fx.call('GET', `/2025-09/unit_allocations/${allocationId}`)).body
			.unit_allocation as Json;
		expect(allocation).toMatchObject({
			tenancy: { id: tenancy.id },
			unit: { id: unit.id },
			granted_access_at: null,
		});
		expect(Date.parse(allocation.reserved_at as string)).not.toBeNaN();
		expect(Object.keys(allocation).sort()).toEqual([
			'created_at',
			'granted_access_at',
			'id',
			'reserved_at',
			'tenancy',
			'unit',
			'updated_at',
		]);
		const withAllocation = (await fx.call('GET', `/2025-09/tenancies/${tenancy.id as string}`)).body
			.tenancy as Json;
		expect(withAllocation.unit_allocations).toContainEqual({ id: allocationId });

		expectError(
			await fx.call('POST', `/2025-09/units/${unit.id as string}/reserve`, {
				body: { tenancy_id: tenancy.id },
			}),
			409,
			'conflict',
		);
		expectError(
			await fx.call('POST', `/2025-09/units/${unit.id as string}/grant_access`, {
				body: { tenancy_id: other.id },
			}),
			409,
			'conflict',
		);

		const granted = await fx.call('POST', `/2025-09/units/${unit.id as string}/grant_access`, {
			body: { tenancy_id: tenancy.id },
		});
		expect(granted.status).toBe(200);
		expect(granted.body.unit).toMatchObject({
			status: 'occupied',
			unit_allocation: { id: allocationId },
		});
		const grantedAllocation = (await fx.call('GET', `/2025-09/unit_allocations/${allocationId}`))
			.body.unit_allocation as Json;
		expect(Date.parse(grantedAllocation.granted_access_at as string)).not.toBeNaN();
		expectError(
			await fx.call('POST', `/2025-09/units/${unit.id as string}/grant_access`, {
				body: { tenancy_id: tenancy.id },
			}),
			409,
			'conflict',
		);

		const released = await fx.call('POST', `/2025-09/units/${unit.id as string}/deallocate`);
		expect(released.status).toBe(200);
		expect(released.body.unit).toMatchObject({ status: 'available', unit_allocation: null });
		const after = (await fx.call('GET', `/2025-09/tenancies/${tenancy.id as string}`)).body
			.tenancy as Json;
		expect(after.unit_allocations).not.toContainEqual({ id: allocationId });
		expectError(
			await fx.call('POST', `/2025-09/units/${unit.id as string}/deallocate`),
			409,
			'conflict',
		);

		// Straight to access from available: a new allocation with both timestamps.
		const direct = await fx.call('POST', `/2025-09/units/${unit.id as string}/grant_access`, {
			body: { tenancy_id: other.id },
		});
		expect(direct.body.unit.status).toBe('occupied');
		const directAllocation = (
			await fx.call(
				'GET',
				`/2025-09/unit_allocations/${direct.body.unit.unit_allocation.id as string}`,
			)
		).body.unit_allocation as Json;
		expect(directAllocation.id).not.toBe(allocationId);
		expect(directAllocation.granted_access_at).not.toBeNull();
		expect(directAllocation.reserved_at).not.toBeNull();
	});

	test('unit action errors: body, unknown tenancy, ended tenancy, other site, unavailable unit', async () => {
		const tenancies = await all('/2025-09/tenancies');
		const available = (await all('/2025-09/units?status=available'))[0];
		const noBody = expectError(
			await fx.call('POST', `/2025-09/units/${available.id as string}/reserve`, { body: {} }),
			422,
			'invalid_content',
		);
		expect(noBody.details).toHaveLength(1);
		const badPrefix = expectError(
			await fx.call('POST', `/2025-09/units/${available.id as string}/reserve`, {
				body: { tenancy_id: 'con_x' },
			}),
			422,
			'invalid_content',
		);
		expect(badPrefix.details[0].pointer).toBe('/tenancy_id');
		expectError(
			await fx.call('POST', `/2025-09/units/${available.id as string}/reserve`, {
				body: { tenancy_id: 'ten_doesnotexist00' },
			}),
			404,
			'resource_not_found',
		);
		expectError(
			await fx.call('POST', '/2025-09/units/unit_doesnotexist0/reserve', {
				body: { tenancy_id: tenancies[0].id },
			}),
			404,
			'resource_not_found',
		);

		const ended =
			tenancies.find((t) => t.ends_at !== null && t.site.id === available.site.id) ??
			tenancies.find((t) => t.ends_at !== null)!;
		const endedUnit = (
			await all(`/2025-09/units?status=available&site_id=${ended.site.id as string}`)
		)[0];
		expectError(
			await fx.call('POST', `/2025-09/units/${endedUnit.id as string}/reserve`, {
				body: { tenancy_id: ended.id },
			}),
			409,
			'conflict',
		);

		const elsewhere = tenancies.find((t) => t.ends_at === null && t.site.id !== available.site.id)!;
		const otherSite = expectError(
			await fx.call('POST', `/2025-09/units/${available.id as string}/reserve`, {
				body: { tenancy_id: elsewhere.id },
			}),
			422,
			'invalid_content',
		);
		expect(otherSite.details[0].pointer).toBe('/tenancy_id');

		const unavailable = (await list('/2025-09/units?status=unavailable'))[0];
		const local = tenancies.find((t) => t.ends_at === null && t.site.id === unavailable.site.id)!;
		expectError(
			await fx.call('POST', `/2025-09/units/${unavailable.id as string}/grant_access`, {
				body: { tenancy_id: local.id },
			}),
			409,
			'conflict',
		);
		expectError(
			await fx.call('POST', `/2025-09/units/${unavailable.id as string}/deallocate`),
			409,
			'conflict',
		);
	});

	test('overlock and remove overlock by contact', async () => {
		const tenancy = (await all('/2025-09/tenancies')).find((t) => t.ends_at === null)!;
		const contact = tenancy.contact.id as string;
		const occupied = (await all('/2025-09/units?status=occupied')).filter((u) =>
			(tenancy.unit_allocations as Json[]).some((a) => a.id === u.unit_allocation?.id),
		);
		expect(occupied.length).toBeGreaterThan(0);

		const locked = await fx.call('POST', '/2025-09/units/overlock', {
			body: { contact_id: contact },
		});
		expect(locked.status).toBe(200);
		expect(locked.body.success.message).toEqual(expect.any(String));
		expect([...(locked.body.meta.unit_ids as string[])].sort()).toEqual(
			occupied.map((u) => u.id).sort(),
		);
		for (const u of occupied)
			expect((await fx.call('GET', `/2025-09/units/${u.id as string}`)).body.unit.status).toBe(
				'overlocked',
			);

		const twice = await fx.call('POST', '/2025-09/units/overlock', {
			body: { contact_id: contact },
		});
		expect(twice.body.meta.unit_ids).toEqual([]);
		expectError(
			await fx.call('POST', `/2025-09/units/${occupied[0].id as string}/deallocate`),
			409,
			'conflict',
		);

		const unlocked = await fx.call('POST', '/2025-09/units/remove_overlock', {
			body: { contact_id: contact },
		});
		expect([...(unlocked.body.meta.unit_ids as string[])].sort()).toEqual(
			occupied.map((u) => u.id).sort(),
		);
		for (const u of occupied)
			expect((await fx.call('GET', `/2025-09/units/${u.id as string}`)).body.unit.status).toBe(
				'occupied',
			);

		expectError(
			await fx.call('POST', '/2025-09/units/overlock', {
				body: { contact_id: 'con_doesnotexist00' },
			}),
			404,
			'resource_not_found',
		);
		expectError(
			await fx.call('POST', '/2025-09/units/remove_overlock', { body: {} }),
			422,
			'invalid_content',
		);
	});

	test('unit.updated webhooks were delivered', async () => {
		await fx.sandbox.whenDeliveriesIdle();
		const unitEvents = receiver.events.filter((e) => e.type === 'unit.updated');
		expect(unitEvents.length).toBeGreaterThanOrEqual(5);
		expect(unitEvents.map((e) => e.data.unit.status)).toEqual(
			expect.arrayContaining(['reserved', 'occupied', 'available', 'overlocked']),
		);
	});
});
