/** The opportunity ↔ deal association state machine over real HTTP (spec "States and transitions"). */
import type { Json } from '../../client';
import { useSandboxWithClients } from '../fixture';

const fx = useSandboxWithClients({ seed: 'demo', client: { redirect: 'follow' } });
let opps: Json[];
let deals: Json[];

beforeEach(async () => {
	[opps, deals] = await Promise.all([fx.api.state('opportunities'), fx.api.state('deals')]);
});

const V = '/2025-09';
const associate = (opp: string, body: unknown, token?: string) =>
	fx.api.post(`${V}/opportunities/${opp}/associate_deal`, body, { token });
const disassociate = (opp: string, token?: string) =>
	fx.api.del(`${V}/opportunities/${opp}/associate_deal`, { token });

test('seed has opportunities in every state', () => {
	expect(new Set(opps.map((o) => o.status))).toEqual(new Set(['open', 'archived', 'associated']));
	expect(opps[0].contact).toEqual(deals[0].contact);
	expect(Object.keys(opps[0]).sort()).toEqual(
		[
			'archived_at',
			'associated_at',
			'contact',
			'created_at',
			'creator',
			'deal',
			'id',
			'line_items',
			'metadata',
			'site',
			'source',
			'status',
			'updated_at',
		].sort(),
	);
});

test('open → associated → open; the deal is unchanged', async () => {
	const dealBefore = (await fx.api.get(`${V}/deals/${deals[0].id}`)).body.deal;
	const res = await associate(opps[0].id, { deal: { id: deals[0].id } });
	expect(res.status).toBe(200);
	expect(res.body.opportunity).toMatchObject({
		id: opps[0].id,
		status: 'associated',
		deal: { id: deals[0].id },
		archived_at: null,
	});
	expect(Date.parse(res.body.opportunity.associated_at)).toBeGreaterThan(
		Date.parse(opps[0].updated_at),
	);
	expect((await fx.api.get(`${V}/deals/${deals[0].id}`)).body.deal).toEqual(dealBefore);

	const again = await associate(opps[0].id, { deal: { id: deals[0].id } });
	expect(again.status).toBe(409);
	expect(again.body.error.code).toBe('opportunity_associated');

	const off = await disassociate(opps[0].id);
	expect(off.status).toBe(200);
	expect(off.body.opportunity).toMatchObject({
		status: 'open',
		deal: null,
		associated_at: null,
		archived_at: null,
	});
	expect((await fx.api.get(`${V}/deals/${deals[0].id}`)).body.deal).toEqual(dealBefore);

	const twice = await disassociate(opps[0].id);
	expect(twice.status).toBe(409);
	expect(twice.body.error.code).toBe('opportunity_not_associated');
});

test('archived → associated (unarchived) → archived again with its archived_at', async () => {
	const archived = opps[2];
	expect(archived.status).toBe('archived');
	const res = await associate(archived.id, { deal: { id: deals[2].id } });
	expect(res.body.opportunity).toMatchObject({
		status: 'associated',
		archived_at: null,
		deal: { id: deals[2].id },
	});
	const off = await disassociate(archived.id);
	expect(off.body.opportunity).toMatchObject({
		status: 'archived',
		archived_at: archived.archived_at,
		deal: null,
		associated_at: null,
	});
});

test('a seeded association of a formerly archived opportunity returns to archived; others to open', async () => {
	const formerlyArchived = await disassociate(opps[8].id);
	expect(formerlyArchived.body.opportunity).toMatchObject({
		status: 'archived',
		archived_at: expect.any(String),
	});
	const plain = await disassociate(opps[3].id);
	expect(plain.body.opportunity).toMatchObject({ status: 'open', archived_at: null, deal: null });
	expect((await disassociate(opps[7].id)).body.error.code).toBe('opportunity_not_associated');
});

test('409 opportunity_associated: other contact, converted before', async () => {
	const otherContact = await associate(opps[5].id, { deal: { id: deals[0].id } });
	expect(otherContact.status).toBe(409);
	expect(otherContact.body.error.code).toBe('opportunity_associated');
	expect(otherContact.body.error.message).toMatch(/contact/);
	expect(opps[6].contact).toEqual(deals[5].contact);
	const converted = await associate(opps[6].id, { deal: { id: deals[5].id } });
	expect(converted.status).toBe(409);
	expect(converted.body.error.code).toBe('opportunity_associated');
	expect(converted.body.error.message).toMatch(/converted/);
	expect((await fx.api.state('opportunities'))[6].status).toBe('open');
});

test('body and references: missing deal (pointer null), unknown deal/opportunity 404, unknown member', async () => {
	const missing = await associate(opps[0].id, {});
	expect(missing.status).toBe(422);
	expect(missing.body.error.code).toBe('invalid_content');
	expect(missing.body.error.details).toEqual([
		{ message: expect.stringMatching(/root object.*'deal'/), pointer: null },
	]);
	const extra = await associate(opps[0].id, { deal: { id: deals[0].id }, note: 'x' });
	expect(extra.body.error.details[0].pointer).toBe('/note');
	const unknownDeal = await associate(opps[0].id, { deal: { id: 'deal_unknown' } });
	expect(unknownDeal.status).toBe(404);
	expect(unknownDeal.body.error.code).toBe('resource_not_found');
	expect(unknownDeal.body.error.message).toMatch(/Deal/);
	const unknownOpp = await associate('opp_unknown', { deal: { id: deals[0].id } });
	expect(unknownOpp.status).toBe(404);
	expect(unknownOpp.body.error.message).toMatch(/Opportunity/);
	expect((await disassociate('opp_unknown')).status).toBe(404);
});

test('both public.opportunity:write and public.deal:write are required', async () => {
	const onlyOpp = await fx.api.token(['public.opportunity:write']);
	const onlyDeal = await fx.api.token(['public.deal:write']);
	const a = await associate(opps[0].id, { deal: { id: deals[0].id } }, onlyOpp);
	expect(a.status).toBe(403);
	expect(a.body.error.message).toContain('public.deal:write');
	const b = await disassociate(opps[3].id, onlyDeal);
	expect(b.status).toBe(403);
	expect(b.body.error.message).toContain('public.opportunity:write');
	const both = await fx.api.token(['public.opportunity:write', 'public.deal:write']);
	expect((await associate(opps[0].id, { deal: { id: deals[0].id } }, both)).status).toBe(200);
});

test('expand=deal,contact on the association response', async () => {
	const res = await fx.api.post(
		`${V}/opportunities/${opps[1].id}/associate_deal?expand=deal,contact`,
		{ deal: { id: deals[1].id } },
	);
	expect(res.body.opportunity.deal).toMatchObject({
		id: deals[1].id,
		status: 'open',
		name: expect.any(String),
	});
	expect(res.body.opportunity.contact).toMatchObject({
		id: deals[1].contact.id,
		email: expect.any(String),
	});
});
