/* eslint-disable @n8n/community-nodes/no-restricted-imports -- dev tool, never published */
/**
 * Local emulator of the Stora Public API 2025-09. `startSandbox()` listens on 127.0.0.1 (a free port unless
 * `port` is given) and resolves once both the API and the files host accept connections.
 *
 *   const sandbox = await startSandbox({ seed: 'demo' });
 *   await fetch(`${sandbox.url}/2025-09/contacts`, { headers: { Authorization: `Bearer ${sandbox.token}` } });
 *   await sandbox.close();
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { HeadersMode, UnknownParamsMode } from './core/documented';
import { registerOAuth } from './core/oauth';
import type { RateLimitOption } from './core/ratelimit';
import { Sandbox } from './core/sandbox';
import { handleHttp } from './core/server';
import type { ResourceModule } from './core/types';
import { DEFAULT_RETRY_SCHEDULE_MS, type Delivery } from './core/webhooks';
import { modules as defaultModules } from './resources';

export { Sandbox } from './core/sandbox';
export type { Delivery, WebhookEvent } from './core/webhooks';
export { EVENT_TYPES, sign as signWebhook } from './core/webhooks';
export type * from './core/types';

export interface SandboxOptions {
	/** Port on 127.0.0.1; 0 or absent = a free port. */
	port?: number;
	/** Seed loaded at start (`demo` default, or `empty`). */
	seed?: string;
	/** Accept `http://` webhook endpoint URLs (the API requires https). Default false. */
	allowHttpWebhooks?: boolean;
	/** Per-token rate limits. Default `off` from code (the CLI defaults to `default` = 10/s and 60/min). */
	rateLimit?: RateLimitOption;
	/** Added delay per API request, in ms (not the control plane's); `POST /__sandbox/config {latency_ms}` changes it. */
	latencyMs?: number;
	/** Lifetime of OAuth access tokens. Default 7200. */
	tokenTtlSeconds?: number;
	/** Delays between webhook attempts, in ms; its length is the number of retries. Default 1 min, 5 min, 30 min, 2 h, 5 h, 10 h. */
	webhookRetrySchedule?: number[];
	/** The sandbox clock (token expiry, rate-limit windows, idempotency TTL, timestamps). Default: wall clock. */
	clock?: () => Date;
	/** Value of the startup all-scope access token (random by default). */
	token?: string;
	/** Replaces the resource modules (default: every module in resources/index.ts). */
	modules?: ResourceModule[];
	/** Registered after `modules` (test-only routes and collections). */
	extraModules?: ResourceModule[];
	/**
	 * Query parameters and body members the API's docs do not list (core/documented.ts): `accept` (default, the
	 * sandbox's own rules), `ignore` (dropped unseen) or `reject` (422 naming them). Switchable at run time.
	 */
	unknownParams?: UnknownParamsMode;
	/** `full` (default) or `documented`: only RateLimit-Limit and RateLimit-Reset (no -Remaining, no Retry-After). */
	headers?: HeadersMode;
}

export interface StartedSandbox {
	/** Base URL, e.g. `http://127.0.0.1:4010` (API paths start with `/2025-09`). */
	url: string;
	port: number;
	/** Base URL of the files host serving pre-signed URLs. */
	filesUrl: string;
	/** An access token holding every scope; stays valid across resets. */
	token: string;
	core: Sandbox;
	/** Restores a seed (default: the current one). */
	reset(seed?: string): void;
	/** Issues a static access token (`"all"` = every scope). */
	createToken(scopes: string[] | 'all', expiresInSeconds?: number): string;
	/** Registers an OAuth client. */
	createOAuthClient(options: { redirectUris: string[]; scopes?: string[]; name?: string }): {
		clientId: string;
		clientSecret: string;
	};
	/** Webhook delivery attempts so far. */
	deliveries(): Delivery[];
	/** Resolves when no webhook delivery is in flight or scheduled. */
	whenDeliveriesIdle(): Promise<void>;
	close(): Promise<void>;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<StartedSandbox> {
	const sb = new Sandbox({
		seed: options.seed ?? 'demo',
		allowHttpWebhooks: options.allowHttpWebhooks ?? false,
		rateLimit: options.rateLimit ?? 'off',
		latencyMs: options.latencyMs ?? 0,
		tokenTtlSeconds: options.tokenTtlSeconds ?? 7200,
		webhookRetrySchedule: options.webhookRetrySchedule ?? DEFAULT_RETRY_SCHEDULE_MS,
		clock: options.clock ?? (() => new Date()),
		token: options.token,
		unknownParams: options.unknownParams ?? 'accept',
		headers: options.headers ?? 'full',
	});
	registerOAuth(sb);
	sb.use([...(options.modules ?? defaultModules), ...(options.extraModules ?? [])]);
	sb.reset(sb.config.seed);

	await sb.files.start();
	const server: Server = createServer((req, res) => void handleHttp(sb, req, res));
	let listening = false;
	try {
		await new Promise<void>((resolve, reject) => {
			server.once('error', reject);
			server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
		});
		listening = true;
	} finally {
		if (!listening) await sb.files.close();
	}
	const port = (server.address() as AddressInfo).port;
	sb.baseUrl = `http://127.0.0.1:${port}`;
	let closed: Promise<void> | undefined;

	return {
		url: `http://127.0.0.1:${port}`,
		port,
		filesUrl: `http://127.0.0.1:${sb.files.port}`,
		token: sb.startupToken.token,
		core: sb,
		reset: (seed) => sb.reset(seed),
		createToken: (scopes, expiresInSeconds) =>
			sb.issueStaticToken(scopes === 'all' ? sb.allScopes() : scopes, expiresInSeconds).token,
		createOAuthClient: (o) => {
			const client = sb.createClient(o);
			return { clientId: client.clientId, clientSecret: client.clientSecret };
		},
		deliveries: () => [...sb.webhooks.deliveries],
		whenDeliveriesIdle: () => sb.webhooks.whenIdle(),
		close: () =>
			(closed ??= (async () => {
				sb.webhooks.clear();
				sb.closing.abort();
				server.closeAllConnections();
				await new Promise<void>((resolve) => server.close(() => resolve()));
				await sb.files.close();
			})()),
	};
}
