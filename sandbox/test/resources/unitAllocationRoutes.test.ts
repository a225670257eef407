/** Unit allocations (`/unit_allocations`) over real HTTP. */
import { expectError, pages } from '../calls';
import { useSandboxWithClients } from '../fixture';

const fx = useSandboxWithClients({
	seed: 'demo',
	resetEach: false,
	client: { redirect: 'follow' },
});
const { list, all } = pages(fx);

describe('unit allocations, tenancies, subscriptions', () => {
	test('allocation filters: contact, site, unit, tenancy', async () => {
		const allocations = await all('/2025-09/unit_allocations');
		const tenancies = await all('/2025-09/tenancies');
		const units = await all('/2025-09/units');
		const first = tenancies.find((t) => t.ends_at === null)!;
		const byContact = await list(
			`/2025-09/unit_allocations?contact_id=${first.contact.id as string}`,
		);
		const contactTenancies = tenancies
			.filter((t) => t.contact.id === first.contact.id)
			.map((t) => t.id);
		expect(byContact.length).toBeGreaterThan(0);
		expect(byContact.every((a) => contactTenancies.includes(a.tenancy.id))).toBe(true);
		expect(byContact).toHaveLength(
			allocations.filter((a) => contactTenancies.includes(a.tenancy.id)).length,
		);

		const site = first.site.id as string;
		const bySite = await all(`/2025-09/unit_allocations?site_id=${site}`);
		expect(bySite.length).toBeGreaterThan(0);
		expect(bySite.every((a) => units.find((u) => u.id === a.unit.id)!.site.id === site)).toBe(true);

		const byTenancy = await list(`/2025-09/unit_allocations?tenancy_id=${first.id as string}`);
		expect(byTenancy.every((a) => a.tenancy.id === first.id)).toBe(true);
		const byUnit = await list(
			`/2025-09/unit_allocations?unit_id=${allocations[0].unit.id as string}`,
		);
		expect(byUnit.map((a) => a.id)).toContain(allocations[0].id);
		expectError(
			await fx.call('GET', '/2025-09/unit_allocations/alloc_missing00000'),
			404,
			'resource_not_found',
		);
	});
});
