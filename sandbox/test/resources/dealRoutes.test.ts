/** Deals over real HTTP: lists, create/update validation, win/lose/reopen, events, scopes. */
import type { Json } from '../../client';
import { useSandboxWithClients } from '../fixture';
import { startReceiver } from '../../core/testing';

const fx = useSandboxWithClients({
	seed: 'demo',
	allowHttpWebhooks: true,
	client: { redirect: 'follow' },
});
let deals: Json[];
let stages: Json[];
let contacts: Json[];

beforeEach(async () => {
	[deals, stages, contacts] = await Promise.all([
		fx.api.state('deals'),
		fx.api.state('stages'),
		fx.api.state('contacts'),
	]);
});

const V = '/2025-09';

describe('deal lists', () => {
	test('filters: status, contact_id, stage_id, assignee unspecified, metadata; expand', async () => {
		const open = await fx.api.get(`${V}/deals?status=open`);
		expect(open.body.meta.pagination.count).toBe(deals.filter((d) => d.status === 'open').length);
		expect(open.body.deals.every((d: Json) => d.status === 'open')).toBe(true);
		const closed = await fx.api.get(`${V}/deals?status=won,lost`);
		expect(closed.body.meta.pagination.count).toBe(4);

		const byContact = await fx.api.get(`${V}/deals?contact_id=${deals[0].contact.id}`);
		expect(byContact.body.deals.map((d: Json) => d.id)).toEqual([deals[0].id]);
		const byStage = await fx.api.get(`${V}/deals?stage_id=${stages[0].id}`);
		expect(byStage.body.deals.every((d: Json) => d.stage.id === stages[0].id)).toBe(true);
		const unassigned = await fx.api.get(`${V}/deals?assignee_id=unspecified`);
		expect(unassigned.body.deals.map((d: Json) => d.id)).toEqual([deals[4].id]);
		const spring = await fx.api.get(`${V}/deals?metadata[campaign]=spring`);
		expect(spring.body.deals.every((d: Json) => d.metadata.campaign === 'spring')).toBe(true);
		expect(spring.body.meta.pagination.count).toBeGreaterThan(0);
		expect((await fx.api.get(`${V}/deals?status=archived`)).status).toBe(422);

		const expanded = await fx.api.get(`${V}/deals/${deals[0].id}?expand=contact,stage,assignee`);
		expect(expanded.body.deal.contact).toMatchObject({
			id: deals[0].contact.id,
			email: expect.any(String),
		});
		expect(expanded.body.deal.stage.name).toBe('New enquiry');
		expect(Object.keys(expanded.body.deal.assignee).sort()).toEqual([
			'created_at',
			'email',
			'id',
			'name',
			'updated_at',
		]);
		const noStaff = await fx.api.token(['public.deal:read', 'public.contact:read']);
		const denied = await fx.api.get(`${V}/deals/${deals[0].id}?expand=assignee`, {
			token: noStaff,
		});
		expect(denied.status).toBe(403);
		expect(denied.body.error.message).toContain('public.staff:read');
	});

	test('seeded open deals are linked to a site and a unit type with a value estimate', async () => {
		const deal = (await fx.api.get(`${V}/deals/${deals[0].id}`)).body.deal;
		expect(deal.site).toEqual({ id: expect.stringMatching(/^site_/) });
		expect(deal.line_items).toEqual([
			{ item: { id: expect.stringMatching(/^utype_/) }, quantity: 1, type: 'unit_type' },
		]);
		expect(deal.value_estimate).toMatch(/ per (month|week)$/);
	});
});

describe('create and update', () => {
	test('create: 201, open, first stage by default, creator is the token, refs resolved', async () => {
		const [unitType] = fx.sandbox.core.all('unit_types');
		const res = await fx.api.post(`${V}/deals`, {
			contact: { id: contacts[35].id },
			line_items: [{ type: 'unit_type', item: { id: unitType.id } }],
			metadata: { source: 'test' },
		});
		expect(res.status).toBe(201);
		const d = res.body.deal;
		expect(d).toMatchObject({
			status: 'open',
			stage: { id: stages[0].id },
			contact: { id: contacts[35].id },
			name: contacts[35].full_name,
			creator: { id: expect.stringMatching(/^tok_/) },
			assignee: null,
			site: null,
			lost_reason: null,
			line_items: [{ item: { id: unitType.id }, quantity: 1, type: 'unit_type' }],
		});
		expect(d.value_estimate).toMatch(/ per /);
		expect((await fx.api.get(`${V}/deals/${d.id}`)).body.deal.id).toBe(d.id);
	});

	test('create validation: missing contact (pointer null), duplicate line item type, wrong prefix, unknown refs', async () => {
		const missing = await fx.api.post(`${V}/deals`, { name: 'x' });
		expect(missing.status).toBe(422);
		expect(missing.body.error.details).toEqual([
			{ message: expect.stringContaining("'contact'"), pointer: null },
		]);

		const [u1, u2] = fx.sandbox.core.all('unit_types');
		const twice = await fx.api.post(`${V}/deals`, {
			contact: { id: contacts[35].id },
			line_items: [
				{ type: 'unit_type', item: { id: u1.id } },
				{ type: 'unit_type', item: { id: u2.id } },
			],
		});
		expect(twice.status).toBe(422);
		expect(twice.body.error.details[0].pointer).toBe('/line_items/1/type');

		const prefix = await fx.api.post(`${V}/deals`, { contact: { id: deals[0].id } });
		expect(prefix.body.error.details[0].pointer).toBe('/contact/id');
		const wrongItem = await fx.api.post(`${V}/deals`, {
			contact: { id: contacts[35].id },
			line_items: [{ type: 'protection', item: { id: u1.id } }],
		});
		expect(wrongItem.status).toBe(422);
		expect(wrongItem.body.error.details[0].pointer).toBe('/line_items/0/item/id');

		const unknown = await fx.api.post(`${V}/deals`, { contact: { id: 'con_unknown00000000' } });
		expect(unknown.status).toBe(404);
		expect(unknown.body.error.code).toBe('resource_not_found');
		expect(
			(
				await fx.api.post(`${V}/deals`, {
					contact: { id: contacts[35].id },
					stage: { id: 'dstg_zzz' },
				})
			).status,
		).toBe(404);
		expect(fx.sandbox.core.all('deals')).toHaveLength(deals.length);
	});

	test('update: stage, null site and assignee, [] clears line items, note; 404', async () => {
		const res = await fx.api.patch(`${V}/deals/${deals[0].id}`, {
			stage: { id: stages[3].id },
			site: null,
			assignee: null,
			line_items: [],
			note: 'About £60 a month',
			starts_at: null,
		});
		expect(res.status).toBe(200);
		expect(res.body.deal).toMatchObject({
			stage: { id: stages[3].id },
			site: null,
			assignee: null,
			line_items: [],
			value_estimate: null,
			note: 'About £60 a month',
			starts_at: null,
			contact: deals[0].contact,
		});
		const notAllowed = await fx.api.patch(`${V}/deals/${deals[0].id}`, {
			contact: { id: contacts[1].id },
		});
		expect(notAllowed.status).toBe(422);
		expect(notAllowed.body.error.details[0].pointer).toBe('/contact');
		expect((await fx.api.patch(`${V}/deals/deal_nope`, { name: 'x' })).status).toBe(404);
	});
});

describe('win, lose, reopen', () => {
	test('open → won → (win/lose 409) → reopen → lost → reopen', async () => {
		const id = deals[0].id;
		const won = await fx.api.post(`${V}/deals/${id}/win`);
		expect(won.status).toBe(200);
		expect(won.body.deal.status).toBe('won');
		for (const [action, body] of [
			['win', undefined],
			['lose', { lost_reason: 'price_concerns' }],
		] as const) {
			const res = await fx.api.post(`${V}/deals/${id}/${action}`, body);
			expect(res.status).toBe(409);
			expect(res.body.error.code).toBe('conflict');
		}
		const reopened = await fx.api.post(`${V}/deals/${id}/reopen`, { stage: { id: stages[1].id } });
		expect(reopened.body.deal).toMatchObject({ status: 'open', stage: { id: stages[1].id } });
		expect((await fx.api.post(`${V}/deals/${id}/reopen`)).status).toBe(409);

		const lost = await fx.api.post(`${V}/deals/${id}/lose`, { lost_reason: 'chose_competitor' });
		expect(lost.body.deal).toMatchObject({ status: 'lost', lost_reason: 'chose_competitor' });
		expect((await fx.api.post(`${V}/deals/${id}/win`)).status).toBe(409);
		const again = await fx.api.post(`${V}/deals/${id}/reopen`);
		expect(again.body.deal).toMatchObject({
			status: 'open',
			lost_reason: null,
			stage: { id: stages[1].id },
		});
	});

	test('lose requires a documented lost_reason', async () => {
		const id = deals[1].id;
		const missing = await fx.api.post(`${V}/deals/${id}/lose`, {});
		expect(missing.status).toBe(422);
		expect(missing.body.error.details).toEqual([
			{ message: expect.stringContaining("'lost_reason'"), pointer: null },
		]);
		const bad = await fx.api.post(`${V}/deals/${id}/lose`, { lost_reason: 'bored' });
		expect(bad.body.error.details[0].pointer).toBe('/lost_reason');
		expect((await fx.api.get(`${V}/deals/${id}`)).body.deal.status).toBe('open');
		expect(
			(await fx.api.post(`${V}/deals/deal_nope/lose`, { lost_reason: 'price_concerns' })).status,
		).toBe(404);
	});

	test('a read-only token cannot win a deal', async () => {
		const readOnly = await fx.api.token(['public.deal:read']);
		const res = await fx.api.post(`${V}/deals/${deals[0].id}/win`, undefined, { token: readOnly });
		expect(res.status).toBe(403);
		expect(res.body.error.message).toContain('public.deal:write');
	});

	test('update, win and reopen emit deal.updated; lose emits deal.lost', async () => {
		const receiver = await startReceiver();
		try {
			await fx.api.post(`${V}/webhook_endpoints`, {
				name: 'deals',
				api_version: '2025-09',
				url: receiver.url,
				event_types: ['deal.updated', 'deal.lost'],
			});
			const id = deals[1].id;
			await fx.api.post(`${V}/deals`, { contact: { id: contacts[36].id } });
			await fx.api.patch(`${V}/deals/${id}`, { name: 'Renamed' });
			await fx.api.post(`${V}/deals/${id}/win`);
			await fx.api.post(`${V}/deals/${id}/reopen`);
			await fx.api.post(`${V}/deals/${id}/lose`, { lost_reason: 'price_concerns' });
			await fx.sandbox.whenDeliveriesIdle();
			expect(receiver.events.map((e) => e.type)).toEqual([
				'deal.updated',
				'deal.updated',
				'deal.updated',
				'deal.lost',
			]);
			expect(receiver.events[3].data.deal).toMatchObject({
				id,
				status: 'lost',
				lost_reason: 'price_concerns',
			});
		} finally {
			await receiver.close();
		}
	});
});
