/** Contracts (`/contracts`) as JSON, CSV and PDF over real HTTP. */
import type { Json } from '../../client';
import { useSandboxWithClients } from '../fixture';

const fx = useSandboxWithClients({
	seed: 'demo',
	resetEach: false,
	client: { redirect: 'follow' },
});
let contracts: Json[];

beforeAll(async () => {
	contracts = await fx.api.state('contracts');
});

const V = '/2025-09';

describe('contracts', () => {
	test('seed covers every status; list filters by status and contact; _links by status', async () => {
		expect(new Set(contracts.map((c) => c.status))).toEqual(
			new Set(['pending', 'signed', 'voided', 'declined', 'deleted']),
		);
		const signed = await fx.api.get(`${V}/contracts?status=signed`);
		expect(signed.body.meta.pagination.count).toBe(
			contracts.filter((c) => c.status === 'signed').length,
		);
		expect(
			signed.body.contracts.every((c: Json) => c.signed_at && c._links['sf:show_contract'].href),
		).toBe(true);
		const voided = contracts.find((c) => c.status === 'voided');
		expect((await fx.api.get(`${V}/contracts/${voided.id}`)).body.contract._links).toEqual({});
		const mine = await fx.api.get(`${V}/contracts?contact_id=${contracts[0].contact.id}`);
		expect(mine.body.contracts.map((c: Json) => c.id)).toEqual([contracts[0].id]);
		expect((await fx.api.get(`${V}/contracts?status=lost`)).status).toBe(422);
		expect(Object.keys(contracts[0]).sort()).toEqual(
			[
				'_links',
				'contact',
				'contract_template',
				'created_at',
				'id',
				'name',
				'sent_at',
				'signed_at',
				'status',
				'tenancy',
				'updated_at',
			].sort(),
		);
	});

	test("contracts of customers point at the contact's tenancy", async () => {
		const res = await fx.api.get(`${V}/contracts/${contracts[0].id}?expand=tenancy`);
		expect(res.body.contract.tenancy).toMatchObject({
			id: expect.stringMatching(/^ten_/),
			contact: contracts[0].contact,
		});
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
});
