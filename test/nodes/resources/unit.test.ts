import { searchUnits } from '../../../nodes/Stora/methods/listSearch/inventory';
import { loadOptionsContext } from '../../helpers/loadOptions';
import { locator as rl } from '../../helpers/n8n';
import { idOf, oldestFirst } from '../../helpers/records';
import type { StateRecord } from '../../../sandbox/client';
import { useResourceFixture } from '../../helpers/sandboxFixture';

describe('Stora node: Unit', () => {
	const fixture = useResourceFixture();
	const { client, run } = fixture;

	/** The editor's context for the inventory pickers' lists. */
	const context = () => loadOptionsContext(fixture.credentials(), {}, 'parameters.unitTypeId');

	/** An active tenancy (no end) and a unit in the given status at the same site. */
	async function tenancyAndUnit(status: string) {
		const tenancies = (await client.state('tenancies')).filter(
			(tenancy) => tenancy.ends_at === null,
		);
		const units = await client.state('units');
		for (const tenancy of tenancies) {
			const unit = units.find(
				(candidate) => candidate.status === status && idOf(candidate.site) === idOf(tenancy.site),
			);
			if (unit) return { tenancy, unit };
		}
		throw new Error(`no ${status} unit next to an active tenancy in the seed`);
	}

	it('gets many units filtered by site, unit type and status, sending each filter comma-separated', async () => {
		const units = await client.state('units');
		const overlocked = units.find((unit) => unit.status === 'overlocked')!;
		const siteId = idOf(overlocked.site)!;
		const unitTypeIds = [
			...new Set(
				units.filter((unit) => idOf(unit.site) === siteId).map((unit) => idOf(unit.unit_type)!),
			),
		].slice(0, 2);
		expect(unitTypeIds).toContain(idOf(overlocked.unit_type));

		const result = await run({
			resource: 'unit',
			operation: 'getAll',
			returnAll: false,
			limit: 100,
			filters: {
				siteIds: [siteId],
				unitTypeIds: unitTypeIds.join(' , '),
				status: ['available', 'overlock'],
			},
			options: { expand: ['unit_type'], sortBy: 'created_at', sortDirection: 'ASC' },
		});
		expect(result.error).toBeUndefined();
		const requests = await client.requests();
		expect(requests).toHaveLength(1);
		expect(requests[0]).toMatchObject({ method: 'GET', path: '/2025-09/units' });
		expect(requests[0].query).toEqual({
			limit: '100',
			site_id: siteId,
			unit_type_id: unitTypeIds.join(','),
			status: 'available,overlock',
			expand: 'unit_type',
			sort_by: 'created_at',
			sort_direction: 'ASC',
		});
		const expected = units
			.filter(
				(unit) =>
					idOf(unit.site) === siteId &&
					unitTypeIds.includes(idOf(unit.unit_type)!) &&
					['available', 'overlocked'].includes(String(unit.status)),
			)
			.sort(oldestFirst);
		expect(result.items.map((item) => item.json.id)).toEqual(expected.map((unit) => unit.id));
		expect(result.items.map((item) => item.json.status)).toContain('overlocked');
		expect((result.items[0].json.unit_type as StateRecord).name).toBeDefined();
	});

	it('returns every unit of a site with Return All, keeping the filter on every page', async () => {
		const [template] = await client.state('units');
		const extra = Array.from({ length: 120 }, (_, n) => {
			const copy: Record<string, unknown> = {
				...template,
				reference_id: `EXTRA-${n}`,
				status: 'available',
			};
			delete copy.id;
			return { ...copy, unit_allocation: null };
		});
		await client.insert('units', extra);
		const siteId = idOf(template.site)!;
		const expected = (await client.state('units')).filter((unit) => idOf(unit.site) === siteId);
		expect(expected.length).toBeGreaterThan(100);

		const result = await run({
			resource: 'unit',
			operation: 'getAll',
			returnAll: true,
			filters: { siteIds: [siteId] },
		});
		expect(result.error).toBeUndefined();
		const ids = result.items.map((item) => item.json.id);
		expect(new Set(ids).size).toBe(ids.length);
		expect(ids.sort()).toEqual(expected.map((unit) => unit.id).sort());
		for (const request of await client.requests()) {
			expect(request.query).toMatchObject({ site_id: siteId, limit: '100' });
		}
	});

	it('rejects a filter ID of another kind before any request', async () => {
		const [unitType] = await client.state('unit_types');
		const result = await run({
			resource: 'unit',
			operation: 'getAll',
			returnAll: false,
			limit: 10,
			filters: { siteIds: [unitType.id] },
		});
		expect(result.error?.message).toContain(
			`Site Names or IDs: "${unitType.id}" is not a valid ID`,
		);
		expect(await client.requests()).toEqual([]);
	});

	it('gets a unit with its allocation expanded', async () => {
		const unit = (await client.state('units')).find((record) => record.status === 'occupied')!;
		const [allocation] = (await client.state('unit_allocations')).filter(
			(record) => record.id === idOf(unit.unit_allocation),
		);
		const result = await run({
			resource: 'unit',
			operation: 'get',
			unitId: rl(unit.id),
			options: { expand: ['unit_allocation'] },
		});
		expect(result.error).toBeUndefined();
		const requests = await client.requests();
		expect(requests[0]).toMatchObject({
			method: 'GET',
			path: `/2025-09/units/${unit.id}`,
			query: { expand: 'unit_allocation' },
		});
		expect(result.items[0].json).toEqual({ ...unit, unit_allocation: allocation });
	});

	it('reserves, grants access to and deallocates a unit for a tenancy', async () => {
		const { tenancy, unit } = await tenancyAndUnit('available');

		const reserved = await run({
			resource: 'unit',
			operation: 'reserve',
			unitId: rl(unit.id),
			unitTenancyId: rl(tenancy.id),
		});
		expect(reserved.error).toBeUndefined();
		expect(reserved.items[0].json).toMatchObject({ id: unit.id, status: 'reserved' });
		const allocationId = idOf(reserved.items[0].json.unit_allocation);
		expect(allocationId).toMatch(/^alloc_/);

		const granted = await run({
			resource: 'unit',
			operation: 'grantAccess',
			unitId: {
				__rl: true,
				mode: 'list',
				value: unit.id,
				cachedResultName: String(unit.reference_id),
			},
			unitTenancyId: rl(tenancy.id),
		});
		expect(granted.error).toBeUndefined();
		expect(granted.items[0].json).toMatchObject({
			id: unit.id,
			status: 'occupied',
			unit_allocation: { id: allocationId },
		});

		const released = await run({ resource: 'unit', operation: 'deallocate', unitId: rl(unit.id) });
		expect(released.error).toBeUndefined();
		expect(released.items[0].json).toMatchObject({
			id: unit.id,
			status: 'available',
			unit_allocation: null,
		});

		const requests = await client.requests();
		expect(requests.map((request) => [request.method, request.path])).toEqual([
			['POST', `/2025-09/units/${unit.id}/reserve`],
			['POST', `/2025-09/units/${unit.id}/grant_access`],
			['POST', `/2025-09/units/${unit.id}/deallocate`],
		]);
		expect(requests[0].body).toEqual({ tenancy_id: tenancy.id });
		expect(requests[1].body).toEqual({ tenancy_id: tenancy.id });
		expect(Object.keys((requests[2].body as object | null) ?? {})).toEqual([]);
		for (const request of requests) expect(request.headers['idempotency-key']).toMatch(/^n8n-/);

		const [stored] = (await client.state('units')).filter((record) => record.id === unit.id);
		expect(released.items[0].json).toEqual(stored);
		const [allocation] = (await client.state('unit_allocations')).filter(
			(record) => record.id === allocationId,
		);
		expect(allocation).toMatchObject({ tenancy: { id: tenancy.id }, unit: { id: unit.id } });
		expect(allocation.granted_access_at).not.toBeNull();
	});

	it('surfaces the API conflict when the unit is reserved for another tenancy', async () => {
		const units = await client.state('units');
		const allocations = await client.state('unit_allocations');
		const reserved = units.find((unit) => unit.status === 'reserved')!;
		const holder = idOf(
			allocations.find((allocation) => allocation.id === idOf(reserved.unit_allocation))?.tenancy,
		);
		const other = (await client.state('tenancies')).find(
			(tenancy) =>
				tenancy.ends_at === null &&
				tenancy.id !== holder &&
				idOf(tenancy.site) === idOf(reserved.site),
		)!;
		const result = await run({
			resource: 'unit',
			operation: 'grantAccess',
			unitId: rl(reserved.id),
			unitTenancyId: rl(other.id),
		});
		expect(result.error?.message).toMatch(/\[conflict\]$/);
		expect((result.error as { httpCode?: string }).httpCode).toBe('409');
		expect((await client.state('units')).find((unit) => unit.id === reserved.id)?.status).toBe(
			'reserved',
		);
	});

	it('rejects a tenancy ID of another kind before any request', async () => {
		const { unit } = await tenancyAndUnit('available');
		const [contact] = await client.state('contacts');
		const result = await run({
			resource: 'unit',
			operation: 'reserve',
			unitId: rl(unit.id),
			unitTenancyId: rl(contact.id),
		});
		expect(result.error?.message).toMatch(/tenancy ID starts with "ten_"/);
		expect(await client.requests()).toEqual([]);
	});

	it('overlocks every occupied unit of a contact and removes the overlock again, naming the units in unit_ids', async () => {
		const tenancies = await client.state('tenancies');
		const allocations = await client.state('unit_allocations');
		const units = await client.state('units');
		const contactOf = (unit: StateRecord) => {
			const allocation = allocations.find((record) => record.id === idOf(unit.unit_allocation));
			return idOf(tenancies.find((tenancy) => tenancy.id === idOf(allocation?.tenancy))?.contact);
		};
		const occupied = units.find((unit) => unit.status === 'occupied')!;
		const contactId = contactOf(occupied)!;
		const held = units
			.filter((unit) => unit.status === 'occupied' && contactOf(unit) === contactId)
			.map((unit) => unit.id);

		const overlocked = await run({
			resource: 'unit',
			operation: 'overlock',
			unitContactId: rl(contactId),
		});
		expect(overlocked.error).toBeUndefined();
		expect(held.length).toBeGreaterThan(0);
		// meta.unit_ids says which units were locked; the envelope's request_id and curies stay out.
		const sorted = (json: unknown) => ({
			...(json as object),
			unit_ids: [...(json as { unit_ids: string[] }).unit_ids].sort(),
		});
		expect(overlocked.items.map((item) => sorted(item.json))).toEqual([
			{ success: true, message: `${held.length} unit(s) overlocked`, unit_ids: [...held].sort() },
		]);
		let after = await client.state('units');
		for (const id of held) expect(after.find((unit) => unit.id === id)?.status).toBe('overlocked');

		const removed = await run({
			resource: 'unit',
			operation: 'removeOverlock',
			unitContactId: rl(contactId),
		});
		expect(removed.error).toBeUndefined();
		expect(sorted(removed.items[0].json)).toEqual({
			success: true,
			message: `Overlock removed from ${held.length} unit(s)`,
			unit_ids: [...held].sort(),
		});
		after = await client.state('units');
		for (const id of held) expect(after.find((unit) => unit.id === id)?.status).toBe('occupied');

		const requests = await client.requests();
		expect(requests.map((request) => [request.method, request.path, request.body])).toEqual([
			['POST', '/2025-09/units/overlock', { contact_id: contactId }],
			['POST', '/2025-09/units/remove_overlock', { contact_id: contactId }],
		]);
	});

	it('rejects a contact ID of another kind before any request', async () => {
		const [tenancy] = await client.state('tenancies');
		const result = await run({
			resource: 'unit',
			operation: 'overlock',
			unitContactId: rl(tenancy.id),
		});
		expect(result.error?.message).toMatch(/contact ID starts with "con_"/);
		expect(await client.requests()).toEqual([]);
	});

	it('reports an unknown contact with the API code', async () => {
		const result = await run({
			resource: 'unit',
			operation: 'removeOverlock',
			unitContactId: rl('con_doesnotexist'),
		});
		expect(result.error?.message).toMatch(/\[resource_not_found\]$/);
		expect((result.error as { httpCode?: string }).httpCode).toBe('404');
	});

	describe('list search', () => {
		it("pages through units with the API's next page number and labels them by reference and status", async () => {
			const [template] = await client.state('units');
			const extra = Array.from({ length: 50 }, (_, n) => {
				const copy: Record<string, unknown> = {
					...template,
					reference_id: `EXTRA-${n}`,
					status: 'available',
				};
				delete copy.id;
				return { ...copy, unit_allocation: null };
			});
			await client.insert('units', extra);
			const units = await client.state('units');
			expect(units.length).toBeGreaterThan(100);
			const first = await searchUnits.call(context());
			expect(first.results).toHaveLength(100);
			expect(first.paginationToken).toBe('2');
			const second = await searchUnits.call(context(), undefined, first.paginationToken);
			expect(second.paginationToken).toBeUndefined();
			const ids = [...first.results, ...second.results].map((result) => result.value);
			expect(ids.sort()).toEqual(units.map((unit) => unit.id).sort());
			const labelled = units.find((unit) => unit.id === first.results[0].value)!;
			expect(first.results[0].name).toBe(
				`${String(labelled.reference_id)} · ${String(labelled.status)} (${idOf(labelled.site)!})`,
			);
		});
	});
});
