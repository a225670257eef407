import { locator as rl } from '../../helpers/n8n';
import { idOf } from '../../helpers/records';
import type { StateRecord } from '../../../sandbox/client';
import { useResourceFixture } from '../../helpers/sandboxFixture';

describe('Stora node: Unit Allocation', () => {
	const { client, run } = useResourceFixture();

	it('gets many allocations filtered by contact, tenancy, unit and site', async () => {
		const allocations = await client.state('unit_allocations');
		const tenancies = await client.state('tenancies');
		const units = await client.state('units');
		const tenancy = tenancies.find((record) => (record.unit_allocations as unknown[]).length > 1)!;
		const contactId = idOf(tenancy.contact)!;
		const mine = allocations.filter((allocation) => idOf(allocation.tenancy) === tenancy.id);
		const unitIds = mine.map((allocation) => idOf(allocation.unit)!);
		const siteId = idOf(units.find((unit) => unit.id === unitIds[0])?.site)!;

		const result = await run({
			resource: 'unitAllocation',
			operation: 'getAll',
			returnAll: false,
			limit: 50,
			filters: {
				contactIds: contactId,
				tenancyIds: tenancy.id,
				unitIds: unitIds.join(','),
				siteIds: [siteId],
			},
			options: { expand: ['tenancy', 'unit'] },
		});
		expect(result.error).toBeUndefined();
		const requests = await client.requests();
		expect(requests[0]).toMatchObject({ method: 'GET', path: '/2025-09/unit_allocations' });
		expect(requests[0].query).toEqual({
			limit: '50',
			contact_id: contactId,
			tenancy_id: tenancy.id,
			unit_id: unitIds.join(','),
			site_id: siteId,
			expand: 'tenancy,unit',
		});
		expect(result.items.map((item) => item.json.id).sort()).toEqual(
			mine.map((allocation) => allocation.id).sort(),
		);
		expect((result.items[0].json.tenancy as StateRecord).contact).toEqual({ id: contactId });
	});

	it('gets an allocation by ID', async () => {
		const [allocation] = await client.state('unit_allocations');
		const result = await run({
			resource: 'unitAllocation',
			operation: 'get',
			unitAllocationId: rl(allocation.id),
		});
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json)).toEqual([allocation]);
		expect((await client.requests())[0]).toMatchObject({
			method: 'GET',
			path: `/2025-09/unit_allocations/${allocation.id}`,
			query: {},
		});
	});

	it('rejects a contact filter holding an ID of another kind before any request', async () => {
		const [tenancy] = await client.state('tenancies');
		const result = await run({
			resource: 'unitAllocation',
			operation: 'getAll',
			returnAll: false,
			limit: 10,
			filters: { contactIds: `con_abc, ${tenancy.id}` },
		});
		expect(result.error?.message).toContain(`Contact IDs: "${tenancy.id}" is not a valid ID`);
		expect(await client.requests()).toEqual([]);
	});
});
