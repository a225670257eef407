/**
 * The API's scopes: what the OAuth2 credential asks for by default, and which scopes each operation of the Stora node
 * needs, so that a 403 `forbidden` can say what to add to the token or the OAuth2 credential. From the endpoint pages
 * (and the spec for opportunities and price adjustments); a test compares the table with the sandbox's routes and with
 * the node's operations.
 */

/**
 * The OAuth2 credential's default scope: every scope the node uses that the docs show, in their scope table (cut off
 * after `public.tenancy:read`) or, for that table's tail, on an endpoint page or in the spec (timeline event and
 * source, unit, unit allocation, unit type, webhook endpoint read). Asking for a scope the operator's app does not
 * have can fail the whole token request, so the default asks for nothing else.
 */
export const DEFAULT_SCOPES = [
	'public.contact:read',
	'public.contact:write',
	'public.contract:read',
	'public.contract_template:read',
	'public.coupon:read',
	'public.credit_note:read',
	'public.deal:read',
	'public.deal:write',
	'public.deal_stage:read',
	'public.identity_verification:read',
	'public.invoice:read',
	'public.note:read',
	'public.note:write',
	'public.order:read',
	'public.order:write',
	'public.product:read',
	'public.product:write',
	'public.product_category:read',
	'public.protection_level:read',
	'public.protection_level:write',
	'public.site:read',
	'public.staff:read',
	'public.subscription:read',
	'public.task:read',
	'public.task:write',
	'public.tenancy:read',
	'public.timeline_event:write',
	'public.timeline_source:read',
	'public.unit:read',
	'public.unit:write',
	'public.unit_allocation:read',
	'public.unit_type:read',
	'public.unit_type:write',
	'public.webhook_endpoint:read',
];

/**
 * Scopes some operations need that the docs do not show (the scope table's visible run has no opportunity or price
 * adjustment scope; timeline template read and webhook endpoint write follow the naming pattern only), with what
 * needs each. The OAuth2 credential's Scope description lists them (a test keeps it in step).
 */
export const OPTIONAL_SCOPES: Record<string, string> = {
	'public.opportunity:write':
		'Opportunity: Associate Deal and Disassociate Deal (with public.deal:write)',
	'public.price_adjustment:write': 'Price Adjustment: Update',
	'public.price_adjustment:skip_notifications':
		'Price Adjustment: Update with Skip Notification, or of a draft that already skips it',
	'public.timeline_template:read':
		"Timeline Template: Get and Get Many, and Timeline Event's Template list",
	'public.webhook_endpoint:write':
		'Webhook Endpoint: Create, Update and Delete, and the Stora Trigger',
};

/** Every scope the node's operations can need. */
export const ALL_SCOPES = [...DEFAULT_SCOPES, ...Object.keys(OPTIONAL_SCOPES)];

const read = (name: string) => [`public.${name}:read`];
const write = (name: string) => [`public.${name}:write`];

/** Resource → operation → the scopes its request needs (all of them). OAuth token endpoints and images need none. */
export const SCOPE_BY_OPERATION: Record<string, Record<string, readonly string[]>> = {
	accessToken: { getInfo: [], introspect: [] },
	contact: {
		create: write('contact'),
		delete: write('contact'),
		get: read('contact'),
		getAll: read('contact'),
		update: write('contact'),
	},
	contract: { downloadPdf: read('contract'), get: read('contract'), getAll: read('contract') },
	contractTemplate: { getAll: read('contract_template') },
	coupon: { get: read('coupon'), getAll: read('coupon') },
	creditNote: {
		downloadPdf: read('credit_note'),
		get: read('credit_note'),
		getAll: read('credit_note'),
	},
	deal: {
		create: write('deal'),
		get: read('deal'),
		getAll: read('deal'),
		lose: write('deal'),
		reopen: write('deal'),
		update: write('deal'),
		win: write('deal'),
	},
	dealStage: { get: read('deal_stage'), getAll: read('deal_stage') },
	identityVerification: {
		get: read('identity_verification'),
		getAll: read('identity_verification'),
	},
	image: { download: [] },
	invoice: { downloadPdf: read('invoice'), get: read('invoice'), getAll: read('invoice') },
	note: { create: write('note'), get: read('note'), getAll: read('note'), update: write('note') },
	// The spec: both scopes at once.
	opportunity: {
		associateDeal: [...write('opportunity'), ...write('deal')],
		disassociateDeal: [...write('opportunity'), ...write('deal')],
	},
	order: {
		create: write('order'),
		finalize: write('order'),
		get: read('order'),
		getAll: read('order'),
		validate: read('order'),
	},
	orderLineItem: { create: write('order') },
	priceAdjustment: { update: write('price_adjustment') },
	product: { get: read('product'), getAll: read('product'), setBasePrice: write('product') },
	productCategory: { get: read('product_category'), getAll: read('product_category') },
	protectionLevel: {
		get: read('protection_level'),
		getAll: read('protection_level'),
		setBasePrice: write('protection_level'),
	},
	site: { get: read('site'), getAll: read('site') },
	subscription: { get: read('subscription'), getAll: read('subscription') },
	task: {
		create: write('task'),
		delete: write('task'),
		getAll: read('task'),
		reopen: write('task'),
		update: write('task'),
	},
	tenancy: { get: read('tenancy'), getAll: read('tenancy') },
	timelineEvent: { create: write('timeline_event'), update: write('timeline_event') },
	timelineSource: { getAll: read('timeline_source') },
	timelineTemplate: { get: read('timeline_template'), getAll: read('timeline_template') },
	unit: {
		deallocate: write('unit'),
		get: read('unit'),
		getAll: read('unit'),
		grantAccess: write('unit'),
		overlock: write('unit'),
		removeOverlock: write('unit'),
		reserve: write('unit'),
	},
	unitAllocation: { get: read('unit_allocation'), getAll: read('unit_allocation') },
	unitType: { get: read('unit_type'), getAll: read('unit_type'), setBasePrice: write('unit_type') },
	webhookEndpoint: {
		create: write('webhook_endpoint'),
		delete: write('webhook_endpoint'),
		get: read('webhook_endpoint'),
		getAll: read('webhook_endpoint'),
		update: write('webhook_endpoint'),
	},
};

const snakeCase = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/**
 * The scopes a request of `resource` / `operation` needs. Without a known operation (a list picker, the trigger's
 * own requests) the API's naming rule decides from the method: `public.<resource>:read` for GET, `:write` otherwise.
 */
export function scopeNeededFor(resource: string, operation?: string, method?: string): string[] {
	const known = operation === undefined ? undefined : SCOPE_BY_OPERATION[resource]?.[operation];
	if (known) return [...known];
	if (!resource || !method) return [];
	return [`public.${snakeCase(resource)}:${method.toUpperCase() === 'GET' ? 'read' : 'write'}`];
}

const listed = (scopes: string[]) =>
	scopes.length > 1
		? `${scopes.slice(0, -1).join(', ')} and ${scopes[scopes.length - 1]}`
		: scopes[0];

/**
 * The line a 403 `forbidden` error adds: the scopes the operation needs, any other scope Stora's message names (an
 * expanded record's read scope, skip_notifications), and where to add them. Undefined when nothing is known.
 */
export function missingScopeHint(
	resource: string,
	operation?: string,
	method?: string,
	apiMessage?: string,
): string | undefined {
	const needed = scopeNeededFor(resource, operation, method);
	const named = [...new Set((apiMessage ?? '').match(/public\.[a-z_]+:[a-z_]+/g) ?? [])].filter(
		(scope) => !needed.includes(scope),
	);
	if (!needed.length && !named.length) return undefined;
	const lines: string[] = [];
	if (needed.length)
		lines.push(`This operation needs the scope${needed.length > 1 ? 's' : ''} ${listed(needed)}.`);
	if (named.length && needed.length) {
		lines.push(
			`Stora also names ${listed(named)}: expanding a record needs that record's read scope, and some options need a scope of their own.`,
		);
	} else if (named.length) {
		lines.push(`Stora names the missing scope${named.length > 1 ? 's' : ''} ${listed(named)}.`);
	}
	const optional = [...needed, ...named].filter((scope) => scope in OPTIONAL_SCOPES);
	lines.push(
		`Add ${needed.length + named.length > 1 ? 'them' : 'it'} to the access token in Stora BackOffice (Settings → Public API), or to the Scope of the Stora OAuth2 credential and reconnect${
			optional.length
				? ` (${listed(optional)} ${optional.length > 1 ? 'are' : 'is'} not in its default Scope)`
				: ''
		}.`,
	);
	return lines.join(' ');
}
