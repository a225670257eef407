/**
 * Invoices: list (contact/site/subscription/tenancy/status/type/collection_status filters, created/updated/due
 * windows, sort by created_at/due_date/updated_at) and get (JSON or `Accept: application/pdf`).
 */
import type { ApiRecord, ResourceModule } from '../../core/types';
import { arr, obj, refId, registerReadable, str } from './shared';

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
			...arr(invoice.line_items).map((l) => `${String(obj(l).description)}  x${String(obj(l).quantity)}  ${formatted(obj(l).total)}`),
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
