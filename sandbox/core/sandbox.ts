/**
 * `Sandbox` is the SandboxCore implementation: on top of its records (store.ts) the routes and scopes, the seed
 * lifecycle, tokens and OAuth clients, rendering/envelopes and events, and the state the HTTP layer (server.ts)
 * and the control plane (controlPlane.ts) work on. Its start options and request log entries: config.ts.
 */
import { createHash, randomUUID } from 'node:crypto';

import { AuthStore, randomToken, type AccessToken, type OAuthClient } from './auth';
import {
	DEFAULT_REDIRECT_URIS,
	SEEDS,
	type RequestLogEntry,
	type SandboxConfig,
	type SandboxModes,
} from './config';
import { meta } from './envelope';
import { copyJson } from './copy';
import { ApiError } from './errors';
import { applyExpand, expandTopLevel, type ExpandHost } from './expand';
import { FaultQueue } from './faults';
import { FilesHost } from './files';
import { IdempotencyStore } from './idempotency';
import { IdGenerator, stableSuffix } from './ids';
import { Noise } from './noise';
import { runList } from './list';
import { RateLimiter } from './ratelimit';
import { honourUnimplemented } from './readings';
import { Router } from './router';
import { RecordStore } from './store';
import type {
	ApiRecord,
	Caller,
	CollectionOptions,
	Handler,
	ListSpec,
	Money,
	Reply,
	RequestContext,
	ResourceModule,
	RouteOptions,
	SandboxApi,
	SandboxCore,
} from './types';
import { API_VERSION, WebhookDispatcher, type WebhookEvent } from './webhooks';

/** Scopes that exist without a route of their own (documented catalogue / seed). */
const EXTRA_SCOPES = [
	'public.price_adjustment:skip_notifications',
	'public.staff:read',
	'public.access_token:read',
	'public.application:read',
];

/** One formatter per currency, made once (making one costs more than formatting); none for a code Intl does not know. */
const currencyFormats = new Map<string, Intl.NumberFormat | undefined>();
function currencyFormat(currency: string): Intl.NumberFormat | undefined {
	if (!currencyFormats.has(currency)) {
		let format: Intl.NumberFormat | undefined;
		try {
			format = new Intl.NumberFormat('en-GB', { style: 'currency', currency });
		} catch {
			format = undefined;
		}
		currencyFormats.set(currency, format);
	}
	return currencyFormats.get(currency);
}

export class Sandbox extends RecordStore implements SandboxCore {
	readonly router = new Router();
	readonly auth = new AuthStore();
	readonly faults = new FaultQueue();
	readonly idempotency = new IdempotencyStore();
	readonly limiter: RateLimiter;
	readonly files: FilesHost;
	readonly webhooks: WebhookDispatcher;
	readonly requests: RequestLogEntry[] = [];
	/** Webhook endpoint signing secrets, kept outside the (closed) records. */
	readonly webhookSecrets = new Map<string, string>();
	readonly startupToken: AccessToken;
	seedName: string;
	/**
	 * In-process tests only: runs before each API call is handled, e.g. to change data between two pages of a
	 * list exactly when the second page is requested.
	 */
	onApiRequest?: (request: {
		method: string;
		path: string;
		query: Record<string, string>;
	}) => void | Promise<void>;
	/** The API's own base URL once it listens (`http://127.0.0.1:<port>`); image URLs are rendered against it. */
	baseUrl = '';
	/** Aborted when the sandbox closes: ends the waits of requests held by the latency. */
	readonly closing = new AbortController();
	/** Added to the injected clock by `POST /__sandbox/clock`. */
	clockOffsetMs = 0;
	readonly modes: SandboxModes;
	/** Other clients around a probe run (noise.ts): `POST /__sandbox/config {noise}`; off by default, kept over resets. */
	readonly noise = new Noise();

	private readonly ids: IdGenerator;
	private readonly modules: ResourceModule[] = [];
	private scopeCache?: string[];

	constructor(readonly config: SandboxConfig) {
		super();
		this.seedName = config.seed;
		this.modes = {
			unknownParams: config.unknownParams,
			headers: config.headers,
			unknownParamsByPath: {},
			paramReadings: {},
		};
		this.ids = new IdGenerator(config.seed);
		this.limiter = new RateLimiter(config.rateLimit);
		this.files = new FilesHost(() => this.now().getTime());
		this.webhooks = new WebhookDispatcher(
			{
				now: () => this.now(),
				endpoints: () =>
					this.data.has('endpoints') ? [...this.data.get('endpoints')!.values()] : [],
				secret: (id) => this.webhookSecrets.get(id),
			},
			config.webhookRetrySchedule,
		);
		this.startupToken = {
			token: config.token ?? randomToken(),
			kind: 'static',
			scopes: [],
			creator: { id: `tok_${stableSuffix('sandbox-startup-token')}` },
			createdAt: this.now().getTime(),
			expiresAt: null,
			revoked: false,
		};
	}

	// ---------------------------------------------------------------- registration

	/** Registers modules (their routes and collections); call `reset` afterwards to seed. */
	use(modules: ResourceModule[]) {
		const api: SandboxApi = {
			core: this,
			collection: (options) => this.defineCollection(options),
			route: (method, pattern, options, handler) => this.route(method, pattern, options, handler),
		};
		for (const module of modules) {
			module.register(api);
			this.modules.push(module);
		}
		this.scopeCache = undefined;
	}

	override defineCollection(options: CollectionOptions) {
		super.defineCollection(options);
		this.scopeCache = undefined;
	}

	route(method: string, pattern: string, options: RouteOptions, handler: Handler) {
		this.router.add(method, pattern, options, handler);
		this.scopeCache = undefined;
	}

	/** Every scope a token can hold: route scopes, collection read scopes (for expand) and the documented extras. */
	allScopes(): string[] {
		if (!this.scopeCache) {
			const scopes = new Set<string>(EXTRA_SCOPES);
			for (const route of this.router.routes) for (const s of route.options.scopes) scopes.add(s);
			for (const c of this.collections.values()) scopes.add(`public.${c.scope}:read`);
			this.scopeCache = [...scopes].sort();
		}
		return this.scopeCache;
	}

	// ---------------------------------------------------------------- state lifecycle

	/** Restores a seed: all data, tokens (except the startup token), clients, logs, faults and deliveries. */
	reset(seed: string = this.seedName) {
		if (!SEEDS.includes(seed)) {
			throw new ApiError(
				422,
				'invalid_content',
				`Unknown seed '${seed}'; known seeds: ${SEEDS.join(', ')}`,
				[{ message: `The seed must be one of: ${SEEDS.join(', ')}`, pointer: '/seed' }],
			);
		}
		this.seedName = seed;
		this.ids.reset(seed);
		this.clearRecords();
		this.auth.clear();
		this.startupToken.scopes = this.allScopes();
		this.startupToken.revoked = false;
		this.startupToken.expiresAt = null;
		this.auth.tokens.set(this.startupToken.token, this.startupToken);
		this.auth.clients.set(this.defaultClient().clientId, this.defaultClient());
		this.limiter.clear();
		this.idempotency.clear();
		this.faults.clear();
		this.requests.length = 0;
		this.webhooks.clear();
		this.webhookSecrets.clear();
		this.files.clear();
		this.clockOffsetMs = 0;
		for (const module of this.modules) module.seed?.(this, seed);
	}

	/** The seeded OAuth client (all scopes, n8n callback URLs); its credentials are derived from the seed name. */
	defaultClient(): OAuthClient {
		const derive = (label: string) =>
			createHash('sha256').update(`${label}:${this.seedName}`).digest('base64url');
		return {
			clientId: derive('client-id'),
			clientSecret: derive('client-secret'),
			appId: `app_${stableSuffix(`app:${this.seedName}`)}`,
			name: 'Sandbox Partner App',
			redirectUris: [...DEFAULT_REDIRECT_URIS],
			scopes: this.allScopes(),
		};
	}

	createClient(options: { name?: string; redirectUris: string[]; scopes?: string[] }): OAuthClient {
		const client: OAuthClient = {
			clientId: randomToken(),
			clientSecret: randomToken(),
			appId: `app_${stableSuffix(randomUUID())}`,
			name: options.name ?? 'Sandbox Test App',
			redirectUris: options.redirectUris,
			scopes: options.scopes ?? this.allScopes(),
		};
		this.auth.clients.set(client.clientId, client);
		return client;
	}

	/** A static access token (`tok_` creator), optionally expiring after `expiresInSeconds`. */
	issueStaticToken(scopes: string[], expiresInSeconds?: number): AccessToken {
		const now = this.now().getTime();
		return this.auth.issue({
			kind: 'static',
			scopes,
			creator: { id: `tok_${stableSuffix(randomUUID())}` },
			createdAt: now,
			expiresAt: expiresInSeconds === undefined ? null : now + expiresInSeconds * 1000,
		});
	}

	/** Expires one access token, or every access token except the startup one. Returns how many. */
	expireTokens(token?: string): number {
		const past = this.now().getTime() - 1;
		let count = 0;
		for (const t of this.auth.tokens.values()) {
			if (token ? t.token !== token : t === this.startupToken) continue;
			t.expiresAt = past;
			count += 1;
		}
		return count;
	}

	/** Resolves a bearer header to a caller, or undefined (401). */
	authenticate(
		authorization: string | undefined,
	): { caller: Caller; token: AccessToken } | undefined {
		const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
		if (!match) return undefined;
		const token = this.auth.active(match[1], this.now().getTime());
		if (!token) return undefined;
		return {
			token,
			caller: {
				token: token.token,
				scopes: [...token.scopes],
				creator: { ...token.creator },
				clientId: token.clientId,
			},
		};
	}

	// ---------------------------------------------------------------- SandboxCore

	now(): Date {
		return new Date(this.config.clock().getTime() + this.clockOffsetMs);
	}

	newId(prefix: string): string {
		return this.ids.next(prefix);
	}

	/** The collection's own render (derived fields) on a deep copy; never mutates the stored record. */
	renderPlain(collection: string, record: ApiRecord): ApiRecord {
		const options = this.mustCollection(collection);
		const copy = copyJson(record);
		return options.render ? options.render(copy, this) : copy;
	}

	render(ctx: RequestContext, collection: string, record: ApiRecord): ApiRecord {
		return applyExpand(
			this.expandHost(),
			ctx.caller.scopes,
			this.renderPlain(collection, record),
			ctx.query.expand,
		);
	}

	single(ctx: RequestContext, collection: string, record: ApiRecord, status = 200): Reply {
		const { key } = this.mustCollection(collection);
		return {
			status,
			body: { [key]: this.render(ctx, collection, record), meta: meta(ctx.requestId) },
		};
	}

	list(ctx: RequestContext, collection: string, records: ApiRecord[], spec: ListSpec): Reply {
		const { name } = this.mustCollection(collection);
		const noisy = this.noise.active
			? this.noise.list(this, ctx.path, collection, records, ctx.query, spec)
			: { records, query: ctx.query, spec };
		const honoured = honourUnimplemented(
			noisy.query,
			ctx.honour,
			noisy.spec,
			noisy.records,
			(record) => this.renderPlain(collection, record),
		);
		const { items, pagination } = runList(noisy.query, honoured.records, honoured.spec, (id) =>
			this.sequenceOf(id),
		);
		return {
			status: 200,
			body: {
				[name]: items.map((r) => this.render(ctx, collection, r)),
				meta: meta(ctx.requestId, { pagination }),
			},
		};
	}

	success(ctx: RequestContext, message: string): Reply {
		return { status: 200, body: { success: { message }, meta: meta(ctx.requestId) } };
	}

	emit(type: string, record: ApiRecord): void {
		this.emitEvent(type, record);
	}

	/** Builds the documented event envelope for `record` and hands it to the dispatcher; returns the event. */
	emitEvent(type: string, record: ApiRecord): WebhookEvent {
		const collection = this.collectionFor(record.id) ?? this.collectionByKey(type.split('.')[0]);
		const key = collection?.key ?? type.split('.')[0];
		const rendered = collection
			? expandTopLevel(this.expandHost(), this.renderPlain(collection.name, record))
			: structuredClone(record);
		const event: WebhookEvent = {
			id: `evt_${stableSuffix(randomUUID())}`,
			type,
			api_version: API_VERSION,
			created_at: this.now().toISOString(),
			data: { [key]: rendered },
			meta: { curies: meta('').curies },
		};
		this.webhooks.dispatch(event);
		return event;
	}

	money(amount: number, currency = 'GBP'): Money {
		const format = currencyFormat(currency);
		const formatted = format
			? format.format(amount / 100)
			: `${(amount / 100).toFixed(2)} ${currency}`;
		return { amount, currency, formatted };
	}

	presign(content: Buffer, contentType: string, filename: string): string {
		return this.files.presign(content, contentType, filename);
	}

	// ---------------------------------------------------------------- helpers

	/** Records of a collection as the API renders them (control plane `GET /__sandbox/state/<name>`). */
	state(name: string): ApiRecord[] | undefined {
		const options = this.collectionOptions(name);
		if (!options) return undefined;
		return this.all(options.name).map((r) => this.renderPlain(options.name, r));
	}

	private expandHost(): ExpandHost {
		return {
			collectionFor: (id) => this.collectionFor(id),
			get: (collection, id) => this.get(collection, id),
			renderPlain: (collection, record) => this.renderPlain(collection, record),
		};
	}
}
