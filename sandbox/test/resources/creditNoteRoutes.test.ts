/** Credit notes (`/credit_notes`) over real HTTP, as JSON and PDF. */
import { pages, type Json } from '../calls';
import { useSandboxWithClients } from '../fixture';

// Not JSON (PDFs): `body` is `{}`; the bytes are in `raw`.
const fx = useSandboxWithClients({
	seed: 'demo',
	resetEach: false,
	client: { redirect: 'follow', nonJson: () => ({}) },
});
const { all } = pages(fx);

describe('invoices and credit notes', () => {
	test('credit notes reference invoices and render as PDF', async () => {
		const notes = await all('/2025-09/credit_notes');
		expect(notes).toHaveLength(3);
		expect(new Set(notes.map((n) => n.type))).toEqual(new Set(['pre_payment', 'post_payment']));
		const note = notes[0];
		const invoice = (await fx.call('GET', `/2025-09/invoices/${note.invoice.id as string}`)).body
			.invoice as Json;
		const field =
			note.type === 'pre_payment'
				? 'pre_payment_credit_notes_amount'
				: 'post_payment_credit_notes_amount';
		expect(invoice[field].amount).toBe(note.total.amount);
		expect(note.number).toContain(invoice.number as string);
		const one = await fx.call('GET', `/2025-09/credit_notes/${note.id as string}?expand=invoice`);
		expect(one.body.credit_note.invoice.number).toBe(invoice.number);
		const pdf = await fx.call('GET', `/2025-09/credit_notes/${note.id as string}`, {
			accept: 'application/pdf',
		});
		expect(pdf.headers.get('content-type')).toBe('application/pdf');
		expect(pdf.raw.toString('latin1')).toContain(note.number as string);
	});
});
