/* eslint-disable @n8n/community-nodes/no-restricted-imports -- dev tool, never published */
/**
 * The HTTP layer. Order of checks for an API call:
 *   fault injection → route (404 invalid_endpoint) → bearer token (401) → rate limit (429) → Accept (406)
 *   → Idempotency-Key replay → body parsing (400) → scopes (403) → per-list parameter readings (readings.ts)
 *   → undocumented members (422 or dropped, per the `unknown params` mode of the path, see documented.ts)
 *   → handler → CSV/PDF conversion. In the `documented` headers mode the answer keeps only the documented
 *   rate-limit headers.
 * Any exception that is not an ApiError becomes a 500 `internal_server_error` envelope; the process never crashes.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';

import type { RequestLogEntry } from './config';
import { handleControl } from './controlPlane';
import { documentedFor, restrictToDocumented } from './documented';
import { applyReadings } from './readings';
import { codeForStatus, errorBody } from './envelope';
import { ApiError, forbidden, invalidEndpoint, invalidToken, tooManyRequests } from './errors';
import { HTML_ERROR_PAGE } from './faults';
import { negotiate, toCsv, toPdf } from './formats';
import {
	errorOutgoing,
	json,
	JSON_TYPE,
	parseBody,
	parseQuery,
	type Incoming,
	type Outgoing,
} from './http';
import type { Sandbox } from './sandbox';
import type { Caller, Reply, RequestContext, ResponseFormat } from './types';

function collect(req: IncomingMessage): Promise<Buffer> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', () => resolve(Buffer.concat(chunks)));
		req.on('error', reject);
	});
}

function headerMap(req: IncomingMessage): Record<string, string> {
	const out: Record<string, string> = {};
	for (const [k, v] of Object.entries(req.headers))
		if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
	return out;
}

function write(res: ServerResponse, out: Outgoing) {
	res.writeHead(out.status, { ...out.headers, 'Content-Length': String(out.body.length) });
	res.end(out.body);
}

/** Entry point for every request on the API port. */
export async function handleHttp(
	sb: Sandbox,
	req: IncomingMessage,
	res: ServerResponse,
): Promise<void> {
	const requestId = randomUUID();
	try {
		const url = new URL(req.url ?? '/', 'http://sandbox.local');
		const path = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : url.pathname;
		const raw = await collect(req);
		const incoming: Incoming = {
			method: (req.method ?? 'GET').toUpperCase(),
			path,
			query: parseQuery(url.searchParams),
			headers: headerMap(req),
			rawBody: raw.toString('utf8'),
			requestId,
		};
		if (path === '/__sandbox' || path.startsWith('/__sandbox/')) {
			return write(res, await handleControl(sb, incoming));
		}

		const log: RequestLogEntry = {
			method: incoming.method,
			path,
			query: incoming.query,
			headers: {
				...incoming.headers,
				...(incoming.headers.authorization
					? { authorization: redact(incoming.headers.authorization) }
					: {}),
			},
			body: logBody(incoming),
			status: null,
			request_id: requestId,
			at: sb.now().toISOString(),
		};
		sb.requests.push(log);
		// The latency delays API calls only, after they are logged: the log shows a delayed call (status null) while
		// it waits, and the control plane answers at once. Closing the sandbox ends the wait.
		if (sb.config.latencyMs > 0)
			await delay(sb.config.latencyMs, undefined, { signal: sb.closing.signal });
		await sb.onApiRequest?.(incoming);

		// Another client holding the rate-limit slot, and the page the call asks for as sent (noise.ts), before any fault.
		let out: Outgoing | undefined = sb.noise.contend(sb.now().getTime(), requestId, incoming.query);
		if (out) log.fault = 'contention';
		const fault = out ? undefined : sb.faults.take(incoming.method, path);
		if (fault) {
			log.fault = Object.keys(fault)[0];
			if ('reset' in fault) {
				req.socket.destroy();
				return;
			}
			if ('reset_after' in fault) {
				log.status = (await apiCall(sb, incoming, log)).status;
				req.socket.destroy();
				return;
			}
			if ('delay_ms' in fault) await delay(fault.delay_ms);
			else if ('empty' in fault)
				out = {
					status: 200,
					headers: { 'Content-Type': JSON_TYPE, 'X-Request-Id': requestId },
					body: Buffer.alloc(0),
				};
			else if ('malformed' in fault)
				out = {
					status: 200,
					headers: { 'Content-Type': JSON_TYPE, 'X-Request-Id': requestId },
					body: Buffer.from('{"data": [{"id": "broken", '),
				};
			else if ('html' in fault)
				out = {
					status: 502,
					headers: { 'Content-Type': 'text/html; charset=utf-8', 'X-Request-Id': requestId },
					body: Buffer.from(HTML_ERROR_PAGE),
				};
			else out = faultReply(fault, requestId);
		}
		out ??= await apiCall(sb, incoming, log);
		log.status = out.status;
		// Stora's clock, not this machine's: a test that moves the sandbox clock sees clocks that disagree.
		write(res, { ...out, headers: { Date: sb.now().toUTCString(), ...out.headers } });
	} catch (error) {
		// Only reached if the pipeline itself fails (e.g. the client aborted while sending the body).
		if (!res.headersSent && !res.destroyed) write(res, errorOutgoing(error, requestId));
		else res.destroy();
	}
}

function redact(authorization: string) {
	const [scheme] = authorization.split(' ');
	return `${scheme} ***`;
}

/**
 * Long-lived secrets in bodies are masked in the request log, like the Authorization header. Short-lived OAuth values
 * (codes, verifiers, refresh tokens) stay visible: the end-to-end tests prove PKCE and refresh rotation with them.
 */
const SECRET_MEMBERS = /^(client_secret|password)$/;

function logBody(incoming: Incoming): unknown {
	if (!incoming.rawBody) return null;
	try {
		const body = parseBody(incoming.rawBody, incoming.headers['content-type']);
		if (!body || typeof body !== 'object' || Array.isArray(body)) return body;
		return Object.fromEntries(
			Object.entries(body as Record<string, unknown>).map(([name, value]) => [
				name,
				SECRET_MEMBERS.test(name) ? '***' : value,
			]),
		);
	} catch {
		return '(unparsable body)';
	}
}

function faultReply(
	fault: { status: number; headers?: Record<string, string>; body?: unknown },
	requestId: string,
): Outgoing {
	const headers = { 'X-Request-Id': requestId, ...(fault.headers ?? {}) };
	if (fault.body === undefined) {
		if (fault.status < 400) return json(fault.status, {}, headers);
		const error = new ApiError(
			fault.status,
			codeForStatus(fault.status),
			`Injected fault (${fault.status})`,
		);
		return json(fault.status, errorBody(error, requestId), headers);
	}
	if (typeof fault.body === 'string') {
		return {
			status: fault.status,
			headers: { 'Content-Type': 'text/plain; charset=utf-8', ...headers },
			body: Buffer.from(fault.body),
		};
	}
	return json(fault.status, fault.body, headers);
}

const ANONYMOUS: Caller = { token: '', scopes: [], creator: { id: '' } };

/** Headers the docs do not show (rate limits); dropped in the `documented` headers mode. */
const UNDOCUMENTED_HEADERS = ['RateLimit-Remaining', 'RateLimit-Policy', 'Retry-After'];

async function apiCall(sb: Sandbox, incoming: Incoming, log: RequestLogEntry): Promise<Outgoing> {
	const out = await apiCallWithAllHeaders(sb, incoming, log);
	if (sb.modes.headers === 'documented') {
		out.headers = Object.fromEntries(
			Object.entries(out.headers).filter(([name]) => !UNDOCUMENTED_HEADERS.includes(name)),
		);
	}
	return out;
}

async function apiCallWithAllHeaders(
	sb: Sandbox,
	incoming: Incoming,
	log: RequestLogEntry,
): Promise<Outgoing> {
	const { method, path, headers, requestId } = incoming;
	const extra: Record<string, string> = { 'X-Request-Id': requestId };
	try {
		const match = sb.router.match(method, path);
		if (!match) throw invalidEndpoint(method, path);
		const { route, params } = match;

		let caller = ANONYMOUS;
		if (!route.options.public) {
			const auth = sb.authenticate(headers.authorization);
			if (!auth) throw invalidToken();
			caller = auth.caller;
			const decision = sb.limiter.hit(auth.token.token, sb.now().getTime());
			Object.assign(extra, decision.headers);
			if (!decision.allowed) throw tooManyRequests(decision.retryAfter);
		}

		// Only versioned API routes negotiate; OAuth pages (HTML consent, JSON token) ignore Accept.
		const format: ResponseFormat = path.startsWith('/2025-09/')
			? negotiate(headers.accept, route.options.formats)
			: 'application/json';

		const key = method === 'POST' && !route.options.public ? headers['idempotency-key'] : undefined;
		if (key) {
			const stored = sb.idempotency.lookup(caller.creator.id, key, sb.now().getTime());
			if (stored) {
				return {
					status: stored.status,
					headers: { ...stored.headers, ...rateHeaders(extra), 'Idempotent-Replayed': 'true' },
					body: stored.body,
				};
			}
		}

		let out: Outgoing;
		try {
			out = await runHandler(sb, incoming, route, params, caller, format);
		} catch (error) {
			if (!(error instanceof ApiError))
				log.error = error instanceof Error ? (error.stack ?? error.message) : String(error);
			out = errorOutgoing(error, requestId);
		}
		out.headers = { ...out.headers, ...extra };
		if (key)
			sb.idempotency.store(caller.creator.id, key, {
				status: out.status,
				headers: withoutRate(out.headers),
				body: out.body,
				storedAt: sb.now().getTime(),
			});
		return out;
	} catch (error) {
		if (!(error instanceof ApiError))
			log.error = error instanceof Error ? (error.stack ?? error.message) : String(error);
		return errorOutgoing(error, requestId, extra);
	}
}

const rateHeaders = (headers: Record<string, string>) =>
	Object.fromEntries(Object.entries(headers).filter(([k]) => k.startsWith('RateLimit-')));
const withoutRate = (headers: Record<string, string>) =>
	Object.fromEntries(Object.entries(headers).filter(([k]) => !k.startsWith('RateLimit-')));

async function runHandler(
	sb: Sandbox,
	incoming: Incoming,
	route: {
		method: string;
		pattern: string;
		options: { scopes: string[] };
		handler: (ctx: RequestContext) => Reply | Promise<Reply>;
	},
	params: Record<string, string>,
	caller: Caller,
	format: ResponseFormat,
): Promise<Outgoing> {
	let body: unknown;
	if (incoming.path === '/oauth2/token') {
		// The token endpoint speaks RFC 6749 errors, not the API envelope.
		try {
			body = parseBody(incoming.rawBody, incoming.headers['content-type']);
		} catch {
			return json(400, {
				error: 'invalid_request',
				error_description: 'The request body could not be parsed',
			});
		}
	} else {
		body = parseBody(incoming.rawBody, incoming.headers['content-type']);
	}
	for (const scope of route.options.scopes)
		if (!caller.scopes.includes(scope)) throw forbidden(scope);

	// Per-list readings first (readings.ts): they reject, drop or exempt single parameters, documented or not.
	const readings = applyReadings(sb.modes.paramReadings, incoming.path, incoming.query);
	let query = readings.query;
	const mode = sb.modes.unknownParamsByPath[incoming.path] ?? sb.modes.unknownParams;
	const documented = mode === 'accept' ? undefined : documentedFor(route.method, route.pattern);
	if (mode !== 'accept' && documented) {
		const exempt = Object.fromEntries(
			Object.entries(query).filter(([name]) => readings.honour.includes(name)),
		);
		const rest = Object.fromEntries(
			Object.entries(query).filter(([name]) => !readings.honour.includes(name)),
		);
		({ query, body } = restrictToDocumented(mode, documented, rest, body));
		query = { ...query, ...exempt };
	}

	const ctx: RequestContext = {
		method: incoming.method,
		path: incoming.path,
		params,
		query,
		headers: incoming.headers,
		body,
		rawBody: incoming.rawBody,
		caller,
		requestId: incoming.requestId,
		sandbox: sb,
		format,
		honour: readings.honour,
	};
	const reply = await route.handler(ctx);
	return toOutgoing(reply, format);
}

/** Turns a handler's Reply into bytes, converting successful JSON bodies to CSV or PDF when negotiated. */
export function toOutgoing(reply: Reply, format: ResponseFormat): Outgoing {
	const status = reply.status ?? 200;
	const headers = { ...(reply.headers ?? {}) };
	if (reply.raw !== undefined) {
		return {
			status,
			headers: { 'Content-Type': 'application/octet-stream', ...headers },
			body: Buffer.isBuffer(reply.raw) ? reply.raw : Buffer.from(reply.raw),
		};
	}
	const ok = status >= 200 && status < 300;
	if (ok && format === 'text/csv' && reply.body && typeof reply.body === 'object') {
		const rows = payload(reply.body);
		return {
			status,
			headers: { ...headers, 'Content-Type': 'text/csv; charset=utf-8' },
			body: Buffer.from(toCsv(Array.isArray(rows) ? rows : rows ? [rows] : [])),
		};
	}
	if (ok && format === 'application/pdf' && reply.body && typeof reply.body === 'object') {
		const { key, value } = payloadEntry(reply.body);
		const record = (Array.isArray(value) ? value[0] : value) as Record<string, unknown> | undefined;
		const id = String(record?.id ?? 'document');
		const lines = ['number', 'status', 'name']
			.filter((f) => typeof record?.[f] === 'string')
			.map((f) => `${f}: ${String(record![f])}`);
		const total = record?.total as { formatted?: string } | undefined;
		if (total?.formatted) lines.push(`total: ${total.formatted}`);
		return {
			status,
			headers: {
				...headers,
				'Content-Type': 'application/pdf',
				'Content-Disposition': `inline; filename="${id}.pdf"`,
			},
			body: toPdf(`${key.replace(/_/g, ' ')} ${id}`, lines),
		};
	}
	if (reply.body === undefined) return { status, headers, body: Buffer.alloc(0) };
	return json(status, reply.body, headers);
}

function payloadEntry(body: object): { key: string; value: unknown } {
	const entry = Object.entries(body).find(([k]) => k !== 'meta');
	return entry ? { key: entry[0], value: entry[1] } : { key: 'document', value: undefined };
}

function payload(body: object): unknown {
	return payloadEntry(body).value;
}
