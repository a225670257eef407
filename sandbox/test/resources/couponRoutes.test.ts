/** Coupons (`/coupons`) over real HTTP. */
import type { Json } from '../calls';
import { useSandboxWithClients } from '../fixture';

const fx = useSandboxWithClients({
	seed: 'demo',
	resetEach: false,
	client: { redirect: 'follow' },
});

describe('coupons', () => {
	test('percentage and amount coupons, sorts and windows', async () => {
		const list = await fx.call('GET', '/2025-09/coupons?sort_by=created_at&sort_direction=ASC');
		expect(list.status).toBe(200);
		const coupons = list.body.coupons as Json[];
		expect(coupons).toHaveLength(3);
		const percentage = coupons.find((c) => c.type === 'percentage')!;
		const amount = coupons.find((c) => c.type === 'amount')!;
		expect(percentage.percent).toBeGreaterThan(0);
		expect(percentage).not.toHaveProperty('amount');
		expect(amount.amount).toMatchObject({ amount: 1000, currency: 'GBP' });
		expect(amount).not.toHaveProperty('percent');
		expect(Object.keys(percentage.auto_apply_to).sort()).toEqual([
			'products',
			'protections',
			'subscriptions',
			'unit_types',
		]);

		const byUpdated = (
			await fx.call('GET', '/2025-09/coupons?sort_by=updated_at&sort_direction=DESC')
		).body.coupons as Json[];
		const updated = byUpdated.map((c) => Date.parse(c.updated_at as string));
		expect(updated).toEqual([...updated].sort((a, b) => b - a));

		const bound = encodeURIComponent(coupons[1].created_at as string);
		const after = (await fx.call('GET', `/2025-09/coupons?created_after=${bound}`)).body
			.coupons as Json[];
		expect(after).toHaveLength(2);

		const one = await fx.call('GET', `/2025-09/coupons/${amount.id as string}`);
		expect(one.body.coupon).toEqual(amount);
	});
});
