/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- dev tool under test/, never published */
/**
 * Webhook delivery: signed POSTs to every enabled endpoint subscribed to an event type, with retries.
 *
 * Documented (webhooks.md): envelope `{event: {id, type, api_version, created_at, data: {<key>: record}}}`,
 * headers `Content-Type`, `User-Agent: Stora-Webhooks/1.0`, `X-Stora-Signature: t=<t>,v1=<hex HMAC-SHA256(secret,
 * "<t>.<raw body>")>`, `X-Stora-Request-Id` fresh per attempt, `event.id` stable across retries, any 2xx
 * acknowledges, up to 6 retries after 1 min, 5 min, 30 min, ... Our choices (unconfirmed): `t` is Unix seconds,
 * retries 4-6 wait 2 h, 5 h and 10 h, a delivery times out after 10 s, endpoints are never auto-disabled.
 */
import { createHmac, randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';

import type { ApiRecord } from './types';

export const API_VERSION = '2025-09';
export const USER_AGENT = 'Stora-Webhooks/1.0';
export const DEFAULT_RETRY_SCHEDULE_MS = [60_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000];
const DELIVERY_TIMEOUT_MS = 10_000;

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
	at: string;
}

export interface WebhookHost {
	now(): Date;
	/** Current webhook endpoint records (stored shape). */
	endpoints(): ApiRecord[];
	/** The signing secret of an endpoint (never part of the stored record). */
	secret(endpointId: string): string | undefined;
}

export function sign(secret: string, timestamp: number, rawBody: string): string {
	return createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex');
}

export class WebhookDispatcher extends EventEmitter {
	readonly deliveries: Delivery[] = [];
	private pending = 0;
	private generation = 0;
	private readonly timers = new Set<NodeJS.Timeout>();
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
		for (const endpoint of this.host.endpoints()) {
			if (endpoint.status !== 'enabled') continue;
			const types = Array.isArray(endpoint.event_types) ? (endpoint.event_types as string[]) : [];
			if (!types.includes(event.type)) continue;
			const payload = { event: { ...event, api_version: (endpoint.api_version as string) ?? API_VERSION } };
			this.attempt(payload, endpoint.id, String(endpoint.url), JSON.stringify(payload), 1, this.generation);
		}
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
		for (const timer of this.timers) clearTimeout(timer);
		this.pending -= this.timers.size;
		this.timers.clear();
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

	private attempt(payload: { event: WebhookEvent }, endpointId: string, url: string, body: string, attempt: number, generation: number) {
		this.pending += 1;
		void this.send(payload, endpointId, url, body, attempt, generation).finally(() => {
			this.pending -= 1;
			this.settle();
		});
	}

	private async send(payload: { event: WebhookEvent }, endpointId: string, url: string, body: string, attempt: number, generation: number) {
		const requestId = randomUUID();
		const timestamp = Math.floor(this.host.now().getTime() / 1000);
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
					'X-Stora-Signature': `t=${timestamp},v1=${sign(secret, timestamp, body)}`,
				},
				body,
				redirect: 'manual',
				signal: AbortSignal.any([this.abort.signal, AbortSignal.timeout(DELIVERY_TIMEOUT_MS)]),
			});
			status = response.status;
			await response.arrayBuffer().catch(() => undefined);
		} catch (e) {
			error = e instanceof Error ? (e.cause instanceof Error ? e.cause.message : e.message) : String(e);
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
			at: this.host.now().toISOString(),
		};
		this.deliveries.push(delivery);
		this.emit('delivery', delivery);
		const ok = status !== null && status >= 200 && status < 300;
		const delay = this.schedule[attempt - 1];
		if (ok || delay === undefined) return;
		// Retry later unless the endpoint has since been deleted or disabled.
		this.pending += 1;
		const timer = setTimeout(() => {
			this.timers.delete(timer);
			this.pending -= 1;
			const endpoint = this.host.endpoints().find((e) => e.id === endpointId);
			if (endpoint && endpoint.status === 'enabled' && generation === this.generation) {
				this.attempt(payload, endpointId, String(endpoint.url), body, attempt + 1, generation);
			}
			this.settle();
		}, delay);
		timer.unref();
		this.timers.add(timer);
	}
}
