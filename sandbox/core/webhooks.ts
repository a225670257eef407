/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- dev tool, never published */
/**
 * Webhook delivery: signed POSTs to every enabled endpoint subscribed to an event type, with retries.
 *
 * Documented (webhooks.md): envelope `{event: {id, type, api_version, created_at, data: {<key>: record}}}`,
 * headers `Content-Type`, `User-Agent: Stora-Webhooks/1.0`, `X-Stora-Signature: t=<t>,v1=<hex HMAC-SHA256(secret,
 * "<t>.<raw body>")>`, `X-Stora-Request-Id` fresh per attempt, `event.id` stable across retries, any 2xx
 * acknowledges, up to 6 retries after 1 min, 5 min, 30 min, ... Our choices (unconfirmed): `t` is Unix seconds
 * and `v1` hex by default (`signatureTimestamp` / `signatureEncoding` switch them),
 * retries 4-6 wait 2 h, 5 h and 10 h, a delivery times out after 10 s, endpoints are never auto-disabled. Whether a
 * retry is signed with its own send time or keeps the first attempt's `t` is not documented: `retryTimestamp` does
 * either (`fresh`, the default, or `first`).
 *
 * Retries are due on the sandbox clock, counted from the previous attempt's due time: a real timer sends each when it
 * is due, and `runDue()` (after `POST /__sandbox/clock`) sends at once every retry the moved clock has reached, so
 * tests live through hours of retries without waiting for them.
 */
import { createHmac, randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';

import type { ApiRecord } from './types';

export const API_VERSION = '2025-09';
export const USER_AGENT = 'Stora-Webhooks/1.0';
export const DEFAULT_RETRY_SCHEDULE_MS = [
	60_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000,
];
const DELIVERY_TIMEOUT_MS = 10_000;

/** The `t` a retried delivery is signed with: its own send time, or the first attempt's. */
export const RETRY_TIMESTAMP_MODES = ['fresh', 'first'] as const;
export type RetryTimestamp = (typeof RETRY_TIMESTAMP_MODES)[number];

/** The 13 event types confirmed in the docs (the full enum is cut off in every stored copy). */
export const EVENT_TYPES = [
	'contact.created',
	'contact.updated',
	'contact.churned',
	'credit_note.created',
	'deal.updated',
	'deal.lost',
	'identity_verification.processing',
	'identity_verification.succeeded',
	'invoice.created',
	'invoice.paid',
	'order.created',
	'protection_level.created',
	'unit.updated',
];

export interface WebhookEvent {
	id: string;
	type: string;
	api_version: string;
	created_at: string;
	data: Record<string, unknown>;
	meta: Record<string, unknown>;
}

export interface Delivery {
	event_id: string;
	type: string;
	endpoint_id: string;
	url: string;
	attempt: number;
	/** HTTP status of the receiver, or null when the request failed (connection refused, timeout ...). */
	status: number | null;
	error: string | null;
	request_id: string;
	/** The `t` of its signature (Unix seconds, or milliseconds in that signature mode). */
	timestamp: number;
	at: string;
}

export interface WebhookHost {
	now(): Date;
	/** Current webhook endpoint records (stored shape). */
	endpoints(): ApiRecord[];
	/** The signing secret of an endpoint (never part of the stored record). */
	secret(endpointId: string): string | undefined;
}

/**
 * How `X-Stora-Signature` is written (the docs show neither): `t` in Unix seconds (default) or milliseconds, `v1` as
 * hex (default) or base64. Switchable at run time, so a receiver (the node, `npm run probe`) is tested against each.
 */
export const SIGNATURE_TIMESTAMPS = ['seconds', 'milliseconds'] as const;
export type SignatureTimestamp = (typeof SIGNATURE_TIMESTAMPS)[number];
export const SIGNATURE_ENCODINGS = ['hex', 'base64'] as const;
export type SignatureEncoding = (typeof SIGNATURE_ENCODINGS)[number];

export function sign(
	secret: string,
	timestamp: number,
	rawBody: string,
	encoding: SignatureEncoding = 'hex',
): string {
	return createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest(encoding);
}

/** One attempt of one event to one endpoint. */
interface Job {
	payload: { event: WebhookEvent };
	endpointId: string;
	url: string;
	body: string;
	attempt: number;
	generation: number;
	/** When it is due on the sandbox clock (ms). */
	due: number;
	/** The first attempt's `t`, once it was sent. */
	firstTimestamp?: number;
}

export class WebhookDispatcher extends EventEmitter {
	readonly deliveries: Delivery[] = [];
	/** Switchable at run time (`POST /__sandbox/config`); a reset keeps it. */
	retryTimestamp: RetryTimestamp = 'fresh';
	/** Switchable at run time like `retryTimestamp`: the unit of `t` and the encoding of `v1`. */
	signatureTimestamp: SignatureTimestamp = 'seconds';
	signatureEncoding: SignatureEncoding = 'hex';
	private pending = 0;
	private generation = 0;
	/** Retries waiting to be due, each with the real timer that sends it. */
	private readonly waiting = new Map<Job, NodeJS.Timeout>();
	private idleWaiters: Array<() => void> = [];
	/** Aborted by `clear()` so a close or reset never waits on a slow receiver. */
	private abort = new AbortController();

	constructor(
		private readonly host: WebhookHost,
		private readonly schedule: number[] = DEFAULT_RETRY_SCHEDULE_MS,
	) {
		super();
	}

	/** Sends `event` to every enabled endpoint subscribed to its type; returns at once (delivery is async). */
	dispatch(event: WebhookEvent) {
		const due = this.host.now().getTime();
		for (const endpoint of this.host.endpoints()) {
			if (endpoint.status !== 'enabled') continue;
			const types = Array.isArray(endpoint.event_types) ? (endpoint.event_types as string[]) : [];
			if (!types.includes(event.type)) continue;
			const payload = {
				event: { ...event, api_version: (endpoint.api_version as string) ?? API_VERSION },
			};
			const job = {
				payload,
				endpointId: endpoint.id,
				url: String(endpoint.url),
				body: JSON.stringify(payload),
				attempt: 1,
				generation: this.generation,
				due,
			};
			void this.attempt(job);
		}
	}

	/** Sends every retry due by the sandbox clock now; resolves when they, and the retries they fall due, are answered. */
	async runDue(): Promise<void> {
		const now = this.host.now().getTime();
		const due = [...this.waiting.keys()].filter((job) => job.due <= now);
		await Promise.all(due.map(async (job) => await this.fire(job)));
	}

	/** Resolves once nothing is in flight and no retry is scheduled. */
	whenIdle(): Promise<void> {
		if (this.pending === 0) return Promise.resolve();
		return new Promise((resolve) => this.idleWaiters.push(resolve));
	}

	/** Forgets every delivery and cancels scheduled retries (reset, close). */
	clear() {
		this.generation += 1;
		this.abort.abort();
		this.abort = new AbortController();
		for (const timer of this.waiting.values()) clearTimeout(timer);
		this.pending -= this.waiting.size;
		this.waiting.clear();
		this.deliveries.length = 0;
		this.settle();
	}

	private settle() {
		if (this.pending > 0) return;
		this.pending = 0;
		const waiters = this.idleWaiters;
		this.idleWaiters = [];
		for (const resolve of waiters) resolve();
		this.emit('idle');
	}

	private async attempt(job: Job): Promise<void> {
		this.pending += 1;
		try {
			await this.send(job);
		} finally {
			this.pending -= 1;
			this.settle();
		}
	}

	/** Sends a waiting retry now (its timer, or `runDue`), unless the endpoint has since been deleted or disabled. */
	private async fire(job: Job): Promise<void> {
		const timer = this.waiting.get(job);
		if (!timer) return; // already sent by the other path
		clearTimeout(timer);
		this.waiting.delete(job);
		this.pending -= 1;
		try {
			const endpoint = this.host.endpoints().find((e) => e.id === job.endpointId);
			if (endpoint && endpoint.status === 'enabled' && job.generation === this.generation) {
				await this.attempt({ ...job, url: String(endpoint.url) });
			}
		} finally {
			this.settle();
		}
	}

	private async send(job: Job) {
		const { payload, endpointId, url, body, attempt, generation } = job;
		const requestId = randomUUID();
		const timestamp =
			this.retryTimestamp === 'first' && job.firstTimestamp !== undefined
				? job.firstTimestamp
				: this.signatureTimestamp === 'milliseconds'
					? this.host.now().getTime()
					: Math.floor(this.host.now().getTime() / 1000);
		const secret = this.host.secret(endpointId) ?? '';
		let status: number | null = null;
		let error: string | null = null;
		try {
			const response = await fetch(url, {
				method: 'POST',
				headers: {
					'Content-Type': 'application/json',
					'User-Agent': USER_AGENT,
					'X-Stora-Request-Id': requestId,
					'X-Stora-Signature': `t=${timestamp},v1=${sign(secret, timestamp, body, this.signatureEncoding)}`,
				},
				body,
				redirect: 'manual',
				signal: AbortSignal.any([this.abort.signal, AbortSignal.timeout(DELIVERY_TIMEOUT_MS)]),
			});
			status = response.status;
			await response.arrayBuffer().catch(() => undefined);
		} catch (e) {
			error =
				e instanceof Error ? (e.cause instanceof Error ? e.cause.message : e.message) : String(e);
		}
		if (generation !== this.generation) return;
		const delivery: Delivery = {
			event_id: payload.event.id,
			type: payload.event.type,
			endpoint_id: endpointId,
			url,
			attempt,
			status,
			error,
			request_id: requestId,
			timestamp,
			at: this.host.now().toISOString(),
		};
		this.deliveries.push(delivery);
		this.emit('delivery', delivery);
		const ok = status !== null && status >= 200 && status < 300;
		const delay = this.schedule[attempt - 1];
		if (ok || delay === undefined) return;
		const next: Job = {
			...job,
			attempt: attempt + 1,
			due: job.due + delay,
			firstTimestamp: job.firstTimestamp ?? timestamp,
		};
		this.pending += 1;
		const timer = setTimeout(
			() => void this.fire(next),
			Math.max(0, next.due - this.host.now().getTime()),
		);
		timer.unref();
		this.waiting.set(next, timer);
		// Already due (a zero delay, or a clock moved past it): sent now, and answered before this attempt settles.
		if (next.due <= this.host.now().getTime()) await this.fire(next);
	}
}
