/** Subscriptions (`/subscriptions`) over real HTTP. */
import { expectError, pages, type Json } from '../calls';
import { useSandboxWithClients } from '../fixture';

const fx = useSandboxWithClients({
	seed: 'demo',
	resetEach: false,
	client: { redirect: 'follow' },
});
const { all } = pages(fx);

describe('unit allocations, tenancies, subscriptions', () => {
	test('subscriptions: monthly and weekly, renewal dates ahead for active ones', async () => {
		const subscriptions = await all('/2025-09/subscriptions');
		expect(subscriptions).toHaveLength(20);
		expect(new Set(subscriptions.map((s) => s.billing_period))).toEqual(
			new Set(['monthly', 'weekly']),
		);
		const now = Date.now();
		for (const s of subscriptions.filter((x) => !x.cancelled)) {
			expect(Date.parse(s.current_period.ends_at as string)).toBeGreaterThan(now);
			expect(Date.parse(s.current_period.starts_at as string)).toBeLessThan(
				Date.parse(s.current_period.ends_at as string),
			);
			expect(s.ends_at).toBeNull();
			expect((s.line_items as Json[]).some((l) => l.type === 'unit_type')).toBe(true);
		}
		const cancelled = subscriptions.filter((s) => s.cancelled);
		expect(cancelled).toHaveLength(5);
		expect(cancelled.every((s) => s.ends_at !== null && s.cancellation_reason !== null)).toBe(true);
		const one = await fx.call('GET', `/2025-09/subscriptions/${subscriptions[0].id as string}`);
		expect(one.body.subscription).toEqual(subscriptions[0]);
		expectError(
			await fx.call('GET', '/2025-09/subscriptions/sub_missing0000000'),
			404,
			'resource_not_found',
		);
	});
});
