/**
 * The one client for a running sandbox, used by the jest suites (TypeScript) and by the end-to-end tests (which load
 * this file compiled into build/ by tsconfig.sandbox.json):
 *
 * - `SandboxClient`: the control plane (`/__sandbox/...`): reset, state, tokens, OAuth clients, faults, clock, request
 *   log, deliveries, events and the runtime config (modes). Every method throws on a non-2xx answer.
 * - `client` / `apiClient`: plain `fetch` calls against the API with a bearer token, for tests that look at raw answers.
 *
 * No Node imports: only `fetch`, `Buffer` and `TextDecoder`, so it runs wherever the sandbox runs.
 */

export type StateRecord = { id: string } & Record<string, unknown>;

/** What `POST /__sandbox/faults` queues; see core/faults.ts for the response shapes. */
export interface FaultMatch {
	method?: string;
	path?: string;
}

import type { RequestLogEntry } from './core/config';
import type { HeadersMode, UnknownParamsMode } from './core/documented';
import type { ParamReadings } from './core/readings';
import type { RetryTimestamp, SignatureEncoding, SignatureTimestamp } from './core/webhooks';

export type { HeadersMode, RequestLogEntry, RetryTimestamp, UnknownParamsMode };

/** The modes a running sandbox can switch (`GET|POST /__sandbox/config`). */
export interface SandboxModes {
	/** One mode for every route, or one per API path (`{"/2025-09/deals": "ignore"}`). */
	unknown_params: UnknownParamsMode | Record<string, UnknownParamsMode>;
	headers: HeadersMode;
	retry_timestamp: RetryTimestamp;
	/** Per API path and parameter: honour, ignore or reject it (core/readings.ts); the probe's tests play each. */
	param_readings?: ParamReadings;
	signature_timestamp?: SignatureTimestamp;
	signature_encoding?: SignatureEncoding;
	/** Delay before each API call is handled, in ms (not the control plane's); shown when above 0. */
	latency_ms?: number;
}

export interface TokenResponse {
	access_token: string;
	scopes: string[];
	creator: { id: string };
	expires_at: string | null;
}

export interface OAuthClientResponse {
	client_id: string;
	client_secret: string;
	application: { id: string };
	name: string;
	redirect_uris: string[];
	scopes: string[];
}

export class SandboxClient {
	constructor(readonly url: string) {}

	/** Any control-plane call; `path` starts with `/__sandbox`. Returns the parsed JSON answer. */
	async call<T = Record<string, unknown>>(
		method: string,
		path: string,
		body?: unknown,
	): Promise<T> {
		const response = await fetch(`${this.url}${path}`, {
			method,
			headers: body === undefined ? {} : { 'content-type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = await response.text();
		if (!response.ok)
			throw new Error(`sandbox ${method} ${path} → ${response.status}: ${text.slice(0, 1000)}`);
		return (text ? JSON.parse(text) : {}) as T;
	}

	/** Seed, clock, collections, scope catalogue, seeded OAuth client and the current modes. */
	async info() {
		return await this.call<
			{
				seed: string;
				now: string;
				collections: string[];
				scopes: string[];
				modes: SandboxModes;
			} & Record<string, unknown>
		>('GET', '/__sandbox');
	}

	/** Restores a seed: data, tokens (the startup token survives), clients, logs, faults, deliveries, clock offset. */
	async reset(seed = 'demo') {
		return await this.call<{ seed: string }>('POST', '/__sandbox/reset', { seed });
	}

	/** The modes in force. */
	async modes(): Promise<SandboxModes> {
		return await this.call<SandboxModes>('GET', '/__sandbox/config');
	}

	/** Switches modes on the running sandbox (they survive resets); returns the modes now in force. */
	async configure(modes: Partial<SandboxModes>): Promise<SandboxModes> {
		return await this.call<SandboxModes>('POST', '/__sandbox/config', modes);
	}

	/** Records of a collection (name or alias) in stored order, as the API renders them. */
	async state(collection: string): Promise<StateRecord[]> {
		return (
			await this.call<Record<string, StateRecord[]>>('GET', `/__sandbox/state/${collection}`)
		)[collection];
	}

	/** Inserts records into a collection as the API would render them (ids and timestamps filled in when missing). */
	async insert(
		collection: string,
		records: Array<Record<string, unknown>>,
	): Promise<StateRecord[]> {
		return (
			await this.call<Record<string, StateRecord[]>>('POST', `/__sandbox/state/${collection}`, {
				records,
			})
		)[collection];
	}

	/** Removes one record (e.g. while a list is being paged). */
	async remove(collection: string, id: string) {
		await this.call('DELETE', `/__sandbox/state/${collection}/${id}`);
	}

	/** Adds `count` sites named "<n> Depot", one second apart, so lists need several pages. */
	async addSites(count: number) {
		const base = Date.parse('2024-01-01T00:00:00.000Z');
		const [template] = await this.state('sites');
		const records = Array.from({ length: count }, (_, n) => {
			const at = new Date(base + n * 1000).toISOString();
			const record: Record<string, unknown> = {
				...template,
				name: `${n} Depot`,
				created_at: at,
				updated_at: at,
			};
			delete record.id;
			return record;
		});
		return await this.insert('sites', records);
	}

	/** A static access token with these scopes (`"all"` = every scope), optionally expiring. */
	async token(scopes: string[] | 'all' = 'all', expiresIn?: number): Promise<string> {
		return (await this.issueToken(scopes, expiresIn)).access_token;
	}

	/** Like `token`, with the token's scopes, creator and expiry. */
	async issueToken(scopes: string[] | 'all' = 'all', expiresIn?: number): Promise<TokenResponse> {
		return await this.call<TokenResponse>('POST', '/__sandbox/tokens', {
			scopes,
			...(expiresIn === undefined ? {} : { expires_in: expiresIn }),
		});
	}

	/** Registers an OAuth client (all scopes unless `scopes` is given). */
	async oauthClient(
		redirectUris: string[] = ['http://127.0.0.1/callback'],
		scopes?: string[],
		name?: string,
	): Promise<OAuthClientResponse> {
		return await this.call<OAuthClientResponse>('POST', '/__sandbox/oauth-clients', {
			redirect_uris: redirectUris,
			...(scopes ? { scopes } : {}),
			...(name ? { name } : {}),
		});
	}

	/** Expires one access token, or every access token except the startup one, as if its lifetime had passed. */
	async expireTokens(accessToken?: string): Promise<{ expired: number }> {
		return await this.call(
			'POST',
			'/__sandbox/expire-tokens',
			accessToken ? { access_token: accessToken } : {},
		);
	}

	/** Moves the sandbox clock forward. */
	async advanceClock(seconds: number): Promise<{ now: string }> {
		return await this.call('POST', '/__sandbox/clock', { advance_seconds: seconds });
	}

	/** Queues responses for the next matching API calls (see core/faults.ts). */
	async fault(match: FaultMatch, responses: Array<Record<string, unknown>>) {
		await this.call('POST', '/__sandbox/faults', { match, responses });
	}

	async clearFaults() {
		await this.call('DELETE', '/__sandbox/faults');
	}

	/** API calls received so far (Authorization redacted). */
	async requests(): Promise<RequestLogEntry[]> {
		return (await this.call<{ requests: RequestLogEntry[] }>('GET', '/__sandbox/requests'))
			.requests;
	}

	async clearRequests() {
		await this.call('DELETE', '/__sandbox/requests');
	}

	/** Webhook delivery attempts so far. */
	async deliveries(): Promise<Array<Record<string, unknown>>> {
		return (
			await this.call<{ deliveries: Array<Record<string, unknown>> }>(
				'GET',
				'/__sandbox/deliveries',
			)
		).deliveries;
	}

	async clearDeliveries() {
		await this.call('DELETE', '/__sandbox/deliveries');
	}

	/** Emits a webhook event for a record (the collection's first record when `id` is absent). */
	async emit(type: string, id?: string): Promise<Record<string, unknown>> {
		return (
			await this.call<{ event: Record<string, unknown> }>('POST', '/__sandbox/events', {
				type,
				...(id ? { id } : {}),
			})
		).event;
	}
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export interface CallResult {
	status: number;
	headers: Headers;
	text: string;
	/** The response bytes as received (PDFs, PNGs). */
	raw: Buffer;
	body: Json;
}

export interface CallOptions {
	token?: string | null;
	body?: unknown;
	form?: Record<string, string>;
	raw?: string;
	headers?: Record<string, string>;
	/** Sent as the Accept header. */
	accept?: string;
}

export interface ClientOptions {
	/** What fetch does with a 3xx answer: hand it back as is (`manual`, the default) or follow it. */
	redirect?: 'manual' | 'follow';
	/** The `body` of an answer that is not JSON (default: `undefined`). */
	nonJson?: (text: string) => unknown;
}

/** `fetch` against a base URL; JSON bodies are parsed when possible. `token: null` sends no Authorization. */
export function client(baseUrl: string, defaultToken?: string, clientOptions: ClientOptions = {}) {
	return async function call(
		method: string,
		path: string,
		options: CallOptions = {},
	): Promise<CallResult> {
		const headers: Record<string, string> = { ...(options.headers ?? {}) };
		const token = options.token === undefined ? defaultToken : options.token;
		if (token) headers.Authorization = `Bearer ${token}`;
		if (options.accept) headers.Accept = options.accept;
		let body: string | undefined;
		if (options.form) {
			headers['Content-Type'] = 'application/x-www-form-urlencoded';
			body = new URLSearchParams(options.form).toString();
		} else if (options.raw !== undefined) {
			headers['Content-Type'] ??= 'application/json';
			body = options.raw;
		} else if (options.body !== undefined) {
			headers['Content-Type'] = 'application/json';
			body = JSON.stringify(options.body);
		}
		const response = await fetch(baseUrl + path, {
			method,
			headers,
			body,
			redirect: clientOptions.redirect ?? 'manual',
		});
		const raw = Buffer.from(await response.arrayBuffer());
		// Decoded as `response.text()` would (UTF-8, leading BOM dropped).
		const text = new TextDecoder().decode(raw);
		let parsed: unknown = undefined;
		try {
			parsed = JSON.parse(text);
		} catch {
			parsed = clientOptions.nonJson?.(text);
		}
		return { status: response.status, headers: response.headers, text, raw, body: parsed };
	};
}

export type Call = ReturnType<typeof client>;

/** `client` with per-verb shorthands, plus the control plane as `control` and its most used calls. */
export function apiClient(
	baseUrl: string,
	defaultToken: string,
	clientOptions: ClientOptions = {},
) {
	const call = client(baseUrl, defaultToken, clientOptions);
	const control = new SandboxClient(baseUrl);
	return {
		call,
		get: (path: string, options?: CallOptions) => call('GET', path, options),
		post: (path: string, body?: unknown, options?: CallOptions) =>
			call('POST', path, { ...options, body }),
		patch: (path: string, body?: unknown, options?: CallOptions) =>
			call('PATCH', path, { ...options, body }),
		del: (path: string, options?: CallOptions) => call('DELETE', path, options),
		control,
		/** Records of a collection in stored order, as the control plane renders them. */
		state: async (collection: string): Promise<Json[]> => await control.state(collection),
		/** A static token with exactly these scopes. */
		token: async (scopes: string[] | 'all'): Promise<string> => await control.token(scopes),
		reset: async (seed = 'demo') => {
			await control.reset(seed);
		},
	};
}

export type ApiClient = ReturnType<typeof apiClient>;
