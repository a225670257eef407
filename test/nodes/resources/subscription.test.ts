import { locator as rl, runStora } from '../../helpers/n8n';
import { newestFirst } from '../../helpers/records';
import type { StateRecord } from '../../../sandbox/client';
import { useResourceFixture } from '../../helpers/sandboxFixture';

describe('Stora node: Subscription', () => {
	const fixture = useResourceFixture();
	const { client, credentials } = fixture;

	it('gets every subscription with Return All', async () => {
		const subscriptions = await client.state('subscriptions');
		const result = await runStora({
			credentials: credentials(),
			parameters: { resource: 'subscription', operation: 'getAll', returnAll: true },
		});
		expect(result.items.map((item) => item.json.id)).toEqual(
			[...subscriptions].sort(newestFirst).map((s) => s.id),
		);
	});

	it('gets a subscription with its contact and line item items expanded', async () => {
		const [subscription] = await client.state('subscriptions');
		const result = await runStora({
			credentials: credentials(),
			parameters: {
				resource: 'subscription',
				operation: 'get',
				subscriptionId: rl(subscription.id),
				options: { expand: ['contact', 'line_items.item'] },
			},
		});
		expect(result.error).toBeUndefined();
		expect((await client.requests())[0]).toMatchObject({
			path: `/2025-09/subscriptions/${subscription.id}`,
			query: { expand: 'contact,line_items.item' },
		});
		const json = result.items[0].json;
		expect((json.contact as StateRecord).id).toBe((subscription.contact as StateRecord).id);
		expect((json.contact as StateRecord).email).toBeDefined();
		const items = (json.line_items as Array<{ item: StateRecord }>).map((line) => line.item);
		expect(items.map((item) => item.id)).toEqual(
			(subscription.line_items as Array<{ item: { id: string } }>).map((line) => line.item.id),
		);
		expect(items.every((item) => Object.keys(item).length > 1)).toBe(true);
	});
});
