/**
 * The contract between the sandbox core (server, auth, lists, errors, webhooks) and the resource modules
 * (sandbox/resources/<family>/*.ts). A resource module only ever talks to the core through these types.
 */

/** A stored record, kept in the API's own rendered shape (references as `{ id }`). */
export type ApiRecord = { id: string; created_at: string; updated_at: string } & Record<
	string,
	unknown
>;

export interface Ref {
	id: string;
}

export interface Money {
	amount: number;
	currency: string;
	formatted: string;
}

/** One error detail as the API renders it. */
export interface ErrorDetail {
	message: string;
	pointer: string | null;
}

/** The caller, resolved from the bearer token. */
export interface Caller {
	token: string;
	scopes: string[];
	/** `{ id }` of the access token (`tok_`) or OAuth application (`app_`) that made the call. */
	creator: Ref;
	clientId?: string;
}

export interface Reply {
	status?: number;
	body?: unknown;
	headers?: Record<string, string>;
	/** Raw payload (CSV, PDF, image bytes); `body` is ignored when set. */
	raw?: Buffer | string;
}

export interface RequestContext {
	method: string;
	/** Path without the query string, e.g. `/2025-09/contacts/con_123`. */
	path: string;
	/** Path parameters named as in the route pattern (`:contact_id` → `params.contact_id`). */
	params: Record<string, string>;
	/** Decoded query parameters; a repeated key keeps the last value. `metadata[key]` stays a literal key. */
	query: Record<string, string>;
	headers: Record<string, string | undefined>;
	/** Parsed JSON (or form) body; `undefined` when there is none. */
	body: unknown;
	rawBody: string;
	caller: Caller;
	requestId: string;
	sandbox: SandboxCore;
	/** The representation negotiated from `Accept` (JSON unless the route declares CSV/PDF and the client asked for it). */
	format?: ResponseFormat;
	/** Query parameters a `param_readings` entry says to honour (readings.ts); the list engine applies them. */
	honour?: string[];
}

export type ResponseFormat = 'application/json' | 'text/csv' | 'application/pdf';

export type Handler = (ctx: RequestContext) => Reply | Promise<Reply>;

export interface RouteOptions {
	/** All of these scopes are required (the 403 names the first missing one). */
	scopes: string[];
	/** Extra `Accept` types this route can answer besides JSON. */
	formats?: Array<'text/csv' | 'application/pdf'>;
	/** Needs no bearer token (OAuth endpoints, image downloads with a signed URL). */
	public?: boolean;
}

export interface CollectionOptions {
	/** The API's plural key, e.g. `contacts`, `price_adjustments`, `stages`. Also the control-plane state name. */
	name: string;
	/** The API's singular key, e.g. `contact`. */
	key: string;
	/** Identifier prefix including the underscore, e.g. `con_`. */
	prefix: string;
	/** Scope resource name used for the read scope needed to expand into it, e.g. `contact` → `public.contact:read`. */
	scope: string;
	/** Adds derived fields (contact status, tenancies_count ...) on every render. Must not mutate the stored record. */
	render?: (record: ApiRecord, sandbox: SandboxCore) => ApiRecord;
	/** Other names accepted by the control plane (`GET /__sandbox/state/<alias>`), e.g. `webhook_endpoints` for `endpoints`. */
	aliases?: string[];
}

/** How a list endpoint filters, sorts and searches. Query parameter names are the API's own. */
export interface ListSpec {
	/** Allowed `sort_by` values; the first is the default (`created_at`). */
	sortBy: string[];
	/** Multi-value filters: query param → record field path (dot path; `contact.id` for references). */
	filters?: Record<string, { field: string; values?: string[]; unspecified?: boolean }>;
	/** Date windows: prefix → field, e.g. `{ created: 'created_at', starts: 'starts_at' }` gives `created_after` / `created_before`. */
	windows?: Record<string, string>;
	/** Whether `metadata[key]=value` filters apply. */
	metadata?: boolean;
	/** Fuzzy search: query param (e.g. `search`) → fields searched case-insensitively. */
	search?: { param: string; fields: string[] };
}

export interface SandboxCore {
	now(): Date;
	/** A new identifier with the collection's prefix. */
	newId(prefix: string): string;
	/** Collection access. */
	all(collection: string): ApiRecord[];
	get(collection: string, id: string): ApiRecord | undefined;
	/** Finds any record by id, whichever collection its prefix belongs to. */
	find(id: string): ApiRecord | undefined;
	insert(collection: string, record: ApiRecord): ApiRecord;
	/** Shallow-merges `changes`, bumps `updated_at`, returns the stored record. */
	update(collection: string, id: string, changes: Record<string, unknown>): ApiRecord;
	remove(collection: string, id: string): void;
	/** Stored record or a 404 `resource_not_found` ApiError naming the resource. */
	mustGet(collection: string, id: string): ApiRecord;
	/** Rendered record (derived fields applied), with `expand` applied from the request. */
	render(ctx: RequestContext, collection: string, record: ApiRecord): ApiRecord;
	/** Envelopes. */
	single(ctx: RequestContext, collection: string, record: ApiRecord, status?: number): Reply;
	list(ctx: RequestContext, collection: string, records: ApiRecord[], spec: ListSpec): Reply;
	success(ctx: RequestContext, message: string): Reply;
	/** Emits a webhook event for a record (delivered to every subscribed endpoint). */
	emit(type: string, record: ApiRecord): void;
	money(amount: number, currency?: string): Money;
	/**
	 * Stores `content` on the sandbox's separate files host (another port, i.e. another origin, like S3) and
	 * returns a pre-signed URL valid 5 minutes: `http://127.0.0.1:<filesPort>/<token>/<filename>?X-Amz-Expires=300&X-Amz-Signature=…`.
	 * That host answers 400 to any request carrying an `Authorization` header.
	 */
	presign(content: Buffer, contentType: string, filename: string): string;
}

export interface ResourceModule {
	register(api: SandboxApi): void;
	/** Adds this module's records to the named seed (`demo`, `empty`). Runs after every module registered. */
	seed?(core: SandboxCore, seed: string): void;
}

export interface SandboxApi {
	collection(options: CollectionOptions): void;
	/** Route pattern with `:param` segments, e.g. `/2025-09/contacts/:contact_id`. */
	route(method: string, pattern: string, options: RouteOptions, handler: Handler): void;
	core: SandboxCore;
}
