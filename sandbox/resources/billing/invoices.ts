/**
 * Invoices: list (contact/site/subscription/tenancy/status/type/collection_status filters, created/updated/due
 * windows, sort by created_at/due_date/updated_at) and get (JSON or `Accept: application/pdf`).
 */
import type { ApiRecord, ResourceModule } from '../../core/types';
import {
	TAX_RATE,
	addDays,
	addMinutes,
	addPeriods,
	arr,
	iso,
	money,
	obj,
	refId,
	registerReadable,
	str,
	type SeedWriter,
} from './shared';

export const INVOICE_STATUSES = ['draft', 'deleted', 'open', 'paid', 'uncollectible', 'void'];
export const INVOICE_TYPES = ['subscription', 'ad_hoc', 'deposit'];
export const COLLECTION_STATUSES = ['pending', 'overdue', 'collected', 'not_collected'];

const formatted = (money: unknown) => String(obj(money).formatted ?? '');

function invoicePdf(invoice: ApiRecord) {
	return {
		title: `Invoice ${String(invoice.number)}`,
		lines: [
			`Status: ${String(invoice.status)}  Type: ${String(invoice.type)}`,
			`Contact: ${refId(invoice.contact) ?? '-'}  Site: ${refId(invoice.site) ?? '-'}`,
			`Period: ${str(invoice.period_start) ?? '-'} to ${str(invoice.period_end) ?? '-'}`,
			`Due: ${str(invoice.due_date) ?? '-'}`,
			...arr(invoice.line_items).map(
				(l) =>
					`${String(obj(l).description)}  x${String(obj(l).quantity)}  ${formatted(obj(l).total)}`,
			),
			`Subtotal: ${formatted(invoice.subtotal)}  Tax: ${formatted(invoice.tax)}  Total: ${formatted(invoice.total)}`,
			`Amount due: ${formatted(invoice.amount_due)}  Paid: ${formatted(invoice.amount_paid)}`,
		],
	};
}

export const invoices: ResourceModule = {
	register(api) {
		registerReadable(
			api,
			{ name: 'invoices', key: 'invoice', prefix: 'inv_', scope: 'invoice' },
			{
				path: 'invoices',
				param: 'invoice_id',
				spec: {
					sortBy: ['created_at', 'due_date', 'updated_at'],
					filters: {
						contact_id: { field: 'contact.id' },
						site_id: { field: 'site.id' },
						subscription_id: { field: 'subscription.id' },
						tenancy_id: { field: 'tenancy.id' },
						status: { field: 'status', values: INVOICE_STATUSES },
						type: { field: 'type', values: INVOICE_TYPES },
						collection_status: { field: 'collection_status', values: COLLECTION_STATUSES },
					},
					windows: { created: 'created_at', updated: 'updated_at', due: 'due_date' },
				},
				pdf: invoicePdf,
			},
		);
	},
};

// Per contact 0..4: [deposit paid, subscription paid, subscription current, ad hoc].
const CURRENT = [
	['open', 'pending'],
	['open', 'overdue'],
	['uncollectible', 'not_collected'],
	['open', 'overdue'],
	['draft', 'pending'],
];
const AD_HOC = [
	['void', 'not_collected'],
	['deleted', 'not_collected'],
	['paid', 'collected'],
	['open', 'pending'],
	['paid', 'collected'],
];

/** Demo seed: four invoices for each of contacts 0..4 (20, covering every status, type and collection status). Returns them by contact index. */
export function seedInvoices(
	w: SeedWriter,
	subscriptionsByContact: ApiRecord[],
	tenancyByContact: ApiRecord[],
	unitTypes: ApiRecord[],
): ApiRecord[][] {
	const { core, put, now } = w;
	let invoiceNumber = 0;
	const invoicesByContact: ApiRecord[][] = [];
	for (let c = 0; c < 5; c++) {
		const subscription = subscriptionsByContact[c];
		const tenancy = tenancyByContact[c];
		if (!subscription || !tenancy) continue;
		const period = String(subscription.billing_period);
		const renewal = new Date(String((subscription.current_period as { ends_at: string }).ends_at));
		const recurring = (
			subscription.line_items as Array<{
				price: { amount: number };
				type: string;
				item: { id: string };
			}>
		).map((l) => ({
			description:
				l.type === 'unit_type'
					? 'Storage unit rent'
					: l.type === 'protection'
						? 'Protection cover'
						: 'Parking space',
			amount: l.price.amount,
		}));
		const deposit =
			(
				unitTypes.find(
					(t) => t.id === (subscription.line_items as Array<{ item: { id: string } }>)[0].item.id,
				)?.security_deposit as { amount: number } | null
			)?.amount ?? 5000;
		const specs = [
			{
				type: 'deposit',
				status: 'paid',
				collection: 'collected',
				lines: [{ description: 'Security deposit', amount: deposit }],
				periodEnd: addDays(renewal, -60),
			},
			{
				type: 'subscription',
				status: 'paid',
				collection: 'collected',
				lines: recurring,
				periodEnd: addPeriods(renewal, period, -1)!,
			},
			{
				type: 'subscription',
				status: CURRENT[c][0],
				collection: CURRENT[c][1],
				lines: recurring,
				periodEnd: renewal,
			},
			{
				type: 'ad_hoc',
				status: AD_HOC[c][0],
				collection: AD_HOC[c][1],
				lines: [{ description: 'Disc padlock', amount: 999 }],
				periodEnd: addDays(renewal, -10),
			},
		];
		invoicesByContact[c] = specs.map((spec, k) => {
			invoiceNumber++;
			const periodStart =
				spec.type === 'subscription' ? addPeriods(spec.periodEnd, period, -1)! : spec.periodEnd;
			// Overdue invoices fell due a week ago; pending ones fall due in a week; paid ones long ago.
			const created =
				spec.collection === 'overdue'
					? addDays(now, -21 - c)
					: spec.collection === 'pending'
						? addDays(now, -(c + 1))
						: addDays(now, -(90 - k * 20 + c));
			const due =
				spec.collection === 'overdue'
					? addDays(now, -7 - c)
					: spec.collection === 'pending'
						? addDays(now, 7 + c)
						: addDays(created, 7);
			const lines = spec.lines.map((l) => {
				const tax = Math.round(l.amount * TAX_RATE);
				return {
					accounting_code:
						spec.type === 'deposit' ? 'DEP-001' : spec.type === 'ad_hoc' ? 'PRD-100' : 'RENT-001',
					description: l.description,
					discount_total: money(core, 0),
					price: money(core, l.amount),
					proration: false,
					quantity: 1,
					tax: money(core, tax),
					total: money(core, l.amount + tax),
					total_excluding_tax: money(core, l.amount),
					type: null,
				};
			});
			const subtotal = spec.lines.reduce((a, l) => a + l.amount, 0);
			const tax = lines.reduce((a, l) => a + l.tax.amount, 0);
			const paid = spec.status === 'paid';
			const finalized = spec.status !== 'draft' && spec.status !== 'deleted';
			return put('invoices', {
				id: core.newId('inv_'),
				amount_due: money(
					core,
					paid || spec.status === 'void' || spec.status === 'deleted' ? 0 : subtotal + tax,
				),
				amount_paid: money(core, paid ? subtotal + tax : 0),
				collection_status: spec.collection,
				contact: { id: String((subscription.contact as { id: string }).id) },
				site: { id: String((subscription.site as { id: string }).id) },
				subscription: { id: subscription.id },
				tenancy: { id: tenancy.id },
				created_at: iso(created),
				due_date: iso(due),
				finalized_at: finalized ? iso(addMinutes(created, 5)) : null,
				paid_at: paid ? iso(addDays(created, 2)) : null,
				period_start: iso(periodStart),
				period_end: iso(spec.periodEnd),
				voided_at: spec.status === 'void' ? iso(addDays(created, 1)) : null,
				line_items: lines,
				number: `ACME-${String(invoiceNumber).padStart(4, '0')}`,
				post_payment_credit_notes_amount: money(core, 0),
				pre_payment_credit_notes_amount: money(core, 0),
				purchase_order_number: c === 2 ? 'PO-7781' : null,
				refund_status: 'not_refunded',
				status: spec.status,
				subtotal: money(core, subtotal),
				tax: money(core, tax),
				total: money(core, subtotal + tax),
				type: spec.type,
				updated_at: iso(paid ? addDays(created, 2) : addMinutes(created, 5)),
			});
		});
	}
	return invoicesByContact;
}
