/** Credit notes: list and get (JSON or `Accept: application/pdf`). */
import type { ApiRecord, ResourceModule } from '../../core/types';
import {
	TAX_RATE,
	addDays,
	arr,
	iso,
	money,
	obj,
	refId,
	registerReadable,
	type SeedWriter,
} from './shared';

function creditNotePdf(note: ApiRecord) {
	return {
		title: `Credit note ${String(note.number)}`,
		lines: [
			`Invoice: ${refId(note.invoice) ?? '-'}  Contact: ${refId(note.contact) ?? '-'}`,
			`Status: ${String(note.status)}  Type: ${String(note.type)}  Reason: ${String(note.reason)}`,
			...arr(note.line_items).map(
				(l) => `${String(obj(l).description)}  ${String(obj(obj(l).amount).formatted ?? '')}`,
			),
			`Total: ${String(obj(note.total).formatted ?? '')}`,
		],
	};
}

/** The rendered credit note has no `updated_at` (the docs' has none); the store keeps one, as every record. */
function render(record: ApiRecord): ApiRecord {
	const rendered: Record<string, unknown> = { ...record };
	delete rendered.updated_at;
	return rendered as ApiRecord;
}

export const creditNotes: ResourceModule = {
	register(api) {
		registerReadable(
			api,
			{ name: 'credit_notes', key: 'credit_note', prefix: 'cred_', scope: 'credit_note', render },
			{
				path: 'credit_notes',
				param: 'credit_note_id',
				spec: { sortBy: ['created_at'] },
				pdf: creditNotePdf,
			},
		);
	},
};

/** Demo seed: three credit notes on invoices of contacts 0..2; each invoice's credit note amounts follow. */
export function seedCreditNotes(w: SeedWriter, invoicesByContact: ApiRecord[][]) {
	const { core, put } = w;
	const creditNoteSpecs: Array<[number, number, string, string, number]> = [
		// [contact, invoice index, type, reason, share of the total in %]
		[0, 1, 'post_payment', 'order_change', 50],
		[2, 2, 'pre_payment', 'other', 100],
		[1, 0, 'post_payment', 'duplicate', 100],
	];
	creditNoteSpecs.forEach(([c, k, type, reason, share]) => {
		const invoice = invoicesByContact[c]?.[k];
		if (!invoice) return;
		const total = Math.round(((invoice.total as { amount: number }).amount * share) / 100);
		const subtotal = Math.round(total / (1 + TAX_RATE));
		const created = addDays(new Date(String(invoice.created_at)), 3);
		put('credit_notes', {
			id: core.newId('cred_'),
			contact: invoice.contact,
			site: invoice.site,
			invoice: { id: invoice.id },
			number: `${String(invoice.number)}-CN-1`,
			reason,
			status: 'issued',
			type,
			subtotal: money(core, subtotal),
			total: money(core, total),
			line_items: [
				{
					amount: money(core, total),
					description: `Credit for ${String((invoice.line_items as Array<{ description: string }>)[0].description)}`,
					discount_total: money(core, 0),
					price: money(core, subtotal),
					quantity: 1,
					tax: money(core, total - subtotal),
					type: 'invoice_line_item',
				},
			],
			created_at: iso(created),
			updated_at: iso(created),
		});
		invoice[
			type === 'pre_payment'
				? 'pre_payment_credit_notes_amount'
				: 'post_payment_credit_notes_amount'
		] = money(core, total);
	});
}
