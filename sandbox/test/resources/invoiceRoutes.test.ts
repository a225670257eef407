/** Invoices (`/invoices`) over real HTTP: statuses, filters, sorts, windows, JSON and PDF. */
import { expectError, pages } from '../calls';
import { useSandboxWithClients } from '../fixture';

// Not JSON (PDFs): `body` is `{}`; the bytes are in `raw`.
const fx = useSandboxWithClients({
	seed: 'demo',
	resetEach: false,
	client: { redirect: 'follow', nonJson: () => ({}) },
});
const { list, all } = pages(fx);

describe('invoices and credit notes', () => {
	test('every status, type and collection status; filters', async () => {
		const invoices = await all('/2025-09/invoices');
		expect(invoices).toHaveLength(20);
		for (const [param, values] of [
			['status', ['draft', 'deleted', 'open', 'paid', 'uncollectible', 'void']],
			['type', ['subscription', 'ad_hoc', 'deposit']],
			['collection_status', ['pending', 'overdue', 'collected', 'not_collected']],
		] as const) {
			expect(new Set(invoices.map((i) => i[param]))).toEqual(new Set(values));
			const filtered = await all(`/2025-09/invoices?${param}=${values[0]},${values[1]}`);
			expect(filtered).toHaveLength(
				invoices.filter((i) => i[param] === values[0] || i[param] === values[1]).length,
			);
		}
		const contact = invoices[0].contact.id as string;
		expect(await all(`/2025-09/invoices?contact_id=${contact}`)).toHaveLength(4);
		expect(new Set(invoices.map((i) => i.contact.id)).size).toBe(5);
		for (const param of ['site', 'subscription', 'tenancy'] as const) {
			const id = invoices[0][param].id as string;
			const filtered = await all(`/2025-09/invoices?${param}_id=${id}`);
			expect(filtered.length).toBeGreaterThan(0);
			expect(filtered).toHaveLength(invoices.filter((i) => i[param].id === id).length);
		}
		expectError(await fx.call('GET', '/2025-09/invoices?status=late'), 422, 'invalid_url_param');
		expect(Object.keys(invoices[0]).sort()).toEqual(
			[
				'amount_due',
				'amount_paid',
				'collection_status',
				'contact',
				'created_at',
				'due_date',
				'finalized_at',
				'id',
				'line_items',
				'number',
				'paid_at',
				'period_end',
				'period_start',
				'post_payment_credit_notes_amount',
				'pre_payment_credit_notes_amount',
				'purchase_order_number',
				'refund_status',
				'site',
				'status',
				'subscription',
				'subtotal',
				'tax',
				'tenancy',
				'total',
				'type',
				'updated_at',
				'voided_at',
			].sort(),
		);
	});

	test('sort by due date and the due window', async () => {
		const invoices = await all('/2025-09/invoices?sort_by=due_date&sort_direction=ASC');
		const due = invoices.map((i) => Date.parse(i.due_date as string));
		expect(due).toEqual([...due].sort((a, b) => a - b));
		const now = new Date().toISOString();
		const overdue = await all(
			`/2025-09/invoices?due_before=${encodeURIComponent(now)}&collection_status=overdue`,
		);
		expect(overdue.length).toBeGreaterThan(0);
		const after = await all(`/2025-09/invoices?due_after=${encodeURIComponent(now)}`);
		const before = await all(`/2025-09/invoices?due_before=${encodeURIComponent(now)}`);
		expect(after.length + before.length).toBe(20);
		expect(after.every((i) => i.collection_status === 'pending')).toBe(true);
		const byUpdated = await all('/2025-09/invoices?sort_by=updated_at');
		const updated = byUpdated.map((i) => Date.parse(i.updated_at as string));
		expect(updated).toEqual([...updated].sort((a, b) => b - a));
		expectError(await fx.call('GET', '/2025-09/invoices?sort_by=total'), 422, 'invalid_url_param');
	});

	test('get as JSON and as PDF', async () => {
		const invoice = (await list('/2025-09/invoices?status=paid'))[0];
		const json = await fx.call('GET', `/2025-09/invoices/${invoice.id as string}?expand=contact`);
		expect(json.body.invoice.contact.email).toContain('@');
		const pdf = await fx.call('GET', `/2025-09/invoices/${invoice.id as string}`, {
			accept: 'application/pdf',
		});
		expect(pdf.status).toBe(200);
		expect(pdf.headers.get('content-type')).toBe('application/pdf');
		expect(pdf.raw.subarray(0, 5).toString('latin1')).toBe('%PDF-');
		expect(pdf.raw.toString('latin1')).toContain(invoice.number as string);
		expect(pdf.raw.toString('latin1').trimEnd().endsWith('%%EOF')).toBe(true);
		expectError(
			await fx.call('GET', `/2025-09/invoices/${invoice.id as string}`, { accept: 'image/png' }),
			406,
			'invalid_format',
		);
		expectError(
			await fx.call('GET', '/2025-09/invoices/inv_doesnotexist00'),
			404,
			'resource_not_found',
		);
	});
});
