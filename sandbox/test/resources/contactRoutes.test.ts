/** Contacts (`/contacts`) over real HTTP: derived status, list filters, create/get/update/delete rules, webhooks, scopes. */
import type { Json } from '../../client';
import { useSandboxWithClients } from '../fixture';
import { startReceiver } from '../../core/testing';

const fx = useSandboxWithClients({
	seed: 'demo',
	allowHttpWebhooks: true,
	client: { redirect: 'follow' },
});
let contacts: Json[];

beforeEach(async () => {
	contacts = await fx.api.state('contacts');
});

const V = '/2025-09';
const ids = (body: Json, key = 'contacts'): string[] => body[key].map((r: Json) => r.id);

describe('derived status and list', () => {
	test('seeded contacts: 0..14 customers, 15..19 churned, 20..39 leads, with tenancies_count', async () => {
		expect(contacts).toHaveLength(40);
		const customer = (await fx.api.get(`${V}/contacts/${contacts[0].id}`)).body.contact;
		const churned = (await fx.api.get(`${V}/contacts/${contacts[15].id}`)).body.contact;
		const lead = (await fx.api.get(`${V}/contacts/${contacts[20].id}`)).body.contact;
		expect(customer.status).toBe('customer');
		expect(customer.tenancies_count).toBeGreaterThanOrEqual(1);
		expect(churned.status).toBe('churned');
		expect(churned.tenancies_count).toBeGreaterThanOrEqual(1);
		expect(lead).toMatchObject({ status: 'lead', tenancies_count: 0 });
		expect(Object.keys(lead).sort()).toEqual(
			[
				'id',
				'email',
				'full_name',
				'phone_number',
				'tax_id',
				'company_registration_number',
				'address',
				'type',
				'marketing_source',
				'source',
				'use_case',
				'metadata',
				'payments_customer_id',
				'identity_check',
				'status',
				'tenancies_count',
				'created_at',
				'updated_at',
			].sort(),
		);
	});

	test('status becomes churned once every tenancy has ended (derived at render time)', async () => {
		const id = contacts[0].id;
		for (const t of fx.sandbox.core.all('tenancies').filter((t) => (t.contact as Json).id === id)) {
			fx.sandbox.core.update('tenancies', t.id, {
				ends_at: new Date(Date.now() - 1000).toISOString(),
			});
		}
		expect((await fx.api.get(`${V}/contacts/${id}`)).body.contact.status).toBe('churned');
	});

	test('status filter (multi-value) and invalid value', async () => {
		const leads = await fx.api.get(`${V}/contacts?status=lead&limit=100`);
		expect(leads.body.meta.pagination.count).toBe(20);
		expect(leads.body.contacts.every((c: Json) => c.status === 'lead')).toBe(true);
		const both = await fx.api.get(`${V}/contacts?status=customer,churned&limit=100`);
		expect(both.body.meta.pagination.count).toBe(20);
		const bad = await fx.api.get(`${V}/contacts?status=vip`);
		expect(bad.status).toBe(422);
		expect(bad.body.error.code).toBe('invalid_url_param');
		expect(bad.body.error.details[0].pointer).toBe('status');
	});

	test('enum filters with unspecified, email, search, metadata', async () => {
		const nullType = contacts
			.filter((c) => c.type === null)
			.map((c) => c.id)
			.sort();
		const unspecified = await fx.api.get(`${V}/contacts?type=unspecified&limit=100`);
		expect(ids(unspecified.body).sort()).toEqual(nullType);
		const companies = await fx.api.get(`${V}/contacts?type=company,charity&limit=100`);
		expect(
			companies.body.contacts.every((c: Json) => ['company', 'charity'].includes(c.type)),
		).toBe(true);
		expect(companies.body.meta.pagination.count).toBe(
			contacts.filter((c) => ['company', 'charity'].includes(c.type)).length,
		);
		expect((await fx.api.get(`${V}/contacts?type=alien`)).status).toBe(422);

		const byEmail = await fx.api.get(
			`${V}/contacts?email=${encodeURIComponent(contacts[7].email)}`,
		);
		expect(ids(byEmail.body)).toEqual([contacts[7].id]);

		const fragment = (contacts[3].full_name as string).split(' ')[0].toLowerCase();
		const search = await fx.api.get(`${V}/contacts?search=${fragment}&limit=100`);
		expect(search.body.contacts.length).toBeGreaterThan(0);
		expect(ids(search.body)).toContain(contacts[3].id);
		expect(
			search.body.contacts.every((c: Json) =>
				`${c.full_name} ${c.email} ${c.phone_number}`.toLowerCase().includes(fragment),
			),
		).toBe(true);

		const gold = await fx.api.get(`${V}/contacts?metadata[tier]=gold&limit=100`);
		expect(ids(gold.body).sort()).toEqual(
			contacts
				.filter((c) => c.metadata.tier === 'gold')
				.map((c) => c.id)
				.sort(),
		);
	});

	test('created window (after inclusive, before exclusive), sorting and CSV', async () => {
		const after = contacts[10].created_at;
		const before = contacts[20].created_at;
		const window = await fx.api.get(
			`${V}/contacts?created_after=${after}&created_before=${before}&sort_direction=ASC`,
		);
		expect(ids(window.body)).toEqual(contacts.slice(10, 20).map((c) => c.id));

		const sorted = await fx.api.get(`${V}/contacts?sort_by=full_name&sort_direction=ASC&limit=100`);
		const names = sorted.body.contacts.map((c: Json) => (c.full_name as string).toLowerCase());
		expect(names).toEqual([...names].sort());

		const csv = await fx.api.get(`${V}/contacts?limit=5`, { accept: 'text/csv' });
		expect(csv.status).toBe(200);
		expect(csv.headers.get('content-type')).toMatch(/text\/csv/);
		expect(csv.text.split('\r\n')[0]).toContain('email');
		expect(csv.text.trim().split('\r\n')).toHaveLength(6);
	});
});

describe('create, get, update', () => {
	test('create answers 201 with a lead and every documented field', async () => {
		const res = await fx.api.post(`${V}/contacts`, {
			email: 'new.person@example.com',
			full_name: 'New Person',
			type: 'domestic',
			address: { line_1: '1 Road', city: 'York', postal_code: 'YO1 1AA', country_alpha2: 'GB' },
			metadata: { crm: 'x1' },
		});
		expect(res.status).toBe(201);
		const c = res.body.contact;
		expect(c.id).toMatch(/^con_/);
		expect(c).toMatchObject({
			email: 'new.person@example.com',
			status: 'lead',
			tenancies_count: 0,
			phone_number: null,
			source: null,
			payments_customer_id: null,
			metadata: { crm: 'x1' },
			address: {
				line_1: '1 Road',
				line_2: null,
				city: 'York',
				postal_code: 'YO1 1AA',
				state: null,
				country_alpha2: 'GB',
			},
		});
		expect((await fx.api.get(`${V}/contacts/${c.id}`)).body.contact.email).toBe(
			'new.person@example.com',
		);
	});

	test('create validation: missing email (pointer null), unknown field, bad enum, nested unknown member', async () => {
		const missing = await fx.api.post(`${V}/contacts`, { full_name: 'No Email' });
		expect(missing.status).toBe(422);
		expect(missing.body.error.code).toBe('invalid_content');
		expect(missing.body.error.details).toEqual([
			{ message: expect.stringContaining("'email'"), pointer: null },
		]);

		const bad = await fx.api.post(`${V}/contacts`, {
			email: 'not-an-email',
			colour: 'blue',
			type: 'alien',
			address: { line_1: 'x', planet: 'Mars' },
		});
		expect(bad.status).toBe(422);
		expect(bad.body.error.details.map((d: Json) => d.pointer).sort()).toEqual([
			'/address/planet',
			'/colour',
			'/email',
			'/type',
		]);
		expect(fx.sandbox.core.all('contacts')).toHaveLength(40);
	});

	test('get unknown contact is 404 resource_not_found', async () => {
		const res = await fx.api.get(`${V}/contacts/con_doesnotexist`);
		expect(res.status).toBe(404);
		expect(res.body.error.code).toBe('resource_not_found');
	});

	test('update changes only the given fields; metadata merges, null removes; address null clears', async () => {
		const target = contacts[22];
		const res = await fx.api.patch(`${V}/contacts/${target.id}`, {
			full_name: 'Renamed Lead',
			address: null,
			metadata: { extra: 'yes', crm_ref: null },
		});
		expect(res.status).toBe(200);
		const c = res.body.contact;
		expect(c).toMatchObject({
			full_name: 'Renamed Lead',
			email: target.email,
			address: null,
			status: 'lead',
		});
		expect(c.metadata).toEqual({
			...Object.fromEntries(Object.entries(target.metadata).filter(([k]) => k !== 'crm_ref')),
			extra: 'yes',
		});
		expect(Date.parse(c.updated_at)).toBeGreaterThan(Date.parse(target.updated_at));
		const invalid = await fx.api.patch(`${V}/contacts/${target.id}`, { use_case: 'hiding' });
		expect(invalid.status).toBe(422);
		expect(invalid.body.error.details[0].pointer).toBe('/use_case');
		expect((await fx.api.patch(`${V}/contacts/con_nope`, { full_name: 'x' })).status).toBe(404);
	});
});

describe('delete', () => {
	test('a lead without invoices is deleted', async () => {
		const res = await fx.api.del(`${V}/contacts/${contacts[30].id}`);
		expect(res.status).toBe(200);
		expect(res.body.success.message).toEqual(expect.any(String));
		expect((await fx.api.get(`${V}/contacts/${contacts[30].id}`)).status).toBe(404);
	});

	test('customers and churned contacts cannot be deleted (409 conflict)', async () => {
		for (const c of [contacts[5], contacts[16]]) {
			const res = await fx.api.del(`${V}/contacts/${c.id}`);
			expect(res.status).toBe(409);
			expect(res.body.error.code).toBe('conflict');
		}
		expect(fx.sandbox.core.get('contacts', contacts[5].id)).toBeDefined();
	});

	test('a lead with an invoice cannot be deleted (409 conflict)', async () => {
		const lead = contacts[25];
		const [invoice] = fx.sandbox.core.all('invoices');
		fx.sandbox.core.insert('invoices', {
			...invoice,
			id: 'inv_crmtestlead0001',
			contact: { id: lead.id },
		});
		const res = await fx.api.del(`${V}/contacts/${lead.id}`);
		expect(res.status).toBe(409);
		expect(res.body.error.code).toBe('conflict');
		expect(res.body.error.message).toMatch(/invoice/);
	});

	test('unknown contact is 404', async () => {
		expect((await fx.api.del(`${V}/contacts/con_missing`)).status).toBe(404);
	});
});

describe('scopes and webhooks', () => {
	test('a token without public.contact:write gets 403 naming the scope', async () => {
		const readOnly = await fx.api.token(['public.contact:read']);
		const res = await fx.api.post(`${V}/contacts`, { email: 'a@b.co' }, { token: readOnly });
		expect(res.status).toBe(403);
		expect(res.body.error.code).toBe('forbidden');
		expect(res.body.error.message).toContain('public.contact:write');
		expect((await fx.api.get(`${V}/contacts?limit=1`, { token: readOnly })).status).toBe(200);
		const noRead = await fx.api.token(['public.deal:read']);
		expect((await fx.api.get(`${V}/contacts`, { token: noRead })).body.error.message).toContain(
			'public.contact:read',
		);
	});

	test('create and update emit contact.created and contact.updated', async () => {
		const receiver = await startReceiver();
		try {
			const endpoint = await fx.api.post(`${V}/webhook_endpoints`, {
				name: 'crm test',
				api_version: '2025-09',
				url: receiver.url,
				event_types: ['contact.created', 'contact.updated'],
			});
			expect(endpoint.status).toBeLessThan(300);
			const created = (await fx.api.post(`${V}/contacts`, { email: 'hook@example.com' })).body
				.contact;
			await fx.api.patch(`${V}/contacts/${created.id}`, { full_name: 'Hooked' });
			await fx.api.del(`${V}/contacts/${created.id}`);
			await fx.sandbox.whenDeliveriesIdle();
			expect(receiver.events.map((e) => e.type)).toEqual(['contact.created', 'contact.updated']);
			expect(receiver.events[0].data.contact).toMatchObject({
				id: created.id,
				email: 'hook@example.com',
				status: 'lead',
			});
			expect(receiver.events[1].data.contact.full_name).toBe('Hooked');
		} finally {
			await receiver.close();
		}
	});
});
