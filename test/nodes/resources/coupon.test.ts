import { searchBilling } from '../../helpers/loadOptions';
import { locator as rl, runStora } from '../../helpers/n8n';
import { useResourceFixture } from '../../helpers/sandboxFixture';

const time = (value: unknown) => Date.parse(String(value));

describe('Stora node: Coupon', () => {
	const fixture = useResourceFixture();
	const { client, credentials } = fixture;

	it('gets many coupons sorted by update time within a window', async () => {
		const coupons = await client.state('coupons');
		const result = await runStora({
			credentials: credentials(),
			parameters: {
				resource: 'coupon',
				operation: 'getAll',
				limit: 10,
				filters: {
					updatedAfter: '2000-01-01T00:00:00.000Z',
					createdBefore: '2100-01-01T00:00:00.000Z',
				},
				options: { sortBy: 'updated_at', sortDirection: 'ASC' },
			},
		});
		expect(result.error).toBeUndefined();
		expect(await client.requests()).toMatchObject([
			{
				method: 'GET',
				path: '/2025-09/coupons',
				query: {
					limit: '10',
					updated_after: '2000-01-01T00:00:00.000Z',
					created_before: '2100-01-01T00:00:00.000Z',
					sort_by: 'updated_at',
					sort_direction: 'ASC',
				},
			},
		]);
		expect(result.items.map((item) => item.json)).toEqual(
			[...coupons].sort((a, b) => time(a.updated_at) - time(b.updated_at)),
		);
	});

	it('gets a coupon picked from the list', async () => {
		const [, coupon] = await client.state('coupons');
		const result = await runStora({
			credentials: credentials(),
			parameters: { resource: 'coupon', operation: 'get', couponId: rl(coupon.id, 'list') },
		});
		expect(result.items.map((item) => item.json)).toEqual([coupon]);
		expect((await client.requests())[0].path).toBe(`/2025-09/coupons/${coupon.id}`);
	});

	it('lists coupons for the picker, searchable by name or code', async () => {
		const coupons = await client.state('coupons');
		const all = await searchBilling(credentials(), 'searchCoupons');
		expect(all.results.map((result) => result.value).sort()).toEqual(
			coupons.map((coupon) => coupon.id).sort(),
		);
		const half = coupons.find((coupon) => coupon.code === 'HALF3')!;
		const found = await searchBilling(credentials(), 'searchCoupons', 'half3');
		expect(found.results).toEqual([
			{ name: `${String(half.name)} (HALF3)`, value: half.id, url: undefined },
		]);
	});
});
