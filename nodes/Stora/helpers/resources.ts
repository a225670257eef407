/**
 * Each resource of the Stora node in one row: what the code outside its `descriptions/<resource>/` folder needs to know
 * of it at run time. Its record kind (ID prefix, name, list methods) is its row of RECORDS (records.ts); its Get Many
 * filters' checks are in transport/listFilters.ts, keyed by the query parameter they share across resources. Here in helpers/
 * because output shaping, the transport and the poll trigger read it, and they never import descriptions/
 * (test/nodes/helpers/resources.test.ts holds each field to the output schemas, the codex and the descriptions).
 */

/**
 * Where a resource's code and tests go: its list search in `methods/listSearch/<family>.ts`, its node tests in
 * `test/nodes/resources/<resource>.test.ts`, its sandbox routes in `sandbox/resources/<family>/` (test/nodes/helpers/resources.test.ts). The
 * API groups its endpoints by resource only; these families are ours: CRM (contacts and the work around them),
 * inventory (sites and the units they rent out), billing (what is sold and charged), integration (the API's own access
 * token and webhook endpoints).
 */
export const FAMILIES = ['crm', 'inventory', 'billing', 'integration'] as const;

export type Family = (typeof FAMILIES)[number];

/** What tool use changes about an operation's answer: the editor description's sentence it replaces, and the note. */
interface ToolNote {
	drop: RegExp;
	note: string;
}

export interface ResourceFacts {
	family: Family;
	/** What Simplify keeps of a record: enough to identify and route it in a workflow. Absent: no Simplify. */
	simplify?: readonly string[];
	/** Its records carry money (`{ amount, currency, formatted }`): its tools say how to read it. */
	money?: true;
	/**
	 * Its list's docs page shows the complete parameter list, with no `created_after` / `updated_after`: Return All and
	 * the Stora Polling Trigger page it by number (with the documented sort) instead of sending a cursor the docs rule out.
	 */
	listWithoutTimeFilters?: true;
	/** The record timestamps its records do not carry (the docs show none): the Stora Polling Trigger cannot poll by them. */
	withoutTimes?: ReadonlyArray<'created_at' | 'updated_at'>;
	/** Per operation, what tool use changes about its answer (a signing secret is withheld from a model: output.ts). */
	toolNotes?: Record<string, ToolNote>;
}

export const RESOURCES = {
	accessToken: {
		family: 'integration',
		toolNotes: {
			getInfo: { drop: /^$/, note: "Returns the token's details, never the token itself." },
		},
	},
	contact: {
		family: 'crm',
		simplify: [
			'id',
			'email',
			'full_name',
			'phone_number',
			'status',
			'type',
			'created_at',
			'updated_at',
		],
	},
	contract: {
		family: 'crm',
		simplify: [
			'id',
			'name',
			'status',
			'contact',
			'contract_template',
			'tenancy',
			'sent_at',
			'signed_at',
		],
	},
	contractTemplate: { family: 'crm' },
	coupon: {
		family: 'billing',
		money: true,
		simplify: ['id', 'name', 'code', 'type', 'percent', 'amount', 'duration', 'months', 'public'],
	},
	creditNote: {
		family: 'billing',
		money: true,
		withoutTimes: ['updated_at'],
		simplify: [
			'id',
			'number',
			'invoice',
			'contact',
			'status',
			'type',
			'reason',
			'total',
			'created_at',
		],
	},
	deal: {
		family: 'crm',
		// value_estimate is display text ("£50 per month"), not a money object.
		simplify: [
			'id',
			'name',
			'status',
			'stage',
			'contact',
			'site',
			'assignee',
			'value_estimate',
			'lost_reason',
			'starts_at',
			'created_at',
			'updated_at',
		],
	},
	dealStage: { family: 'crm', listWithoutTimeFilters: true },
	identityVerification: { family: 'crm' },
	image: { family: 'inventory' },
	invoice: {
		family: 'billing',
		money: true,
		simplify: [
			'id',
			'number',
			'status',
			'collection_status',
			'type',
			'contact',
			'total',
			'amount_due',
			'due_date',
			'created_at',
		],
	},
	note: { family: 'crm' },
	opportunity: { family: 'crm' },
	order: {
		family: 'billing',
		money: true,
		simplify: [
			'id',
			'status',
			'source',
			'billing_period',
			'contact',
			'site',
			'starts_at',
			'total',
			'payment_url',
			'created_at',
		],
	},
	orderLineItem: { family: 'billing', money: true },
	priceAdjustment: { family: 'billing', money: true },
	product: {
		family: 'billing',
		money: true,
		simplify: ['id', 'name', 'sku', 'category', 'charge_type', 'prices', 'site'],
	},
	productCategory: { family: 'billing', withoutTimes: ['created_at', 'updated_at'] },
	protectionLevel: {
		family: 'billing',
		money: true,
		simplify: ['id', 'cover_level', 'prices', 'public', 'account_code'],
	},
	site: {
		family: 'inventory',
		simplify: ['id', 'name', 'address', 'phone', 'opened_at', 'created_at', 'updated_at'],
	},
	subscription: {
		family: 'billing',
		money: true,
		simplify: [
			'id',
			'billing_period',
			'cancelled',
			'contact',
			'site',
			'tenancy',
			'current_period',
			'starts_at',
			'ends_at',
		],
	},
	task: {
		family: 'crm',
		simplify: [
			'id',
			'title',
			'status',
			'due_at',
			'assignee',
			'resource',
			'site',
			'completed_at',
			'created_at',
		],
	},
	tenancy: { family: 'inventory' },
	timelineEvent: { family: 'crm' },
	timelineSource: { family: 'crm' },
	timelineTemplate: { family: 'crm' },
	unit: { family: 'inventory' },
	unitAllocation: { family: 'inventory' },
	unitType: {
		family: 'inventory',
		money: true,
		simplify: [
			'id',
			'name',
			'site',
			'size_description',
			'status',
			'prices',
			'created_at',
			'updated_at',
		],
	},
	webhookEndpoint: {
		family: 'integration',
		toolNotes: {
			create: {
				drop: /secret/,
				note: 'Returns the new endpoint; its signing secret is withheld from a model (create endpoints in a workflow to keep it).',
			},
		},
	},
} as const satisfies Record<string, ResourceFacts>;

/** A resource's row, for a name read from a parameter (undefined for one the node does not have). */
export const resourceFacts = (resource: string): ResourceFacts | undefined =>
	Object.prototype.hasOwnProperty.call(RESOURCES, resource)
		? (RESOURCES as Record<string, ResourceFacts>)[resource]
		: undefined;
