import {
	searchTenancies,
	searchUnitAllocations,
} from '../../../nodes/Stora/methods/listSearch/inventory';
import { loadOptionsContext } from '../../helpers/loadOptions';
import { locator as rl } from '../../helpers/n8n';
import { idOf, newestFirst, oldestFirst } from '../../helpers/records';
import { useResourceFixture } from '../../helpers/sandboxFixture';

describe('Stora node: Tenancy', () => {
	const fixture = useResourceFixture();
	const { client, run } = fixture;

	/** The editor's context for the inventory pickers' lists. */
	const context = () => loadOptionsContext(fixture.credentials(), {}, 'parameters.unitTypeId');

	it('gets many tenancies oldest first with the contact expanded', async () => {
		const result = await run({
			resource: 'tenancy',
			operation: 'getAll',
			returnAll: false,
			limit: 5,
			options: { expand: ['contact'], sortBy: 'created_at', sortDirection: 'ASC' },
		});
		expect(result.error).toBeUndefined();
		const requests = await client.requests();
		expect(requests[0]).toMatchObject({ method: 'GET', path: '/2025-09/tenancies' });
		expect(requests[0].query).toEqual({
			limit: '5',
			expand: 'contact',
			sort_by: 'created_at',
			sort_direction: 'ASC',
		});
		const expected = (await client.state('tenancies')).sort(oldestFirst).slice(0, 5);
		expect(result.items.map((item) => item.json.id)).toEqual(expected.map((tenancy) => tenancy.id));
		const contacts = await client.state('contacts');
		expect(result.items[0].json.contact).toEqual(
			contacts.find((contact) => contact.id === idOf(expected[0].contact)),
		);
	});

	it('returns every tenancy with Return All', async () => {
		const result = await run({ resource: 'tenancy', operation: 'getAll', returnAll: true });
		expect(result.error).toBeUndefined();
		const all = await client.state('tenancies');
		expect(result.items.map((item) => item.json)).toEqual(all.sort(newestFirst));
	});

	it('gets a tenancy by ID', async () => {
		const [, tenancy] = await client.state('tenancies');
		const result = await run({ resource: 'tenancy', operation: 'get', tenancyId: rl(tenancy.id) });
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json)).toEqual([tenancy]);
		expect((await client.requests())[0]).toMatchObject({
			method: 'GET',
			path: `/2025-09/tenancies/${tenancy.id}`,
		});
	});

	it('reports a missing tenancy with the API code', async () => {
		const result = await run({
			resource: 'tenancy',
			operation: 'get',
			tenancyId: rl('ten_doesnotexist'),
		});
		expect(result.error?.message).toMatch(/\[resource_not_found\]$/);
	});

	describe('list search', () => {
		it('labels tenancies and allocations by the records they link', async () => {
			const tenancies = await client.state('tenancies');
			const { results } = await searchTenancies.call(context());
			expect(results).toHaveLength(tenancies.length);
			const tenancy = tenancies.find((record) => record.id === results[0].value)!;
			expect(results[0].name).toContain(`contact ${idOf(tenancy.contact)!}`);
			expect(results[0].name).toContain(`from ${String(tenancy.starts_at).slice(0, 10)}`);

			const allocations = await client.state('unit_allocations');
			const found = await searchUnitAllocations.call(context(), idOf(allocations[0].unit));
			expect(found.results.map((result) => result.value)).toEqual([allocations[0].id]);
		});
	});
});
