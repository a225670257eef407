/** Contracts (JSON and PDF), contract templates, identity verifications, staff refs and the empty seed. */
import type { Json } from '../client';
import { useSandboxWithClients } from './fixture';

const fx = useSandboxWithClients({ seed: 'demo', resetEach: false, client: { redirect: 'follow' } });
let contracts: Json[];

beforeAll(async () => {
	contracts = await fx.api.state('contracts');
});

const V = '/2025-09';

describe('contracts', () => {
	test('seed covers every status; list filters by status and contact; _links by status', async () => {
		expect(new Set(contracts.map((c) => c.status))).toEqual(new Set(['pending', 'signed', 'voided', 'declined', 'deleted']));
		const signed = await fx.api.get(`${V}/contracts?status=signed`);
		expect(signed.body.meta.pagination.count).toBe(contracts.filter((c) => c.status === 'signed').length);
		expect(signed.body.contracts.every((c: Json) => c.signed_at && c._links['sf:show_contract'].href)).toBe(true);
		const voided = contracts.find((c) => c.status === 'voided');
		expect((await fx.api.get(`${V}/contracts/${voided.id}`)).body.contract._links).toEqual({});
		const mine = await fx.api.get(`${V}/contracts?contact_id=${contracts[0].contact.id}`);
		expect(mine.body.contracts.map((c: Json) => c.id)).toEqual([contracts[0].id]);
		expect((await fx.api.get(`${V}/contracts?status=lost`)).status).toBe(422);
		expect(Object.keys(contracts[0]).sort()).toEqual(
			['_links', 'contact', 'contract_template', 'created_at', 'id', 'name', 'sent_at', 'signed_at', 'status', 'tenancy', 'updated_at'].sort(),
		);
	});

	test("contracts of customers point at the contact's tenancy", async () => {
		const res = await fx.api.get(`${V}/contracts/${contracts[0].id}?expand=tenancy`);
		expect(res.body.contract.tenancy).toMatchObject({ id: expect.stringMatching(/^ten_/), contact: contracts[0].contact });
	});

	test('PDF only for signed contracts (406 invalid_format otherwise)', async () => {
		const signed = contracts.find((c) => c.status === 'signed');
		const pdf = await fx.api.get(`${V}/contracts/${signed.id}`, { accept: 'application/pdf' });
		expect(pdf.status).toBe(200);
		expect(pdf.headers.get('content-type')).toBe('application/pdf');
		expect(pdf.text.startsWith('%PDF-')).toBe(true);
		const pending = contracts.find((c) => c.status === 'pending');
		const refused = await fx.api.get(`${V}/contracts/${pending.id}`, { accept: 'application/pdf' });
		expect(refused.status).toBe(406);
		expect(refused.body.error.code).toBe('invalid_format');
		expect((await fx.api.get(`${V}/contracts/${pending.id}`)).body.contract.status).toBe('pending');
		expect((await fx.api.get(`${V}/contracts/ctr_nope`)).status).toBe(404);
		expect((await fx.api.get(`${V}/contracts`, { accept: 'application/pdf' })).status).toBe(406);
		const csv = await fx.api.get(`${V}/contracts`, { accept: 'text/csv' });
		expect(csv.text.split('\r\n')[0]).toContain('status');
	});

	test('contract templates list; scopes', async () => {
		const res = await fx.api.get(`${V}/contract_templates`);
		expect(res.body.contract_templates.map((t: Json) => t.name).sort()).toEqual(['Business storage agreement', 'Standard storage agreement']);
		const token = await fx.api.token(['public.contract:read']);
		const denied = await fx.api.get(`${V}/contract_templates`, { token });
		expect(denied.status).toBe(403);
		expect(denied.body.error.message).toContain('public.contract_template:read');
		expect((await fx.api.get(`${V}/contracts/${contracts[0].id}?expand=contract_template`, { token })).status).toBe(403);
	});
});

describe('identity verifications', () => {
	test('list by contact and status, get, 404', async () => {
		const all = await fx.api.state('identity_verifications');
		const failed = await fx.api.get(`${V}/identity_verifications?status=failed`);
		expect(failed.body.identity_verifications.map((v: Json) => v.error_code).sort()).toEqual(['document_expired', 'selfie_mismatch']);
		const byContact = await fx.api.get(`${V}/identity_verifications?contact_id=${all[0].contact.id}`);
		expect(byContact.body.identity_verifications.map((v: Json) => v.id)).toEqual([all[0].id]);
		const one = await fx.api.get(`${V}/identity_verifications/${all[4].id}?expand=contact`);
		expect(one.body.identity_verification).toMatchObject({ status: 'processing', error_code: null, contact: { id: all[4].contact.id, email: expect.any(String) } });
		expect(Object.keys(all[0]).sort()).toEqual(['contact', 'created_at', 'error_code', 'id', 'status', 'updated_at']);
		expect((await fx.api.get(`${V}/identity_verifications/idver_nope`)).status).toBe(404);
	});
});

describe('staff and the empty seed', () => {
	test('staff has no routes but is expandable with public.staff:read', async () => {
		expect((await fx.api.get(`${V}/staff`)).status).toBe(404);
		const staff = await fx.api.state('staff');
		expect(staff.length).toBeGreaterThanOrEqual(3);
		expect(staff.every((s: Json) => /^staff_/.test(s.id) && s.name && s.email)).toBe(true);
	});

	test('the empty seed has no CRM records; creating still works', async () => {
		await fx.api.reset('empty');
		try {
			for (const path of ['contacts', 'deals', 'deals/stages', 'tasks', 'notes', 'timeline/sources', 'timeline/templates', 'contracts', 'contract_templates', 'identity_verifications']) {
				const res = await fx.api.get(`${V}/${path}`);
				expect([path, res.body.meta.pagination.count]).toEqual([path, 0]);
			}
			const contact = await fx.api.post(`${V}/contacts`, { email: 'first@example.com' });
			expect(contact.status).toBe(201);
			const deal = await fx.api.post(`${V}/deals`, { contact: { id: contact.body.contact.id } });
			expect(deal.status).toBe(422);
			expect(deal.body.error.details[0].message).toMatch(/stage/);
		} finally {
			await fx.api.reset('demo');
		}
	});

	test('the demo seed is deterministic across resets', async () => {
		const before = await fx.api.state('contacts');
		await fx.api.reset('demo');
		const after = await fx.api.state('contacts');
		expect(after.map((c: Json) => [c.id, c.email])).toEqual(before.map((c: Json) => [c.id, c.email]));
	});
});
