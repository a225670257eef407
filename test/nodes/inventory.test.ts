import {
	searchTenancies,
	searchUnitAllocations,
	searchUnitTypes,
	searchUnits,
} from '../../nodes/Stora/methods/listSearch/inventory';
import { loadOptionsContext } from '../helpers/loadOptions';
import { locator as rl, runStora, tokenCredentials } from '../helpers/n8n';
import { SandboxClient, type StateRecord } from '../../sandbox/client';
import { useSandboxForNode, type StartedSandbox } from '../helpers/sandboxFixture';

const idOf = (value: unknown) => (value as { id?: string } | null | undefined)?.id;
const byCreatedDesc = (a: StateRecord, b: StateRecord) =>
	Date.parse(String(b.created_at)) - Date.parse(String(a.created_at));
const byCreatedAsc = (a: StateRecord, b: StateRecord) => -byCreatedDesc(a, b);

describe('Stora node: inventory (unit types, units, unit allocations, tenancies)', () => {
	const fixture = useSandboxForNode();
	let sandbox: StartedSandbox;
	let client: SandboxClient;
	beforeEach(() => ({ sandbox, client } = fixture));

	const { run } = fixture;

	/** An active tenancy (no end) and a unit in the given status at the same site. */
	async function tenancyAndUnit(status: string) {
		const tenancies = (await client.state('tenancies')).filter((tenancy) => tenancy.ends_at === null);
		const units = await client.state('units');
		for (const tenancy of tenancies) {
			const unit = units.find((candidate) => candidate.status === status && idOf(candidate.site) === idOf(tenancy.site));
			if (unit) return { tenancy, unit };
		}
		throw new Error(`no ${status} unit next to an active tenancy in the seed`);
	}

	describe('Unit Type', () => {
		it('gets a unit type by ID with GET /unit_types/{id}', async () => {
			const [unitType] = await client.state('unit_types');
			const result = await run({ resource: 'unitType', operation: 'get', unitTypeId: rl(unitType.id) });
			expect(result.error).toBeUndefined();
			expect(result.items.map((item) => item.json)).toEqual([unitType]);
			const requests = await client.requests();
			expect(requests).toHaveLength(1);
			expect(requests[0]).toMatchObject({ method: 'GET', path: `/2025-09/unit_types/${unitType.id}`, query: {} });
		});

		it('expands the site and the promotion on Get, and simplifies to the identifying fields', async () => {
			const unitType = (await client.state('unit_types')).find((record) => record.promotion !== null)!;
			const [site] = (await client.state('sites')).filter((record) => record.id === idOf(unitType.site));
			const [coupon] = (await client.state('coupons')).filter((record) => record.id === idOf(unitType.promotion));
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
				['created_at', 'id', 'name', 'prices', 'site', 'size_description', 'status', 'updated_at'].sort(),
			);
			expect(coupon).toBeDefined();
		});

		it('gets many unit types up to the limit, newest first', async () => {
			const result = await run({ resource: 'unitType', operation: 'getAll', returnAll: false, limit: 3 });
			expect(result.error).toBeUndefined();
			const requests = await client.requests();
			expect(requests).toHaveLength(1);
			expect(requests[0]).toMatchObject({ method: 'GET', path: '/2025-09/unit_types', query: { limit: '3' } });
			const expected = (await client.state('unit_types')).sort(byCreatedDesc).slice(0, 3);
			expect(result.items.map((item) => item.json)).toEqual(expected);
		});

		it('returns every unit type with Return All', async () => {
			const result = await run({ resource: 'unitType', operation: 'getAll', returnAll: true });
			expect(result.error).toBeUndefined();
			const all = await client.state('unit_types');
			expect(result.items.map((item) => item.json.id).sort()).toEqual(all.map((record) => record.id).sort());
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
			const newest = (await client.state('unit_types')).sort(byCreatedDesc)[0];
			expect(lines[1]).toContain(newest.id);
		});

		it('sets base prices per billing period with POST /unit_types/{id}/base_price', async () => {
			const [unitType] = await client.state('unit_types');
			const periodsBefore = (unitType.prices as Array<{ billing_period: string }>).map((p) => p.billing_period);
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
			expect(requests[0]).toMatchObject({ method: 'POST', path: `/2025-09/unit_types/${unitType.id}/base_price`, query: {} });
			expect(requests[0].body).toEqual({ monthly: { amount: 12345 }, weekly: { amount: 3100 }, yearly: { amount: 130000 } });
			expect(requests[0].headers['idempotency-key']).toMatch(/^n8n-/);

			const prices = result.items[0].json.prices as Array<{ billing_period: string; price: { amount: number } }>;
			expect(prices.map((p) => [p.billing_period, p.price.amount]).sort()).toEqual(
				[
					['monthly', 12345],
					['weekly', 3100],
					['yearly', 130000],
				].sort(),
			);
			const [stored] = (await client.state('unit_types')).filter((record) => record.id === unitType.id);
			expect(result.items[0].json).toEqual(stored);
		});

		it('keeps the prices of periods not given', async () => {
			const [unitType] = await client.state('unit_types');
			const weekly = (unitType.prices as Array<{ billing_period: string; price: { amount: number } }>).find(
				(p) => p.billing_period === 'weekly',
			)!;
			const result = await run({
				resource: 'unitType',
				operation: 'setBasePrice',
				unitTypeId: rl(unitType.id),
				basePrices: { price: [{ billingPeriod: 'monthly', amount: 9900 }] },
			});
			expect(result.error).toBeUndefined();
			expect((await client.requests())[0].body).toEqual({ monthly: { amount: 9900 } });
			const prices = result.items[0].json.prices as Array<{ billing_period: string; price: { amount: number } }>;
			expect(prices).toHaveLength(2);
			expect(prices.find((p) => p.billing_period === 'weekly')?.price.amount).toBe(weekly.price.amount);
			expect(prices.find((p) => p.billing_period === 'monthly')?.price.amount).toBe(9900);
		});

		it.each([
			['a period given twice', [{ billingPeriod: 'monthly', amount: 100 }, { billingPeriod: 'monthly', amount: 200 }], /given twice/],
			['a negative amount', [{ billingPeriod: 'weekly', amount: -5 }], /not a valid weekly amount/],
			['a fractional amount', [{ billingPeriod: 'weekly', amount: 10.5 }], /not a valid weekly amount/],
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
				credentials: tokenCredentials(sandbox.url, token),
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
	});

	describe('Unit', () => {
		it('gets many units filtered by site, unit type and status, sending each filter comma-separated', async () => {
			const units = await client.state('units');
			const overlocked = units.find((unit) => unit.status === 'overlocked')!;
			const siteId = idOf(overlocked.site)!;
			const unitTypeIds = [...new Set(units.filter((unit) => idOf(unit.site) === siteId).map((unit) => idOf(unit.unit_type)!))].slice(0, 2);
			expect(unitTypeIds).toContain(idOf(overlocked.unit_type));

			const result = await run({
				resource: 'unit',
				operation: 'getAll',
				returnAll: false,
				limit: 100,
				filters: { siteIds: [siteId], unitTypeIds: unitTypeIds.join(' , '), status: ['available', 'overlock'] },
				options: { expand: ['unit_type'], sortBy: 'created_at', sortDirection: 'ASC' },
			});
			expect(result.error).toBeUndefined();
			const requests = await client.requests();
			expect(requests).toHaveLength(1);
			expect(requests[0]).toMatchObject({ method: 'GET', path: '/2025-09/units' });
			expect(requests[0].query).toEqual({
				limit: '100',
				site_id: siteId,
				unit_type_id: unitTypeIds.join(','),
				status: 'available,overlock',
				expand: 'unit_type',
				sort_by: 'created_at',
				sort_direction: 'ASC',
			});
			const expected = units
				.filter(
					(unit) =>
						idOf(unit.site) === siteId &&
						unitTypeIds.includes(idOf(unit.unit_type)!) &&
						['available', 'overlocked'].includes(String(unit.status)),
				)
				.sort(byCreatedAsc);
			expect(result.items.map((item) => item.json.id)).toEqual(expected.map((unit) => unit.id));
			expect(result.items.map((item) => item.json.status)).toContain('overlocked');
			expect((result.items[0].json.unit_type as StateRecord).name).toBeDefined();
		});

		it('returns every unit of a site with Return All, keeping the filter on every page', async () => {
			const [template] = await client.state('units');
			const extra = Array.from({ length: 120 }, (_, n) => {
				const copy: Record<string, unknown> = { ...template, reference_id: `EXTRA-${n}`, status: 'available' };
				delete copy.id;
				return { ...copy, unit_allocation: null };
			});
			await client.insert('units', extra);
			const siteId = idOf(template.site)!;
			const expected = (await client.state('units')).filter((unit) => idOf(unit.site) === siteId);
			expect(expected.length).toBeGreaterThan(100);

			const result = await run({ resource: 'unit', operation: 'getAll', returnAll: true, filters: { siteIds: [siteId] } });
			expect(result.error).toBeUndefined();
			const ids = result.items.map((item) => item.json.id);
			expect(new Set(ids).size).toBe(ids.length);
			expect(ids.sort()).toEqual(expected.map((unit) => unit.id).sort());
			for (const request of await client.requests()) {
				expect(request.query).toMatchObject({ site_id: siteId, limit: '100' });
			}
		});

		it('rejects a filter ID of another kind before any request', async () => {
			const [unitType] = await client.state('unit_types');
			const result = await run({
				resource: 'unit',
				operation: 'getAll',
				returnAll: false,
				limit: 10,
				filters: { siteIds: [unitType.id] },
			});
			expect(result.error?.message).toContain(`Site Names or IDs: "${unitType.id}" is not a valid ID`);
			expect(await client.requests()).toEqual([]);
		});

		it('gets a unit with its allocation expanded', async () => {
			const unit = (await client.state('units')).find((record) => record.status === 'occupied')!;
			const [allocation] = (await client.state('unit_allocations')).filter((record) => record.id === idOf(unit.unit_allocation));
			const result = await run({
				resource: 'unit',
				operation: 'get',
				unitId: rl(unit.id),
				options: { expand: ['unit_allocation'] },
			});
			expect(result.error).toBeUndefined();
			const requests = await client.requests();
			expect(requests[0]).toMatchObject({ method: 'GET', path: `/2025-09/units/${unit.id}`, query: { expand: 'unit_allocation' } });
			expect(result.items[0].json).toEqual({ ...unit, unit_allocation: allocation });
		});

		it('reserves, grants access to and deallocates a unit for a tenancy', async () => {
			const { tenancy, unit } = await tenancyAndUnit('available');

			const reserved = await run({ resource: 'unit', operation: 'reserve', unitId: rl(unit.id), unitTenancyId: rl(tenancy.id) });
			expect(reserved.error).toBeUndefined();
			expect(reserved.items[0].json).toMatchObject({ id: unit.id, status: 'reserved' });
			const allocationId = idOf(reserved.items[0].json.unit_allocation);
			expect(allocationId).toMatch(/^alloc_/);

			const granted = await run({
				resource: 'unit',
				operation: 'grantAccess',
				unitId: { __rl: true, mode: 'list', value: unit.id, cachedResultName: String(unit.reference_id) },
				unitTenancyId: rl(tenancy.id),
			});
			expect(granted.error).toBeUndefined();
			expect(granted.items[0].json).toMatchObject({ id: unit.id, status: 'occupied', unit_allocation: { id: allocationId } });

			const released = await run({ resource: 'unit', operation: 'deallocate', unitId: rl(unit.id) });
			expect(released.error).toBeUndefined();
			expect(released.items[0].json).toMatchObject({ id: unit.id, status: 'available', unit_allocation: null });

			const requests = await client.requests();
			expect(requests.map((request) => [request.method, request.path])).toEqual([
				['POST', `/2025-09/units/${unit.id}/reserve`],
				['POST', `/2025-09/units/${unit.id}/grant_access`],
				['POST', `/2025-09/units/${unit.id}/deallocate`],
			]);
			expect(requests[0].body).toEqual({ tenancy_id: tenancy.id });
			expect(requests[1].body).toEqual({ tenancy_id: tenancy.id });
			expect(Object.keys((requests[2].body as object | null) ?? {})).toEqual([]);
			for (const request of requests) expect(request.headers['idempotency-key']).toMatch(/^n8n-/);

			const [stored] = (await client.state('units')).filter((record) => record.id === unit.id);
			expect(released.items[0].json).toEqual(stored);
			const [allocation] = (await client.state('unit_allocations')).filter((record) => record.id === allocationId);
			expect(allocation).toMatchObject({ tenancy: { id: tenancy.id }, unit: { id: unit.id } });
			expect(allocation.granted_access_at).not.toBeNull();
		});

		it('surfaces the API conflict when the unit is reserved for another tenancy', async () => {
			const units = await client.state('units');
			const allocations = await client.state('unit_allocations');
			const reserved = units.find((unit) => unit.status === 'reserved')!;
			const holder = idOf(allocations.find((allocation) => allocation.id === idOf(reserved.unit_allocation))?.tenancy);
			const other = (await client.state('tenancies')).find(
				(tenancy) => tenancy.ends_at === null && tenancy.id !== holder && idOf(tenancy.site) === idOf(reserved.site),
			)!;
			const result = await run({ resource: 'unit', operation: 'grantAccess', unitId: rl(reserved.id), unitTenancyId: rl(other.id) });
			expect(result.error?.message).toMatch(/\[conflict\]$/);
			expect((result.error as { httpCode?: string }).httpCode).toBe('409');
			expect((await client.state('units')).find((unit) => unit.id === reserved.id)?.status).toBe('reserved');
		});

		it('rejects a tenancy ID of another kind before any request', async () => {
			const { unit } = await tenancyAndUnit('available');
			const [contact] = await client.state('contacts');
			const result = await run({ resource: 'unit', operation: 'reserve', unitId: rl(unit.id), unitTenancyId: rl(contact.id) });
			expect(result.error?.message).toMatch(/tenancy ID starts with "ten_"/);
			expect(await client.requests()).toEqual([]);
		});

		it('overlocks every occupied unit of a contact and removes the overlock again, naming the units in unit_ids', async () => {
			const tenancies = await client.state('tenancies');
			const allocations = await client.state('unit_allocations');
			const units = await client.state('units');
			const contactOf = (unit: StateRecord) => {
				const allocation = allocations.find((record) => record.id === idOf(unit.unit_allocation));
				return idOf(tenancies.find((tenancy) => tenancy.id === idOf(allocation?.tenancy))?.contact);
			};
			const occupied = units.find((unit) => unit.status === 'occupied')!;
			const contactId = contactOf(occupied)!;
			const held = units.filter((unit) => unit.status === 'occupied' && contactOf(unit) === contactId).map((unit) => unit.id);

			const overlocked = await run({ resource: 'unit', operation: 'overlock', unitContactId: rl(contactId) });
			expect(overlocked.error).toBeUndefined();
			expect(held.length).toBeGreaterThan(0);
			// meta.unit_ids says which units were locked; the envelope's request_id and curies stay out.
			const sorted = (json: unknown) => ({ ...(json as object), unit_ids: [...(json as { unit_ids: string[] }).unit_ids].sort() });
			expect(overlocked.items.map((item) => sorted(item.json))).toEqual([
				{ success: true, message: `${held.length} unit(s) overlocked`, unit_ids: [...held].sort() },
			]);
			let after = await client.state('units');
			for (const id of held) expect(after.find((unit) => unit.id === id)?.status).toBe('overlocked');

			const removed = await run({ resource: 'unit', operation: 'removeOverlock', unitContactId: rl(contactId) });
			expect(removed.error).toBeUndefined();
			expect(sorted(removed.items[0].json)).toEqual({
				success: true,
				message: `Overlock removed from ${held.length} unit(s)`,
				unit_ids: [...held].sort(),
			});
			after = await client.state('units');
			for (const id of held) expect(after.find((unit) => unit.id === id)?.status).toBe('occupied');

			const requests = await client.requests();
			expect(requests.map((request) => [request.method, request.path, request.body])).toEqual([
				['POST', '/2025-09/units/overlock', { contact_id: contactId }],
				['POST', '/2025-09/units/remove_overlock', { contact_id: contactId }],
			]);
		});

		it('rejects a contact ID of another kind before any request', async () => {
			const [tenancy] = await client.state('tenancies');
			const result = await run({ resource: 'unit', operation: 'overlock', unitContactId: rl(tenancy.id) });
			expect(result.error?.message).toMatch(/contact ID starts with "con_"/);
			expect(await client.requests()).toEqual([]);
		});

		it('reports an unknown contact with the API code', async () => {
			const result = await run({ resource: 'unit', operation: 'removeOverlock', unitContactId: rl('con_doesnotexist') });
			expect(result.error?.message).toMatch(/\[resource_not_found\]$/);
			expect((result.error as { httpCode?: string }).httpCode).toBe('404');
		});
	});

	describe('Unit Allocation', () => {
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
				filters: { contactIds: contactId, tenancyIds: tenancy.id, unitIds: unitIds.join(','), siteIds: [siteId] },
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
			expect(result.items.map((item) => item.json.id).sort()).toEqual(mine.map((allocation) => allocation.id).sort());
			expect((result.items[0].json.tenancy as StateRecord).contact).toEqual({ id: contactId });
		});

		it('gets an allocation by ID', async () => {
			const [allocation] = await client.state('unit_allocations');
			const result = await run({ resource: 'unitAllocation', operation: 'get', unitAllocationId: rl(allocation.id) });
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

	describe('Tenancy', () => {
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
			expect(requests[0].query).toEqual({ limit: '5', expand: 'contact', sort_by: 'created_at', sort_direction: 'ASC' });
			const expected = (await client.state('tenancies')).sort(byCreatedAsc).slice(0, 5);
			expect(result.items.map((item) => item.json.id)).toEqual(expected.map((tenancy) => tenancy.id));
			const contacts = await client.state('contacts');
			expect(result.items[0].json.contact).toEqual(contacts.find((contact) => contact.id === idOf(expected[0].contact)));
		});

		it('returns every tenancy with Return All', async () => {
			const result = await run({ resource: 'tenancy', operation: 'getAll', returnAll: true });
			expect(result.error).toBeUndefined();
			const all = await client.state('tenancies');
			expect(result.items.map((item) => item.json)).toEqual(all.sort(byCreatedDesc));
		});

		it('gets a tenancy by ID', async () => {
			const [, tenancy] = await client.state('tenancies');
			const result = await run({ resource: 'tenancy', operation: 'get', tenancyId: rl(tenancy.id) });
			expect(result.error).toBeUndefined();
			expect(result.items.map((item) => item.json)).toEqual([tenancy]);
			expect((await client.requests())[0]).toMatchObject({ method: 'GET', path: `/2025-09/tenancies/${tenancy.id}` });
		});

		it('reports a missing tenancy with the API code', async () => {
			const result = await run({ resource: 'tenancy', operation: 'get', tenancyId: rl('ten_doesnotexist') });
			expect(result.error?.message).toMatch(/\[resource_not_found\]$/);
		});
	});

	describe('list search', () => {
		const context = () =>
			loadOptionsContext(fixture.credentials(), {}, 'parameters.unitTypeId');

		it('labels unit types with their site and filters them by the typed text', async () => {
			const unitTypes = await client.state('unit_types');
			const name = String(unitTypes[0].name);
			const { results } = await searchUnitTypes.call(context(), name.toLowerCase());
			const expected = unitTypes.filter((unitType) => unitType.name === name);
			expect(expected.length).toBeGreaterThan(1);
			expect(results.map((result) => result.value).sort()).toEqual(expected.map((unitType) => unitType.id).sort());
			for (const result of results) {
				const unitType = unitTypes.find((record) => record.id === result.value)!;
				expect(result.name).toBe(`${name} (${idOf(unitType.site)!})`);
			}
			expect((await client.requests())[0]).toMatchObject({ path: '/2025-09/unit_types', query: { page: '1', limit: '100' } });
		});

		it('pages through units with the API\'s next page number and labels them by reference and status', async () => {
			const [template] = await client.state('units');
			const extra = Array.from({ length: 50 }, (_, n) => {
				const copy: Record<string, unknown> = { ...template, reference_id: `EXTRA-${n}`, status: 'available' };
				delete copy.id;
				return { ...copy, unit_allocation: null };
			});
			await client.insert('units', extra);
			const units = await client.state('units');
			expect(units.length).toBeGreaterThan(100);
			const first = await searchUnits.call(context());
			expect(first.results).toHaveLength(100);
			expect(first.paginationToken).toBe('2');
			const second = await searchUnits.call(context(), undefined, first.paginationToken);
			expect(second.paginationToken).toBeUndefined();
			const ids = [...first.results, ...second.results].map((result) => result.value);
			expect(ids.sort()).toEqual(units.map((unit) => unit.id).sort());
			const labelled = units.find((unit) => unit.id === first.results[0].value)!;
			expect(first.results[0].name).toBe(
				`${String(labelled.reference_id)} · ${String(labelled.status)} (${idOf(labelled.site)!})`,
			);
		});

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
