import type { INodeProperties } from 'n8n-workflow';

import { Stora } from '../../../nodes/Stora/Stora.node';
import { locator as byId, runStora } from '../../helpers/n8n';
import { findRecord, httpCode, idOf } from '../../helpers/records';
import { useResourceFixture } from '../../helpers/sandboxFixture';

describe('Stora node: Opportunity', () => {
	const { client, credentials, seed } = useResourceFixture('deals', 'opportunities');

	const associate = (opportunityId: string, dealId: string, extra: Record<string, unknown> = {}) =>
		runStora({
			credentials: credentials(),
			parameters: {
				resource: 'opportunity',
				operation: 'associateDeal',
				opportunityId: byId(opportunityId),
				opportunityDealId: byId(dealId),
				...extra,
			},
		});
	const disassociate = (opportunityId: string) =>
		runStora({
			credentials: credentials(),
			parameters: {
				resource: 'opportunity',
				operation: 'disassociateDeal',
				opportunityId: byId(opportunityId),
			},
		});

	it('picks opportunities by ID only, since the API cannot list them', () => {
		const property = new Stora().description.properties.find(
			(p: INodeProperties) => p.name === 'opportunityId',
		) as INodeProperties;
		expect(property.modes?.map((mode) => mode.name)).toEqual(['id']);
		expect(property.default).toEqual({ mode: 'id', value: '' });
	});

	it('associates an open opportunity with a deal of the same contact, then disassociates it', async () => {
		const [o0] = seed.opportunities;
		const [d0] = seed.deals;
		expect(o0).toMatchObject({ status: 'open', deal: null });
		expect(idOf(o0.contact)).toBe(idOf(d0.contact));

		const linked = await associate(o0.id, d0.id, { options: { expand: ['deal'] } });
		expect(linked.error).toBeUndefined();
		let [request] = await client.requests();
		expect(request).toMatchObject({
			method: 'POST',
			path: `/2025-09/opportunities/${o0.id}/associate_deal`,
			query: { expand: 'deal' },
			body: { deal: { id: d0.id } },
		});
		expect(linked.items[0].json).toMatchObject({
			id: o0.id,
			status: 'associated',
			deal: { id: d0.id, name: d0.name },
		});
		const associated = await findRecord(client, 'opportunities', o0.id);
		expect(associated).toMatchObject({ status: 'associated', deal: { id: d0.id } });
		expect(associated?.associated_at).toEqual(expect.any(String));
		expect(await findRecord(client, 'deals', d0.id)).toEqual(d0);

		await client.clearRequests();
		const unlinked = await disassociate(o0.id);
		expect(unlinked.error).toBeUndefined();
		[request] = await client.requests();
		expect(request).toMatchObject({
			method: 'DELETE',
			path: `/2025-09/opportunities/${o0.id}/associate_deal`,
		});
		const reopened = await findRecord(client, 'opportunities', o0.id);
		expect(reopened).toMatchObject({ status: 'open', deal: null, associated_at: null });
		expect(unlinked.items.map((item) => item.json)).toEqual([reopened]);
	});

	it('returns an opportunity that was archived before association to archived when disassociated', async () => {
		const o8 = seed.opportunities[8];
		expect(o8.status).toBe('associated');
		const result = await disassociate(o8.id);
		expect(result.error).toBeUndefined();
		const stored = await findRecord(client, 'opportunities', o8.id);
		expect(stored).toMatchObject({ status: 'archived', deal: null, associated_at: null });
		expect(stored?.archived_at).toEqual(expect.any(String));
	});

	it('surfaces 409 opportunity_associated: already associated, converted before, or another contact', async () => {
		const o3 = seed.opportunities[3];
		const o5 = seed.opportunities[5];
		const o6 = seed.opportunities[6];
		const already = await associate(o3.id, seed.deals[3].id);
		const converted = await associate(o6.id, seed.deals[5].id);
		const otherContact = await associate(o5.id, seed.deals[0].id);

		expect(already.error?.message).toBe(
			`Opportunity ${o3.id} is already associated with a deal [opportunity_associated]`,
		);
		expect(converted.error?.message).toBe(
			`Opportunity ${o6.id} was converted to a deal before [opportunity_associated]`,
		);
		expect(otherContact.error?.message).toBe(
			`Opportunity ${o5.id} belongs to a different contact than deal ${seed.deals[0].id} [opportunity_associated]`,
		);
		for (const result of [already, converted, otherContact])
			expect(httpCode(result.error)).toBe('409');
		const after = await client.state('opportunities');
		expect(after).toEqual(seed.opportunities);
	});

	it('surfaces 409 opportunity_not_associated when the opportunity has no deal', async () => {
		const o1 = seed.opportunities[1];
		const result = await disassociate(o1.id);
		expect(result.error?.message).toBe(
			`Opportunity ${o1.id} is not associated with a deal [opportunity_not_associated]`,
		);
		expect(httpCode(result.error)).toBe('409');
		expect(await findRecord(client, 'opportunities', o1.id)).toEqual(o1);
	});

	it('surfaces 404 for an unknown deal and checks both IDs before any request', async () => {
		const missing = await associate(seed.opportunities[0].id, 'deal_doesnotexist');
		expect(missing.error?.message).toMatch(/\[resource_not_found\]$/);
		expect(httpCode(missing.error)).toBe('404');

		await client.clearRequests();
		const wrongKind = await runStora({
			credentials: credentials(),
			parameters: {
				resource: 'opportunity',
				operation: 'associateDeal',
				opportunityId: byId('={{ $json.opportunity }}'),
				opportunityDealId: byId('={{ $json.deal }}'),
			},
			items: [{ opportunity: seed.deals[0].id, deal: seed.deals[0].id }],
		});
		expect(wrongKind.error?.message).toBe(
			`Opportunity: "${seed.deals[0].id}" is not an opportunity ID`,
		);
		expect(await client.requests()).toEqual([]);
	});
});
