import type { INodeParameters } from 'n8n-workflow';

import { locator as byId, runStora } from '../../helpers/n8n';
import { findRecord } from '../../helpers/records';
import { useResourceFixture } from '../../helpers/sandboxFixture';

/** Deal → Update; the other operations of Deal are in deal.test.ts. */
describe('Stora node: Deal', () => {
	const { client, credentials, seed } = useResourceFixture('deals', 'stages');

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
				updateFields: { stageId: seed.stages[3].id, note: '', startsAt: '', protectionLevelId: protection.id },
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
		expect(stored).toMatchObject({ stage: { id: seed.stages[3].id }, note: null, starts_at: null, name: deal.name });
		expect(stored?.line_items).toEqual([{ item: { id: protection.id }, quantity: 1, type: 'protection' }]);
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
				updateFields: { unassign: false, removeSite: false, clearLineItems: false, name: 'Renamed' },
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
			[{ unassign: true, assigneeId: staff.id }, 'Unassign and Assignee ID cannot be used together'],
			[{ removeSite: true, siteId: site.id }, 'Remove Site and Site cannot be used together'],
			[{ clearLineItems: true, unitTypeId: unitType.id }, 'Clear Line Items and Unit Type cannot be used together'],
			[{ clearLineItems: true, protectionLevelId: 'plvl_abc123' }, 'Clear Line Items and Protection Level ID cannot be used together'],
			[{ assigneeId: site.id }, `Assignee: "${site.id}" is not an assignee ID`],
		];
		for (const [updateFields, message] of cases) {
			const result = await runStora({
				credentials: credentials(),
				parameters: { resource: 'deal', operation: 'update', dealId: byId(seed.deals[0].id), updateFields: updateFields as INodeParameters },
			});
			if (typeof message === 'string') expect(result.error?.message).toBe(message);
			else expect(result.error?.message).toMatch(message);
		}
		expect(await client.requests()).toEqual([]);
	});

	it('takes an optional Assignee ID added and left empty as not set (Unassign is how to remove one)', async () => {
		const result = await runStora({
			credentials: credentials(),
			parameters: { resource: 'deal', operation: 'update', dealId: byId(seed.deals[0].id), updateFields: { assigneeId: '', name: 'Renamed deal' } },
		});
		expect(result.error).toBeUndefined();
		const [request] = (await client.requests()).filter((entry) => entry.method === 'PATCH');
		expect(request.body).toEqual({ name: 'Renamed deal' });
		expect(result.items[0].json.assignee).toEqual(seed.deals[0].assignee);
	});
});
