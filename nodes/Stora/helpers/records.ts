/**
 * Every kind of record the node names, in one table: its ID prefix (IDs are checked against it before any request),
 * how the node names it in locators, dropdowns and ID filters, and the methods that list it (`searchListMethod` for a
 * locator's From List, `loadOptionsMethod` for a dropdown). Here in helpers/ because transport and helpers need the
 * prefixes too, and they never import descriptions/.
 */
export const RECORDS = {
	accessToken: { prefix: 'tok_', displayName: 'Access Token' },
	application: { prefix: 'app_', displayName: 'Application' },
	contact: { prefix: 'con_', displayName: 'Contact', searchListMethod: 'searchContacts' },
	contract: { prefix: 'ctr_', displayName: 'Contract', searchListMethod: 'searchContracts' },
	contractTemplate: {
		prefix: 'ctpl_',
		displayName: 'Contract Template',
		loadOptionsMethod: 'getContractTemplates',
	},
	coupon: { prefix: 'cpn_', displayName: 'Coupon', searchListMethod: 'searchCoupons' },
	creditNote: {
		prefix: 'cred_',
		displayName: 'Credit Note',
		searchListMethod: 'searchCreditNotes',
	},
	deal: { prefix: 'deal_', displayName: 'Deal', searchListMethod: 'searchDeals' },
	dealStage: { prefix: 'dstg_', displayName: 'Stage', loadOptionsMethod: 'getDealStages' },
	identityVerification: {
		prefix: 'idver_',
		displayName: 'Identity Verification',
		searchListMethod: 'searchIdentityVerifications',
	},
	invoice: { prefix: 'inv_', displayName: 'Invoice', searchListMethod: 'searchInvoices' },
	note: { prefix: 'note_', displayName: 'Note', searchListMethod: 'searchNotes' },
	// The API has no endpoint listing opportunities, price adjustments or timeline events: they are picked by ID only.
	opportunity: { prefix: 'opp_', displayName: 'Opportunity' },
	order: { prefix: 'order_', displayName: 'Order', searchListMethod: 'searchOrders' },
	priceAdjustment: { prefix: 'pradj_', displayName: 'Price Adjustment' },
	product: { prefix: 'prod_', displayName: 'Product', searchListMethod: 'searchProducts' },
	productCategory: {
		prefix: 'pcat_',
		displayName: 'Product Category',
		searchListMethod: 'searchProductCategories',
	},
	protectionLevel: {
		prefix: 'plvl_',
		displayName: 'Protection Level',
		searchListMethod: 'searchProtectionLevels',
	},
	site: {
		prefix: 'site_',
		displayName: 'Site',
		searchListMethod: 'searchSites',
		loadOptionsMethod: 'getSites',
	},
	staff: { prefix: 'staff_', displayName: 'Assignee' },
	subscription: {
		prefix: 'sub_',
		displayName: 'Subscription',
		searchListMethod: 'searchSubscriptions',
	},
	task: { prefix: 'task_', displayName: 'Task', searchListMethod: 'searchTasks' },
	tenancy: { prefix: 'ten_', displayName: 'Tenancy', searchListMethod: 'searchTenancies' },
	timelineEvent: { prefix: 'aevt_', displayName: 'Timeline Event' },
	timelineSource: {
		prefix: 'tsrc_',
		displayName: 'Source',
		loadOptionsMethod: 'getTimelineSources',
	},
	timelineTemplate: {
		prefix: 'aetpl_',
		displayName: 'Template',
		loadOptionsMethod: 'getTimelineTemplates',
	},
	unit: { prefix: 'unit_', displayName: 'Unit', searchListMethod: 'searchUnits' },
	unitAllocation: {
		prefix: 'alloc_',
		displayName: 'Unit Allocation',
		searchListMethod: 'searchUnitAllocations',
	},
	unitType: {
		prefix: 'utype_',
		displayName: 'Unit Type',
		searchListMethod: 'searchUnitTypes',
		loadOptionsMethod: 'getUnitTypes',
	},
	webhookEndpoint: {
		prefix: 'we_',
		displayName: 'Webhook Endpoint',
		searchListMethod: 'searchWebhookEndpoints',
	},
} as const satisfies Record<
	string,
	{ prefix: string; displayName: string; searchListMethod?: string; loadOptionsMethod?: string }
>;

export type RecordKind = keyof typeof RECORDS;

/** One kind's entry, its optional list methods typed as such. */
export const recordOf = (
	kind: RecordKind,
): { prefix: string; displayName: string; searchListMethod?: string; loadOptionsMethod?: string } =>
	RECORDS[kind];

/** The ID prefix of each kind of record, from RECORDS. */
export const ID_PREFIXES = Object.fromEntries(
	Object.entries(RECORDS).map(([kind, { prefix }]) => [kind, prefix]),
) as { [Kind in RecordKind]: (typeof RECORDS)[Kind]['prefix'] };

const isRecordKind = (name: string): name is RecordKind =>
	Object.prototype.hasOwnProperty.call(RECORDS, name);

/**
 * The record kind a top-level record parameter of `resource` holds, by the naming rule: the resource's own record is
 * `<resource>Id`, a record of another kind picked there `<resource><Kind>Id` (`dealContactId`, `orderLineItemOrderId`).
 * Undefined for a name the rule does not give (including `<resource>RecordId`, a link to a record of one of several
 * kinds, which no URL names).
 */
export function recordKindOfParameter(resource: string, name: string): RecordKind | undefined {
	if (name === `${resource}Id`) return isRecordKind(resource) ? resource : undefined;
	const match = new RegExp(`^${resource}([A-Z]\\w*)Id$`).exec(name);
	if (!match) return undefined;
	const kind = match[1].charAt(0).toLowerCase() + match[1].slice(1);
	return isRecordKind(kind) ? kind : undefined;
}
