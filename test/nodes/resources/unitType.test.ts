import { searchUnitTypes } from '../../../nodes/Stora/methods/listSearch/inventory';
import { loadOptionsContext } from '../../helpers/loadOptions';
import { locator as rl, runStora, tokenCredentials } from '../../helpers/n8n';
import { idOf, newestFirst } from '../../helpers/records';
import { useResourceFixture } from '../../helpers/sandboxFixture';

describe('Stora node: Unit Type', () => {
	const fixture = useResourceFixture();
	const { client, run } = fixture;

	/** The editor's context for the inventory pickers' lists. */
	const context = () => loadOptionsContext(fixture.credentials(), {}, 'parameters.unitTypeId');

	it('gets a unit type by ID with GET /unit_types/{id}', async () => {
		const [unitType] = await client.state('unit_types');
		const result = await run({
			resource: 'unitType',
			operation: 'get',
			unitTypeId: rl(unitType.id),
		});
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json)).toEqual([unitType]);
		const requests = await client.requests();
		expect(requests).toHaveLength(1);
		expect(requests[0]).toMatchObject({
			method: 'GET',
			path: `/2025-09/unit_types/${unitType.id}`,
			query: {},
		});
	});

	it('expands the site and the promotion on Get, and simplifies to the identifying fields', async () => {
		const unitType = (await client.state('unit_types')).find(
			(record) => record.promotion !== null,
		)!;
		const [site] = (await client.state('sites')).filter(
			(record) => record.id === idOf(unitType.site),
		);
		const [coupon] = (await client.state('coupons')).filter(
			(record) => record.id === idOf(unitType.promotion),
		);
		const result = await run({
			resource: 'unitType',
			operation: 'get',
			unitTypeId: rl(unitType.id),
			options: { expand: ['promotion', 'site'] },
			simplify: true,
		});
		expect(result.error).toBeUndefined();
		expect((await client.requests())[0].query).toEqual({ expand: 'promotion,site' });
		const json = result.items[0].json;
		expect(json.site).toEqual(site);
		expect(Object.keys(json).sort()).toEqual(
			[
				'created_at',
				'id',
				'name',
				'prices',
				'site',
				'size_description',
				'status',
				'updated_at',
			].sort(),
		);
		expect(coupon).toBeDefined();
	});

	it('gets many unit types up to the limit, newest first', async () => {
		const result = await run({
			resource: 'unitType',
			operation: 'getAll',
			returnAll: false,
			limit: 3,
		});
		expect(result.error).toBeUndefined();
		const requests = await client.requests();
		expect(requests).toHaveLength(1);
		expect(requests[0]).toMatchObject({
			method: 'GET',
			path: '/2025-09/unit_types',
			query: { limit: '3' },
		});
		const expected = (await client.state('unit_types')).sort(newestFirst).slice(0, 3);
		expect(result.items.map((item) => item.json)).toEqual(expected);
	});

	it('returns every unit type with Return All', async () => {
		const result = await run({ resource: 'unitType', operation: 'getAll', returnAll: true });
		expect(result.error).toBeUndefined();
		const all = await client.state('unit_types');
		expect(result.items.map((item) => item.json.id).sort()).toEqual(
			all.map((record) => record.id).sort(),
		);
	});

	it('exports unit types as a CSV file', async () => {
		const result = await run({
			resource: 'unitType',
			operation: 'getAll',
			returnAll: false,
			limit: 5,
			outputFormat: 'csv',
			binaryPropertyName: 'export',
		});
		expect(result.error).toBeUndefined();
		const requests = await client.requests();
		expect(requests[0].headers.accept).toBe('text/csv');
		const binary = result.items[0].binary?.export;
		expect(binary?.mimeType).toBe('text/csv');
		const text = Buffer.from(binary!.data, 'base64').toString('utf8');
		const lines = text.trim().split('\n');
		expect(lines[0]).toContain('id');
		expect(lines).toHaveLength(6);
		const newest = (await client.state('unit_types')).sort(newestFirst)[0];
		expect(lines[1]).toContain(newest.id);
	});

	it('sets base prices per billing period with POST /unit_types/{id}/base_price', async () => {
		const [unitType] = await client.state('unit_types');
		const periodsBefore = (unitType.prices as Array<{ billing_period: string }>).map(
			(p) => p.billing_period,
		);
		expect(periodsBefore).not.toContain('yearly');
		const result = await run({
			resource: 'unitType',
			operation: 'setBasePrice',
			unitTypeId: rl(unitType.id),
			basePrices: {
				price: [
					{ billingPeriod: 'monthly', amount: 12345 },
					{ billingPeriod: 'weekly', amount: 3100 },
					{ billingPeriod: 'yearly', amount: 130000 },
				],
			},
		});
		expect(result.error).toBeUndefined();
		const requests = await client.requests();
		expect(requests).toHaveLength(1);
		expect(requests[0]).toMatchObject({
			method: 'POST',
			path: `/2025-09/unit_types/${unitType.id}/base_price`,
			query: {},
		});
		expect(requests[0].body).toEqual({
			monthly: { amount: 12345 },
			weekly: { amount: 3100 },
			yearly: { amount: 130000 },
		});
		expect(requests[0].headers['idempotency-key']).toMatch(/^n8n-/);

		const prices = result.items[0].json.prices as Array<{
			billing_period: string;
			price: { amount: number };
		}>;
		expect(prices.map((p) => [p.billing_period, p.price.amount]).sort()).toEqual(
			[
				['monthly', 12345],
				['weekly', 3100],
				['yearly', 130000],
			].sort(),
		);
		const [stored] = (await client.state('unit_types')).filter(
			(record) => record.id === unitType.id,
		);
		expect(result.items[0].json).toEqual(stored);
	});

	it('keeps the prices of periods not given', async () => {
		const [unitType] = await client.state('unit_types');
		const weekly = (
			unitType.prices as Array<{ billing_period: string; price: { amount: number } }>
		).find((p) => p.billing_period === 'weekly')!;
		const result = await run({
			resource: 'unitType',
			operation: 'setBasePrice',
			unitTypeId: rl(unitType.id),
			basePrices: { price: [{ billingPeriod: 'monthly', amount: 9900 }] },
		});
		expect(result.error).toBeUndefined();
		expect((await client.requests())[0].body).toEqual({ monthly: { amount: 9900 } });
		const prices = result.items[0].json.prices as Array<{
			billing_period: string;
			price: { amount: number };
		}>;
		expect(prices).toHaveLength(2);
		expect(prices.find((p) => p.billing_period === 'weekly')?.price.amount).toBe(
			weekly.price.amount,
		);
		expect(prices.find((p) => p.billing_period === 'monthly')?.price.amount).toBe(9900);
	});

	it.each([
		[
			'a period given twice',
			[
				{ billingPeriod: 'monthly', amount: 100 },
				{ billingPeriod: 'monthly', amount: 200 },
			],
			/given twice/,
		],
		['a negative amount', [{ billingPeriod: 'weekly', amount: -5 }], /not a valid weekly amount/],
		[
			'a fractional amount',
			[{ billingPeriod: 'weekly', amount: 10.5 }],
			/not a valid weekly amount/,
		],
		['no rows', [], /at least one price/],
	])('rejects %s before any request', async (_case, rows, message) => {
		const [unitType] = await client.state('unit_types');
		const result = await run({
			resource: 'unitType',
			operation: 'setBasePrice',
			unitTypeId: rl(unitType.id),
			basePrices: { price: rows },
		});
		expect(result.error?.message).toMatch(message);
		expect(await client.requests()).toEqual([]);
	});

	it('rejects an ID of another kind before any request', async () => {
		const [unit] = await client.state('units');
		const result = await run({ resource: 'unitType', operation: 'get', unitTypeId: rl(unit.id) });
		// n8n's own check of the locator's ID pattern stops it first: the message names the expected prefix.
		expect(result.error?.message).toMatch(/unit type ID starts with "utype_"/);
		expect(await client.requests()).toEqual([]);
	});

	it('names the missing write scope', async () => {
		const [unitType] = await client.state('unit_types');
		const token = await client.token(['public.unit_type:read']);
		const result = await runStora({
			credentials: tokenCredentials(fixture.sandbox.url, token),
			parameters: {
				resource: 'unitType',
				operation: 'setBasePrice',
				unitTypeId: rl(unitType.id),
				basePrices: { price: [{ billingPeriod: 'monthly', amount: 100 }] },
			},
		});
		expect(result.error?.message).toContain('[forbidden]');
		expect(result.error?.message).toContain('public.unit_type:write');
	});

	describe('list search', () => {
		it('labels unit types with their site and filters them by the typed text', async () => {
			const unitTypes = await client.state('unit_types');
			const name = String(unitTypes[0].name);
			const { results } = await searchUnitTypes.call(context(), name.toLowerCase());
			const expected = unitTypes.filter((unitType) => unitType.name === name);
			expect(expected.length).toBeGreaterThan(1);
			expect(results.map((result) => result.value).sort()).toEqual(
				expected.map((unitType) => unitType.id).sort(),
			);
			for (const result of results) {
				const unitType = unitTypes.find((record) => record.id === result.value)!;
				expect(result.name).toBe(`${name} (${idOf(unitType.site)!})`);
			}
			expect((await client.requests())[0]).toMatchObject({
				path: '/2025-09/unit_types',
				query: { page: '1', limit: '100' },
			});
		});
	});
});
