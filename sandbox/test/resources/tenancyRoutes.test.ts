/** Tenancies (`/tenancies`) over real HTTP. */
import { pages } from '../calls';
import { useSandboxWithClients } from '../fixture';

const fx = useSandboxWithClients({
	seed: 'demo',
	resetEach: false,
	client: { redirect: 'follow' },
});
const { list, all } = pages(fx);

describe('unit allocations, tenancies, subscriptions', () => {
	test('tenancies: 15 active and 5 ended; get with expand', async () => {
		const tenancies = await all('/2025-09/tenancies');
		expect(tenancies).toHaveLength(20);
		expect(tenancies.filter((t) => t.ends_at === null)).toHaveLength(15);
		expect(Object.keys(tenancies[0]).sort()).toEqual(
			[
				'contact',
				'created_at',
				'ends_at',
				'id',
				'order',
				'site',
				'starts_at',
				'subscription',
				'unit_allocations',
				'updated_at',
			].sort(),
		);
		const one = await fx.call(
			'GET',
			`/2025-09/tenancies/${tenancies[0].id as string}?expand=subscription,contact`,
		);
		expect(one.status).toBe(200);
		expect(one.body.tenancy.subscription.billing_period).toMatch(/^(monthly|weekly)$/);
		expect(one.body.tenancy.contact.email).toContain('@');
		const asc = await list('/2025-09/tenancies?sort_direction=ASC&limit=100');
		const created = asc.map((t) => Date.parse(t.created_at as string));
		expect(created).toEqual([...created].sort((a, b) => a - b));
	});
});
