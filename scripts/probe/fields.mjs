/**
 * Response fields against the documented field lists (shared api-reference resources.md, copied here as the docs
 * show them): per list, the top-level fields the docs list that no sampled record carries (missing), the fields
 * records carry that the docs do not list (extra), and the names where the spec and the docs disagree (renamed).
 * A trailing `?` marks a field the docs show only sometimes (a conditional or list-less member): never "missing".
 */
import { WHERE } from './points.mjs';

const TIMES = ['created_at', 'updated_at'];

export const DOCUMENTED_FIELDS = {
	contact: [
		'id',
		'address',
		'company_registration_number',
		...TIMES,
		'email',
		'full_name',
		'identity_check',
		'marketing_source',
		'metadata',
		'phone_number',
		'source',
		'status',
		'stripe_customer_id',
		'tax_id',
		'tenancies_count',
		'type',
		'use_case',
	],
	contract: [
		'id',
		'name',
		'_links?',
		'contact',
		'contract_template',
		'tenancy',
		'status',
		'sent_at',
		'signed_at',
		...TIMES,
	],
	coupon: [
		'id',
		'type',
		'percent?',
		'amount?',
		'auto_apply_to',
		'billing_period',
		'code',
		'duration',
		'months',
		'max_redemptions',
		'name',
		'public',
		'title',
		...TIMES,
	],
	creditNote: [
		'id',
		'contact',
		'site',
		'invoice',
		'number',
		'reason',
		'status',
		'type',
		'subtotal',
		'total',
		'line_items',
		'created_at',
	],
	deal: [
		'id',
		'name',
		'assignee',
		'contact',
		'creator',
		'line_items',
		'lost_reason',
		'metadata?',
		'note',
		'site',
		'stage',
		'starts_at',
		'status',
		'value_estimate',
		...TIMES,
	],
	dealStage: ['id', 'name', 'position', ...TIMES],
	identityVerification: ['id', 'contact', 'status', 'error_code', ...TIMES],
	invoice: [
		'id',
		'number',
		'amount_due',
		'amount_paid',
		'subtotal',
		'tax',
		'total',
		'pre_payment_credit_notes_amount',
		'post_payment_credit_notes_amount',
		'collection_status',
		'contact',
		'site',
		'subscription',
		'tenancy',
		'created_at',
		'due_date',
		'finalized_at',
		'paid_at',
		'period_start',
		'period_end',
		'voided_at',
		'line_items',
		'purchase_order_number',
		'refund_status',
		'status',
		'type',
	],
	note: ['id', 'content', 'resource', 'creator', 'metadata', ...TIMES],
	order: [
		'id',
		'billing_period',
		'contact',
		'contract_template',
		'coupon',
		...TIMES,
		'email_notifications',
		'line_items',
		'metadata',
		'one_time_total',
		'one_time_total_excluding_tax',
		'subtotal',
		'tax',
		'total',
		'total_discount',
		'total_excluding_tax',
		'payment_method',
		'payment_url',
		'purchase_order_number',
		'site',
		'source',
		'starts_at',
		'status',
		'subscription',
		'tenancy',
	],
	product: [
		'id',
		'name',
		'description',
		'accounting_code',
		'sku',
		'category',
		'charge_type',
		'prices',
		'site',
		...TIMES,
	],
	productCategory: ['id', 'name'],
	protectionLevel: [
		'id',
		'account_code',
		'cover_level',
		'prices',
		'public',
		'stripe_product_id',
		...TIMES,
	],
	site: [
		'id',
		'name',
		'description',
		'phone',
		'access_hours',
		'address',
		'directions',
		'images',
		'opened_at',
		...TIMES,
	],
	subscription: [
		'id',
		'billing_period',
		'cancellation_reason',
		'cancelled',
		'contact',
		'site',
		'order',
		'tenancy',
		'current_period',
		'starts_at',
		'ends_at',
		'line_items',
		'stripe_subscription_id',
		'stripe_subscription_schedule_id',
		...TIMES,
	],
	task: [
		'id',
		'title',
		'description',
		'assignee',
		'creator',
		'resource',
		'site',
		'status',
		'due_at',
		'completed_at',
		'metadata',
		...TIMES,
	],
	tenancy: [
		'id',
		'contact',
		'site',
		'order',
		'subscription',
		'unit_allocations',
		'starts_at',
		'ends_at',
		...TIMES,
	],
	timelineSource: ['id', 'name', 'website_url', 'global', ...TIMES],
	timelineTemplate: ['id', 'name', 'message', 'global', 'variables', ...TIMES],
	unit: ['id', 'reference_id', 'site', 'unit_type', 'status', 'unit_allocation', ...TIMES],
	unitAllocation: ['id', ...TIMES, 'granted_access_at', 'reserved_at', 'tenancy', 'unit'],
	unitType: [
		'id',
		'name',
		'slug',
		'size_description',
		'_links',
		...TIMES,
		'dimensions',
		'dynamic_pricing',
		'images',
		'prices',
		'promotion',
		'require_insurance_coverage',
		'require_security_deposit',
		'security_deposit',
		'selling_points',
		'site',
		'status',
		'stripe_product_id',
	],
	webhookEndpoint: [
		'id',
		'name',
		'description',
		'url',
		'api_version',
		'event_types',
		'status',
		'disabled_at',
		'secret',
		'metadata',
		'creator',
		...TIMES,
	],
};

/** Where the spec's name and the docs' differ: the docs' name, the spec's, and where in a record to look. */
export const RENAMED = [
	{ resource: 'contact', docs: 'stripe_customer_id', spec: 'payments_customer_id' },
	{ resource: 'site', docs: 'google_maps_url', spec: 'maps_url', inside: 'directions' },
	{ resource: 'unitType', docs: 'stripe_product_id', spec: 'payments_product_id' },
	{ resource: 'unitType', docs: 'stripe_price_id', spec: 'payments_price_id', inside: 'prices[]' },
	{ resource: 'protectionLevel', docs: 'stripe_product_id', spec: 'payments_product_id' },
	{
		resource: 'protectionLevel',
		docs: 'stripe_price_id',
		spec: 'payments_price_id',
		inside: 'prices[]',
	},
	{ resource: 'product', docs: 'stripe_price_id', spec: 'payments_price_id', inside: 'prices[]' },
];

/** The objects of `records` at `inside` (`directions`, `prices[]`), or the records themselves. */
function holders(records, inside) {
	if (!inside) return records;
	const name = inside.replace(/\[\]$/, '');
	return records.flatMap((record) => {
		const value = record[name];
		if (Array.isArray(value)) return value.filter((item) => item && typeof item === 'object');
		return value && typeof value === 'object' ? [value] : [];
	});
}

/** The fields points of one list's sample. */
export function fieldPoints(list, sample) {
	const documented = DOCUMENTED_FIELDS[list.resource];
	const renamed = RENAMED.filter((pair) => pair.resource === list.resource);
	const points = [];
	const id = `fields of GET /2025-09/${list.path}`;
	if (!documented) {
		points.push({
			id,
			verdict: 'unknown',
			evidence: 'the docs show no field list for this resource',
			where: WHERE.fieldNames,
		});
	} else if (!sample?.length) {
		points.push({
			id,
			verdict: 'unknown',
			evidence: sample ? 'the list returned no record' : 'the list was not read',
			where: WHERE.fieldNames,
		});
	} else {
		const seen = new Set(sample.flatMap((record) => Object.keys(record)));
		const names = documented.map((name) => name.replace(/\?$/, ''));
		const renamedTop = new Map(
			renamed.filter((pair) => !pair.inside).map((pair) => [pair.spec, pair.docs]),
		);
		const missing = documented.filter(
			(name) => !name.endsWith('?') && !seen.has(name) && ![...renamedTop.values()].includes(name),
		);
		const extra = [...seen].filter((name) => !names.includes(name) && !renamedTop.has(name));
		const differentlyNamed = [...renamedTop]
			.filter(([spec, docs]) => seen.has(spec) && !seen.has(docs))
			.map(([spec, docs]) => `${spec} (docs: ${docs})`);
		const missingRenamed = [...renamedTop]
			.filter(([spec, docs]) => !seen.has(spec) && !seen.has(docs))
			.map(([, docs]) => docs);
		const parts = [
			missing.length || missingRenamed.length
				? `missing: ${[...missing, ...missingRenamed].join(', ')}`
				: '',
			extra.length ? `extra: ${extra.join(', ')}` : '',
			differentlyNamed.length ? `differently named: ${differentlyNamed.join(', ')}` : '',
		].filter(Boolean);
		points.push({
			id,
			verdict: parts.length ? 'differs' : 'as documented',
			evidence: `${sample.length} record(s): ${parts.length ? parts.join('; ') : 'every documented field and no other'}`,
			where: WHERE.fieldNames,
		});
	}
	for (const pair of renamed) {
		const pairId = `field name ${list.resource}.${pair.inside ? `${pair.inside}.` : ''}${pair.docs}`;
		const objects = holders(sample ?? [], pair.inside);
		const hasDocs = objects.some((object) => pair.docs in object);
		const hasSpec = objects.some((object) => pair.spec in object);
		const verdict = !objects.length
			? 'unknown'
			: hasDocs && hasSpec
				? 'both'
				: hasDocs
					? 'docs name'
					: hasSpec
						? 'spec name'
						: 'neither';
		const evidence = !objects.length
			? 'no record (or member) to read it on'
			: `docs: ${pair.docs}${hasDocs ? ' (seen)' : ''}; spec: ${pair.spec}${hasSpec ? ' (seen)' : ''}`;
		points.push({ id: pairId, verdict, evidence, where: WHERE.fieldNames });
	}
	return points;
}
