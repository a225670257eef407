import type { INodeParameters } from 'n8n-workflow';

import { searchDeals } from '../../../nodes/Stora/methods/listSearch/crm';
import { loadOptionsContext } from '../../helpers/loadOptions';
import { locator as byId, runStora } from '../../helpers/n8n';
import { findRecord, httpCode, idOf } from '../../helpers/records';
import type { StateRecord } from '../../../sandbox/client';
import { useResourceFixture } from '../../helpers/sandboxFixture';

type Ref = { id: string } | null;

describe('Stora node: Deal', () => {
	const { client, credentials, seed } = useResourceFixture('deals', 'stages');

	it('creates a deal with every field, line items built from the unit type and protection level', async () => {
		const contacts = await client.state('contacts');
		const [staff] = await client.state('staff');
		const [site] = await client.state('sites');
		const unitType = (await client.state('unit_types')).find((u) => idOf(u.site) === site.id)!;
		const [protection] = await client.state('protection_levels');
		const result = await runStora({
			credentials: credentials(),
			parameters: {
				resource: 'deal',
				operation: 'create',
				dealContactId: { __rl: true, mode: 'list', value: contacts[34].id },
				additionalFields: {
					name: 'Garage clear-out',
					stageId: seed.stages[2].id,
					siteId: site.id,
					assigneeId: staff.id,
					note: 'About £60 per month',
					startsAt: '2027-03-01T09:30:00.000Z',
					unitTypeId: unitType.id,
					protectionLevelId: protection.id,
					metadata: { entry: [{ key: 'campaign', value: 'autumn' }] },
				},
			},
		});
		expect(result.error).toBeUndefined();
		const [request] = await client.requests();
		expect(request).toMatchObject({ method: 'POST', path: '/2025-09/deals' });
		expect(request.body).toEqual({
			contact: { id: contacts[34].id },
			name: 'Garage clear-out',
			stage: { id: seed.stages[2].id },
			site: { id: site.id },
			assignee: { id: staff.id },
			note: 'About £60 per month',
			starts_at: '2027-03-01T09:30:00.000Z',
			line_items: [
				{ type: 'unit_type', item: { id: unitType.id } },
				{ type: 'protection', item: { id: protection.id } },
			],
			metadata: { campaign: 'autumn' },
		});
		const created = result.items[0].json;
		expect(created).toEqual(await findRecord(client, 'deals', String(created.id)));
		expect(created).toMatchObject({
			status: 'open',
			name: 'Garage clear-out',
			stage: { id: seed.stages[2].id },
		});
	});

	it('checks the move-in date and the unit type ID before any request', async () => {
		const contact = (await client.state('contacts'))[34];
		const badDate = await runStora({
			credentials: credentials(),
			parameters: {
				resource: 'deal',
				operation: 'create',
				dealContactId: byId(contact.id),
				additionalFields: { startsAt: 'next tuesday' },
			},
		});
		expect(badDate.error?.message).toBe('Starts At: "next tuesday" is not a valid date');

		const badUnitType = await runStora({
			credentials: credentials(),
			parameters: {
				resource: 'deal',
				operation: 'create',
				dealContactId: byId(contact.id),
				additionalFields: { unitTypeId: 'site_abc123' },
			},
		});
		expect(badUnitType.error?.message).toBe('Unit Type: "site_abc123" is not a unit type ID');
		expect(await client.requests()).toEqual([]);
	});

	it('gets a deal with expanded stage and line item products', async () => {
		const deal = seed.deals[0];
		const result = await runStora({
			credentials: credentials(),
			parameters: {
				resource: 'deal',
				operation: 'get',
				dealId: byId(deal.id),
				options: { expand: ['stage', 'line_items.item'] },
			},
		});
		expect(result.error).toBeUndefined();
		expect(await client.requests()).toMatchObject([
			{
				method: 'GET',
				path: `/2025-09/deals/${deal.id}`,
				query: { expand: 'stage,line_items.item' },
			},
		]);
		const item = result.items[0].json;
		expect(item.stage).toEqual(seed.stages.find((stage) => stage.id === idOf(deal.stage)));
		const lineItem = (item.line_items as Array<{ item: StateRecord }>)[0];
		expect(lineItem.item.id).toBe(idOf((deal.line_items as Array<{ item: Ref }>)[0].item));
		expect(lineItem.item.name).toEqual(expect.any(String));
	});

	it('wins, loses and reopens deals through their action endpoints', async () => {
		const [open0, open1] = seed.deals;
		const won = seed.deals[6];
		expect([open0.status, open1.status, won.status]).toEqual(['open', 'open', 'won']);

		const win = await runStora({
			credentials: credentials(),
			parameters: { resource: 'deal', operation: 'win', dealId: byId(open0.id) },
		});
		const lose = await runStora({
			credentials: credentials(),
			parameters: {
				resource: 'deal',
				operation: 'lose',
				dealId: byId(open1.id),
				lostReason: 'chose_competitor',
			},
		});
		const reopen = await runStora({
			credentials: credentials(),
			parameters: {
				resource: 'deal',
				operation: 'reopen',
				dealId: byId(won.id),
				reopenFields: { stageId: seed.stages[1].id },
				options: { expand: ['stage'] },
			},
		});
		for (const result of [win, lose, reopen]) expect(result.error).toBeUndefined();

		const requests = (await client.requests()).map((r) => ({
			method: r.method,
			path: r.path,
			query: r.query,
			body: r.body,
		}));
		expect(requests).toEqual([
			{ method: 'POST', path: `/2025-09/deals/${open0.id}/win`, query: {}, body: null },
			{
				method: 'POST',
				path: `/2025-09/deals/${open1.id}/lose`,
				query: {},
				body: { lost_reason: 'chose_competitor' },
			},
			{
				method: 'POST',
				path: `/2025-09/deals/${won.id}/reopen`,
				query: { expand: 'stage' },
				body: { stage: { id: seed.stages[1].id } },
			},
		]);

		expect(win.items[0].json).toMatchObject({ id: open0.id, status: 'won' });
		expect(lose.items[0].json).toMatchObject({
			id: open1.id,
			status: 'lost',
			lost_reason: 'chose_competitor',
		});
		expect(reopen.items[0].json).toMatchObject({
			id: won.id,
			status: 'open',
			stage: { id: seed.stages[1].id, name: seed.stages[1].name },
		});
		expect((await findRecord(client, 'deals', open0.id))?.status).toBe('won');
		expect(await findRecord(client, 'deals', open1.id)).toMatchObject({
			status: 'lost',
			lost_reason: 'chose_competitor',
		});
		expect(await findRecord(client, 'deals', won.id)).toMatchObject({
			status: 'open',
			stage: { id: seed.stages[1].id },
		});
	});

	it('surfaces the conflict when winning a deal that is already won', async () => {
		const won = seed.deals[6];
		const result = await runStora({
			credentials: credentials(),
			parameters: { resource: 'deal', operation: 'win', dealId: byId(won.id) },
		});
		expect(result.error?.message).toBe(
			`Deal ${won.id} is won; only open deals can be won [conflict]`,
		);
		expect(httpCode(result.error)).toBe('409');
	});

	it('gets many deals with every filter, sort and expand in the query', async () => {
		const sites = await client.state('sites');
		const result = await runStora({
			credentials: credentials(),
			parameters: {
				resource: 'deal',
				operation: 'getAll',
				limit: 20,
				filters: {
					status: ['open', 'won'],
					siteIds: [sites[0].id, sites[1].id],
					stageIds: [seed.stages[0].id, seed.stages[3].id],
					assigneeIds: 'unspecified',
					contactIds: '',
					search: 'unit',
					startsAfter: '2000-01-01T00:00:00.000Z',
					metadata: { entry: [{ key: 'campaign', value: 'spring' }] },
				},
				options: { sortBy: 'starts_at', sortDirection: 'ASC', expand: ['assignee'] },
			},
		});
		expect(result.error).toBeUndefined();
		const [request] = await client.requests();
		expect(request.path).toBe('/2025-09/deals');
		expect(request.query).toEqual({
			limit: '20',
			status: 'open,won',
			site_id: `${sites[0].id},${sites[1].id}`,
			stage_id: `${seed.stages[0].id},${seed.stages[3].id}`,
			assignee_id: 'unspecified',
			search: 'unit',
			starts_after: '2000-01-01T00:00:00.000Z',
			'metadata[campaign]': 'spring',
			sort_by: 'starts_at',
			sort_direction: 'ASC',
			expand: 'assignee',
		});
		const expected = seed.deals.filter(
			(d) =>
				['open', 'won'].includes(String(d.status)) &&
				[sites[0].id, sites[1].id].includes(String(idOf(d.site))) &&
				[seed.stages[0].id, seed.stages[3].id].includes(String(idOf(d.stage))) &&
				d.assignee === null &&
				d.starts_at !== null &&
				(d.metadata as Record<string, unknown>).campaign === 'spring',
		);
		expect(expected.length).toBeGreaterThan(0);
		expect(result.items.map((item) => item.json.id)).toEqual(expected.map((d) => d.id));
	});

	it('finds deals for the resource locator with the search parameter', async () => {
		const context = loadOptionsContext(credentials(), { resource: 'deal', operation: 'get' });
		const needle = String(seed.deals[4].name).split(' ')[0];
		const { results } = await searchDeals.call(context, needle);
		const expected = seed.deals.filter((d) =>
			String(d.name).toLowerCase().includes(needle.toLowerCase()),
		);
		expect(results.map((r) => r.value).sort()).toEqual(expected.map((d) => d.id).sort());
		expect(results.find((r) => r.value === seed.deals[4].id)?.name).toBe(
			`${String(seed.deals[4].name)} [open]`,
		);
		expect((await client.requests())[0].query).toMatchObject({ search: needle });
	});

	describe('ID filters', () => {
		const getAll = (resource: string, filters: INodeParameters) =>
			runStora({
				credentials: credentials(),
				parameters: { resource, operation: 'getAll', limit: 5, filters },
			});

		it('check every ID against its prefix before any request, on CRM resources as on billing ones', async () => {
			const [site] = await client.state('sites');
			const [contact] = await client.state('contacts');
			const cases: Array<[string, INodeParameters, string]> = [
				[
					'deal',
					{ contactIds: `${contact.id}, ${site.id}` },
					`Contact IDs: "${site.id}" is not a valid ID`,
				],
				[
					'deal',
					{ stageIds: [contact.id] },
					`Stage Names or IDs: "${contact.id}" is not a valid ID`,
				],
				['deal', { assigneeIds: contact.id }, `Assignee IDs: "${contact.id}" is not a valid ID`],
				['task', { resourceIds: 'note_abc' }, 'Linked Record IDs: "note_abc" is not a valid ID'],
				['note', { creatorIds: contact.id }, `Author IDs: "${contact.id}" is not a valid ID`],
				[
					'contract',
					{ contractTemplateIds: [site.id] },
					`Contract Template Names or IDs: "${site.id}" is not a valid ID`,
				],
				[
					'identityVerification',
					{ contactIds: site.id },
					`Contact IDs: "${site.id}" is not a valid ID`,
				],
			];
			for (const [resource, filters, message] of cases) {
				const result = await getAll(resource, filters);
				expect(result.error?.message).toBe(message);
			}
			expect(await client.requests()).toEqual([]);
		});

		it('let "unspecified" through where the API allows it', async () => {
			const result = await getAll('deal', { assigneeIds: 'unspecified', siteIds: ['unspecified'] });
			expect(result.error).toBeUndefined();
			expect((await client.requests())[0].query).toMatchObject({
				assignee_id: 'unspecified',
				site_id: 'unspecified',
			});
			const invoices = await getAll('invoice', { contactIds: 'unspecified' });
			expect(invoices.error?.message).toBe('Contact IDs: "unspecified" is not a valid ID');
		});
	});

	it('updates a deal: moves the stage, clears the note and move-in date, replaces the line items', async () => {
		const deal = seed.deals[0];
		expect(deal.note).not.toBeNull();
		const [protection] = await client.state('protection_levels');
		const result = await runStora({
			credentials: credentials(),
			parameters: {
				resource: 'deal',
				operation: 'update',
				dealId: byId(deal.id),
				updateFields: {
					stageId: seed.stages[3].id,
					note: '',
					startsAt: '',
					protectionLevelId: protection.id,
				},
			},
		});
		expect(result.error).toBeUndefined();
		const [request] = await client.requests();
		expect(request).toMatchObject({ method: 'PATCH', path: `/2025-09/deals/${deal.id}` });
		expect(request.body).toEqual({
			stage: { id: seed.stages[3].id },
			note: null,
			starts_at: null,
			line_items: [{ type: 'protection', item: { id: protection.id } }],
		});
		const stored = await findRecord(client, 'deals', deal.id);
		expect(stored).toMatchObject({
			stage: { id: seed.stages[3].id },
			note: null,
			starts_at: null,
			name: deal.name,
		});
		expect(stored?.line_items).toEqual([
			{ item: { id: protection.id }, quantity: 1, type: 'protection' },
		]);
		expect(result.items[0].json).toEqual(stored);
	});

	it('unassigns, removes the site and clears the line items with Unassign, Remove Site and Clear Line Items', async () => {
		const deal = seed.deals[1];
		expect(deal.assignee).not.toBeNull();
		expect(deal.site).not.toBeNull();
		expect((deal.line_items as unknown[]).length).toBeGreaterThan(0);
		const result = await runStora({
			credentials: credentials(),
			parameters: {
				resource: 'deal',
				operation: 'update',
				dealId: byId(deal.id),
				updateFields: { unassign: true, removeSite: true, clearLineItems: true },
			},
		});
		expect(result.error).toBeUndefined();
		const [request] = await client.requests();
		expect(request).toMatchObject({ method: 'PATCH', path: `/2025-09/deals/${deal.id}` });
		expect(request.body).toEqual({ assignee: null, site: null, line_items: [] });
		const stored = await findRecord(client, 'deals', deal.id);
		expect(stored).toMatchObject({ assignee: null, site: null, line_items: [] });
		expect(result.items[0].json).toEqual(stored);

		// Switched off, they send nothing.
		await client.clearRequests();
		const off = await runStora({
			credentials: credentials(),
			parameters: {
				resource: 'deal',
				operation: 'update',
				dealId: byId(seed.deals[2].id),
				updateFields: {
					unassign: false,
					removeSite: false,
					clearLineItems: false,
					name: 'Renamed',
				},
			},
		});
		expect(off.error).toBeUndefined();
		expect((await client.requests())[0].body).toEqual({ name: 'Renamed' });
	});

	it('rejects a removal switch with the field it empties, and an empty or wrong Assignee ID, before any request', async () => {
		const [staff] = await client.state('staff');
		const [site] = await client.state('sites');
		const [unitType] = await client.state('unit_types');
		const cases: Array<[Record<string, unknown>, string | RegExp]> = [
			[
				{ unassign: true, assigneeId: staff.id },
				'Unassign and Assignee ID cannot be used together',
			],
			[{ removeSite: true, siteId: site.id }, 'Remove Site and Site cannot be used together'],
			[
				{ clearLineItems: true, unitTypeId: unitType.id },
				'Clear Line Items and Unit Type cannot be used together',
			],
			[
				{ clearLineItems: true, protectionLevelId: 'plvl_abc123' },
				'Clear Line Items and Protection Level ID cannot be used together',
			],
			[{ assigneeId: site.id }, `Assignee: "${site.id}" is not an assignee ID`],
		];
		for (const [updateFields, message] of cases) {
			const result = await runStora({
				credentials: credentials(),
				parameters: {
					resource: 'deal',
					operation: 'update',
					dealId: byId(seed.deals[0].id),
					updateFields: updateFields as INodeParameters,
				},
			});
			if (typeof message === 'string') expect(result.error?.message).toBe(message);
			else expect(result.error?.message).toMatch(message);
		}
		expect(await client.requests()).toEqual([]);
	});

	it('takes an optional Assignee ID added and left empty as not set (Unassign is how to remove one)', async () => {
		const result = await runStora({
			credentials: credentials(),
			parameters: {
				resource: 'deal',
				operation: 'update',
				dealId: byId(seed.deals[0].id),
				updateFields: { assigneeId: '', name: 'Renamed deal' },
			},
		});
		expect(result.error).toBeUndefined();
		const [request] = (await client.requests()).filter((entry) => entry.method === 'PATCH');
		expect(request.body).toEqual({ name: 'Renamed deal' });
		expect(result.items[0].json.assignee).toEqual(seed.deals[0].assignee);
	});
});
