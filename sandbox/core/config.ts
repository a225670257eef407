/**
 * What a sandbox is started with and what it keeps beside its records: the start options (`SandboxConfig`), the
 * modes switchable at run time, the known seeds, the seeded OAuth client's redirect URIs and the request log's
 * entries. The `Sandbox` (sandbox.ts) holds them.
 */
import type { HeadersMode, UnknownParamsMode } from './documented';
import type { RateLimitOption } from './ratelimit';
import type { ParamReadings } from './readings';

export const SEEDS = ['demo', 'empty'];

/** Redirect URIs of the seeded OAuth client: n8n's OAuth2 credential callback on its default port. */
export const DEFAULT_REDIRECT_URIS = [
	'http://localhost:5678/rest/oauth2-credential/callback',
	'http://127.0.0.1:5678/rest/oauth2-credential/callback',
];

export interface SandboxConfig {
	seed: string;
	allowHttpWebhooks: boolean;
	rateLimit: RateLimitOption;
	/** Delay before each API call is handled, in ms; switchable at run time (`POST /__sandbox/config {latency_ms}`). */
	latencyMs: number;
	tokenTtlSeconds: number;
	webhookRetrySchedule: number[];
	clock: () => Date;
	/** Value of the startup all-scope token (random when not given). */
	token?: string;
	/** Initial modes; `Sandbox.modes` holds the ones in force (the control plane can switch them). */
	unknownParams: UnknownParamsMode;
	headers: HeadersMode;
}

/** Switchable at run time (`POST /__sandbox/config`); a reset keeps them, like the other start options. */
export interface SandboxModes {
	unknownParams: UnknownParamsMode;
	headers: HeadersMode;
	/** The unknown-params mode of single request paths (`/2025-09/deals`), over `unknownParams`. None by default. */
	unknownParamsByPath: Record<string, UnknownParamsMode>;
	/** Per-list readings of single query parameters (readings.ts), over both unknown-params modes. None by default. */
	paramReadings: ParamReadings;
}

/** One API call as the request log keeps it (`GET /__sandbox/requests`, `SandboxClient.requests()`). */
export interface RequestLogEntry {
	method: string;
	path: string;
	query: Record<string, string>;
	headers: Record<string, string>;
	body: unknown;
	/** null while in progress, and for good when the connection was reset before an answer. */
	status: number | null;
	request_id: string;
	/** When the sandbox received the call (its clock), before any latency: the spacing of calls is read from it. */
	at: string;
	/** Message of an unexpected exception (the 500s), to ease debugging. */
	error?: string;
	/** The injected fault this request got (`reset`, `reset_after`, `delay_ms`, `status`, ...), if any. */
	fault?: string;
}
