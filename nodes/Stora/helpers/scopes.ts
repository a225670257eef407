/**
 * Which scopes each operation of the Stora node needs, so that a 403 `forbidden` can say what to add to the token or
 * the OAuth2 credential. From the endpoint pages (and the spec for opportunities and price adjustments); a test
 * compares the table with the sandbox's routes and with the node's operations.
 */
import { OPTIONAL_SCOPES } from './constants';

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
	creditNote: { downloadPdf: read('credit_note'), get: read('credit_note'), getAll: read('credit_note') },
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
	identityVerification: { get: read('identity_verification'), getAll: read('identity_verification') },
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
	scopes.length > 1 ? `${scopes.slice(0, -1).join(', ')} and ${scopes[scopes.length - 1]}` : scopes[0];

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
	if (needed.length) lines.push(`This operation needs the scope${needed.length > 1 ? 's' : ''} ${listed(needed)}.`);
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
			optional.length ? ` (${listed(optional)} ${optional.length > 1 ? 'are' : 'is'} not in its default Scope)` : ''
		}.`,
	);
	return lines.join(' ');
}
