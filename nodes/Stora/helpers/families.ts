/**
 * The family of every resource of the node, the one map of where a resource's code and tests go: its list search in
 * `methods/listSearch/<family>.ts`, its node tests in `test/nodes/<family><Resources>.test.ts` and its sandbox routes
 * in `sandbox/resources/<family>/` (test/nodes/families.test.ts checks all three, and that every resource is
 * here). The API groups its endpoints by resource only; these families are ours: CRM (contacts and the work around
 * them), inventory (sites and the units they rent out), billing (what is sold and charged), and integration (the
 * API's own access token and webhook endpoints).
 */
export const FAMILIES = ['crm', 'inventory', 'billing', 'integration'] as const;

export type Family = (typeof FAMILIES)[number];

export const FAMILY_OF_RESOURCE: Record<string, Family> = {
	contact: 'crm',
	contract: 'crm',
	contractTemplate: 'crm',
	deal: 'crm',
	dealStage: 'crm',
	identityVerification: 'crm',
	note: 'crm',
	opportunity: 'crm',
	task: 'crm',
	timelineEvent: 'crm',
	timelineSource: 'crm',
	timelineTemplate: 'crm',

	image: 'inventory',
	site: 'inventory',
	tenancy: 'inventory',
	unit: 'inventory',
	unitAllocation: 'inventory',
	unitType: 'inventory',

	coupon: 'billing',
	creditNote: 'billing',
	invoice: 'billing',
	order: 'billing',
	orderLineItem: 'billing',
	priceAdjustment: 'billing',
	product: 'billing',
	productCategory: 'billing',
	protectionLevel: 'billing',
	subscription: 'billing',

	accessToken: 'integration',
	webhookEndpoint: 'integration',
};
