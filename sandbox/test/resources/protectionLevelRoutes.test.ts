/** Protection levels (`/protection_levels`) over real HTTP, with setting the base price. */
import type { Json } from '../calls';
import { useSandboxWithClients } from '../fixture';

const fx = useSandboxWithClients({
	seed: 'demo',
	resetEach: false,
	client: { redirect: 'follow' },
});

describe('protection levels', () => {
	test('list/get and base price keeps other periods', async () => {
		const list = await fx.call('GET', '/2025-09/protection_levels?sort_direction=ASC');
		expect(list.status).toBe(200);
		const levels = list.body.protection_levels as Json[];
		expect(levels).toHaveLength(3);
		expect(Object.keys(levels[0]).sort()).toEqual(
			[
				'account_code',
				'cover_level',
				'created_at',
				'id',
				'payments_product_id',
				'prices',
				'public',
				'updated_at',
			].sort(),
		);
		expect(levels[0].cover_level.amount).toBe(100000);
		const set = await fx.call(
			'POST',
			`/2025-09/protection_levels/${levels[0].id as string}/base_price`,
			{ body: { monthly: { amount: 650 } } },
		);
		expect(set.status).toBe(200);
		expect(
			(set.body.protection_level.prices as Json[]).map((p) => [p.billing_period, p.price.amount]),
		).toEqual([
			['monthly', 650],
			['weekly', levels[0].prices[1].price.amount],
		]);
		const one = await fx.call('GET', `/2025-09/protection_levels/${levels[0].id as string}`);
		expect(one.body.protection_level.prices[0].price.amount).toBe(650);
	});
});
