import { createHash, createHmac, timingSafeEqual } from 'crypto';

/*
 * The replay rule, in one place. Stora's docs give no tolerance for `t` and do not say whether a retried delivery is
 * signed again with a fresh `t`. Retries run up to 6 times, 1, 5 and 30 min apart, the rest cut off (the sandbox
 * assumes 2 h, 5 h, 10 h: 17.6 h in all). Were a retry to keep the first attempt's `t`, a 5-minute window would refuse
 * every retry after the second, and an event sent while n8n was down would be lost. So:
 * - a `t` is accepted from SIGNATURE_TOLERANCE_SECONDS (24 h: the assumed schedule with margin) in the past to
 *   SIGNATURE_FUTURE_SKEW_SECONDS in the future (clock skew: nothing genuine is signed ahead of time);
 * - inside that window a replay is refused by its event ID: every accepted event is remembered per endpoint until its
 *   latest `t` leaves the window, when the timestamp refuses it instead. Memory and window are the same length.
 * A replay gets a 2xx saying "duplicate", so Stora stops retrying what was already received. "Received" means n8n
 * answered the delivery 2xx: until n8n answers, a claim is pending, and an answer other than 2xx (the execution could
 * not be stored) withdraws it, so Stora's retry starts it (`settle`).
 */
export const SIGNATURE_TOLERANCE_SECONDS = 24 * 60 * 60;
export const SIGNATURE_FUTURE_SKEW_SECONDS = 300;
/**
 * Events remembered per process, all Stora Triggers together. Only verified deliveries are remembered, so only
 * Stora's own volume (more than this many events in 24 h) reaches it; then the oldest is forgotten first and the
 * trigger logs a warning once. Forgotten events' replays fall back to the timestamp check; no event is ever refused
 * for lack of room.
 */
const ACCEPTED_EVENTS_CAP = 50_000;

type SignatureCheck =
	| { valid: true; secretIndex: number; timestampSeconds: number }
	| { valid: false; reason: 'missing' | 'malformed' | 'mismatch' | 'stale' };

/** `t=...,v1=...` → its parts; several `v1` entries are allowed (secret rotation). */
function parseHeader(header: string): { timestamp?: string; signatures: string[] } {
	const signatures: string[] = [];
	let timestamp: string | undefined;
	for (const part of header.split(',')) {
		const [key, ...rest] = part.trim().split('=');
		const value = rest.join('=');
		if (key === 't') timestamp = value;
		if (key === 'v1' && value) signatures.push(value);
	}
	return { timestamp, signatures };
}

/**
 * The bytes a `v1` value stands for. The docs show neither encoding, so both are accepted: hex (64 characters for
 * SHA-256) and base64 or base64url (43 or 44 characters). A value that is neither decodes to nothing.
 */
function signatureBytes(value: string): Buffer | undefined {
	if (/^[0-9a-f]{64}$/i.test(value)) return Buffer.from(value, 'hex');
	if (/^[A-Za-z0-9+/_-]{43}=?$/.test(value)) return Buffer.from(value.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
	return undefined;
}

/**
 * The timestamp in Unix seconds. The docs do not say seconds or milliseconds: 13 digits or more can only be
 * milliseconds for any date before the year 2286, so both are accepted without widening the window.
 */
function timestampSeconds(timestamp: string): number {
	const value = Number(timestamp);
	return timestamp.length >= 13 ? value / 1000 : value;
}

/**
 * Verifies `X-Stora-Signature`: HMAC-SHA256 with the endpoint secret over `t + "." + raw body` (the `t` exactly as
 * sent), compared in constant time against every `v1`, and `t` inside the window (see the rule above). Says which
 * secret matched (the caller remembers events per endpoint) and the `t` in seconds.
 */
export function verifySignature(
	rawBody: Buffer | string,
	header: string | undefined,
	secrets: string[],
	nowSeconds = Date.now() / 1000,
	toleranceSeconds = SIGNATURE_TOLERANCE_SECONDS,
): SignatureCheck {
	if (!header) return { valid: false, reason: 'missing' };
	const { timestamp, signatures } = parseHeader(header);
	if (!timestamp || !/^\d{1,16}$/.test(timestamp) || signatures.length === 0) return { valid: false, reason: 'malformed' };

	const body = Buffer.isBuffer(rawBody) ? rawBody : Buffer.from(rawBody, 'utf8');
	const given = signatures.map(signatureBytes).filter((bytes): bytes is Buffer => bytes !== undefined);
	const secretIndex = secrets.findIndex((secret) => {
		const expected = createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest();
		return given.some((bytes) => bytes.length === expected.length && timingSafeEqual(bytes, expected));
	});
	if (secretIndex < 0) return { valid: false, reason: 'mismatch' };
	const seconds = timestampSeconds(timestamp);
	const age = nowSeconds - seconds;
	if (age > toleranceSeconds || -age > SIGNATURE_FUTURE_SKEW_SECONDS) return { valid: false, reason: 'stale' };
	return { valid: true, secretIndex, timestampSeconds: seconds };
}

/** The event ID of a delivery, or, for a signed body without one, its digest (a replay repeats the bytes). */
export function deliveryKey(eventId: unknown, rawBody: Buffer): string {
	if (typeof eventId === 'string' && eventId) return eventId;
	return `sha256:${createHash('sha256').update(rawBody).digest('base64url')}`;
}

/**
 * How long a claim may wait for n8n's answer before a retry of its event counts as new. What n8n does (source of n8n
 * 2.41, packages/cli/src/webhooks/webhook-helpers.ts and active-executions.ts): it answers an `onReceived` delivery
 * once `WorkflowRunner.run` returns, that is once the execution is stored and, under
 * N8N_CONCURRENCY_PRODUCTION_LIMIT, has a free slot; it sets no timeout on that answer, so a hung database or a full
 * concurrency queue holds it without end (n8n 1.x answers before storing, so nothing waits there). What Stora does
 * (../shared/api-reference/webhooks.md, section 6): retries after 1, 5 and 30 minutes, later ones not documented; its
 * delivery timeout is not documented. With 2 minutes, a retry soon after a slow first attempt still waits for it, and
 * the second retry (6 minutes on at least) starts the execution at the latest, with one documented retry to spare. At
 * least once, never zero: if the waiting attempt is stored in the end, the event runs twice.
 */
export const PENDING_CLAIM_SECONDS = 120;

/** One remembered event: until when its replays pass the timestamp, its slot in the eviction order, its pending claim. */
interface Entry {
	until: number;
	slot: number;
	/** When the claim that waits for n8n's answer was made (Unix seconds); absent once settled. */
	pendingSince?: number;
}

/** The events accepted inside the window, per endpoint; bounded by ACCEPTED_EVENTS_CAP. */
export class AcceptedEvents {
	private readonly entries = new Map<string, Entry>();
	/**
	 * The keys in the order of their latest claim, slot `base + i` at `order[i]`, read from `head` on: nearly expiry
	 * order, so expired and evicted entries leave from the front. A key claimed again gets a new slot; its old slot no
	 * longer names the entry and is skipped. An array, not the Map's own order: V8 skips a Map's deleted slots one by
	 * one when iterating from its start.
	 */
	private order: string[] = [];
	private base = 0;
	private head = 0;
	/** No entry can be dropped as expired before this, so a sweep before then would find nothing. */
	private nextExpiry = Infinity;
	private forgotten = 0;
	private warned = false;

	constructor(
		readonly capacity = ACCEPTED_EVENTS_CAP,
		readonly windowSeconds = SIGNATURE_TOLERANCE_SECONDS,
		readonly pendingSeconds = PENDING_CLAIM_SECONDS,
	) {}

	get size(): number {
		return this.entries.size;
	}

	/** How many entries were forgotten for room, not by expiry. */
	get forgottenForRoom(): number {
		return this.forgotten;
	}

	/**
	 * True the first time `key` arrives for `endpoint` inside the window, false for a repeat; true again for a repeat
	 * whose claim has waited PENDING_CLAIM_SECONDS for n8n's answer. Either way the entry lives until the latest `t`
	 * seen for it leaves the window, as a replay of that delivery would pass the timestamp until then.
	 */
	claim(endpoint: string, key: string, signedAt: number, nowSeconds = Date.now() / 1000): boolean {
		const id = `${endpoint} ${key}`;
		const until = signedAt + this.windowSeconds;
		this.dropExpiredOldest(nowSeconds);
		const known = this.entries.get(id);
		if (known !== undefined) {
			const live = known.until >= nowSeconds;
			known.until = Math.max(known.until, until);
			if (known.pendingSince === undefined ? live : this.waits(known, nowSeconds)) return false;
			// A hung claim, or an entry past its window: accepted as new, and it waits for n8n's answer from now.
			known.pendingSince = nowSeconds;
			this.place(id, known);
			return true;
		}
		if (this.entries.size >= this.capacity) this.makeRoom(nowSeconds);
		const entry: Entry = { until, slot: 0, pendingSince: nowSeconds };
		this.entries.set(id, entry);
		this.place(id, entry);
		this.nextExpiry = Math.min(this.nextExpiry, until);
		return true;
	}

	/**
	 * Whether `key`'s claim for `endpoint` still waits for n8n's answer to the delivery that made it (see `settle`), and
	 * for less than PENDING_CLAIM_SECONDS: a retry that arrives meanwhile is neither new nor a duplicate yet.
	 */
	isPending(endpoint: string, key: string, nowSeconds = Date.now() / 1000): boolean {
		const entry = this.entries.get(`${endpoint} ${key}`);
		return entry !== undefined && this.waits(entry, nowSeconds);
	}

	/**
	 * What n8n did with the delivery that claimed `key` at `claimedAt`: `taken` (answered 2xx, so the execution was
	 * stored) keeps the claim, and a replay is refused; otherwise the claim is withdrawn, so Stora's retry starts the
	 * execution that this attempt could not (at least once). An answer to a claim a later retry has taken over (see
	 * PENDING_CLAIM_SECONDS) changes nothing: the later claim waits for its own.
	 */
	settle(endpoint: string, key: string, taken: boolean, claimedAt?: number): void {
		const id = `${endpoint} ${key}`;
		const entry = this.entries.get(id);
		if (entry?.pendingSince === undefined || (claimedAt !== undefined && entry.pendingSince !== claimedAt)) return;
		entry.pendingSince = undefined;
		if (!taken) this.entries.delete(id);
	}

	/** True once, the first time an entry was forgotten for room: the caller logs it. */
	takeCapWarning(): boolean {
		if (this.warned || this.forgotten === 0) return false;
		this.warned = true;
		return true;
	}

	/**
	 * A claim that still waits for n8n's answer, and for less than PENDING_CLAIM_SECONDS: never dropped, for expiry or
	 * for room, as a retry of its event would then start a second run. A claim past that bound is taken as lost: a
	 * retry starts the event anyway, so it is dropped like a settled entry.
	 */
	private waits(entry: Entry, nowSeconds: number): boolean {
		return entry.pendingSince !== undefined && nowSeconds - entry.pendingSince < this.pendingSeconds;
	}

	/** Gives the entry the next slot: the back of the eviction order. */
	private place(id: string, entry: Entry): void {
		entry.slot = this.base + this.order.length;
		this.order.push(id);
	}

	/** The entry slot `base + index` names, or undefined when that slot is stale (its key was placed again, or dropped). */
	private at(index: number): Entry | undefined {
		const entry = this.entries.get(this.order[index]);
		return entry?.slot === this.base + index ? entry : undefined;
	}

	/** Leaves the front slot, dropping its entry when `drop`. */
	private shift(drop: boolean): void {
		if (drop) this.entries.delete(this.order[this.head]);
		this.head += 1;
		if (this.head > 1024 && this.head * 2 > this.order.length) {
			this.order = this.order.slice(this.head);
			this.base += this.head;
			this.head = 0;
		}
	}

	/** Drops expired entries, and stale slots, from the front, up to the first entry that lives or still waits. */
	private dropExpiredOldest(nowSeconds: number) {
		while (this.head < this.order.length) {
			const entry = this.at(this.head);
			if (entry === undefined) this.shift(false);
			else if (entry.until < nowSeconds && !this.waits(entry, nowSeconds)) this.shift(true);
			else break;
		}
	}

	/**
	 * At the cap: drops every expired entry; if that leaves no room, the oldest by latest claim, passing over the
	 * claims that still wait (they keep their place, so once answered they are as old as they are). Waiting claims are
	 * as many as deliveries n8n holds unanswered for at most PENDING_CLAIM_SECONDS, so they never fill the store; if
	 * they ever do, it holds them all rather than drop one.
	 */
	private makeRoom(nowSeconds: number) {
		if (nowSeconds > this.nextExpiry) {
			let next = Infinity;
			for (const [id, entry] of this.entries) {
				if (entry.until < nowSeconds && !this.waits(entry, nowSeconds)) this.entries.delete(id);
				else next = Math.min(next, entry.until < nowSeconds ? (entry.pendingSince ?? nowSeconds) + this.pendingSeconds : entry.until);
			}
			this.nextExpiry = next;
		}
		let index = this.head;
		while (this.entries.size >= this.capacity && index < this.order.length) {
			const entry = this.at(index);
			if (entry !== undefined && this.waits(entry, nowSeconds)) {
				index += 1;
				continue;
			}
			if (entry !== undefined) {
				this.entries.delete(this.order[index]);
				this.forgotten += 1;
			}
			// The slot is stale now: left at once at the front, later when it reaches the front.
			if (index === this.head) {
				this.shift(false);
				index = this.head;
			} else {
				index += 1;
			}
		}
	}
}

/**
 * The process's store: n8n loads each node file of the package with `require`, so every Stora Trigger in the process
 * shares this module and its store.
 */
export const acceptedEvents = new AcceptedEvents();
