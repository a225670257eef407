import { createHash } from 'crypto';
import { sleep } from 'n8n-workflow';

import { processWide } from '../helpers/processWide';

/**
 * One request budget per credential and base URL (and the credential's Rate Limit settings, so changing them starts a
 * fresh budget), shared by every request this package makes with that credential in the process: all items of a node,
 * concurrent executions, list searches and the trigger. Two credentials for one Stora account have two budgets, each
 * believing it has the account's whole limit; the 429 handling below covers what they, or other apps, take from each
 * other. Requests queue for the budget (FIFO) instead of racing into 429s. It starts from the credential's own setting
 * (Stora's documented 10 requests per second and 60 per minute, or the credential's Custom limits), learns from the
 * RateLimit-* headers, and when a 429 happens anyway pauses until the window reopens and shrinks its allowance.
 *
 * What it learns fades: the credential's own setting is the rule, a lesson the exception that lasts only as long as
 * its evidence. A lesson is a window a header named or lowered, the documented windows an unpaced budget adopts at a
 * 429, or the shrunk allowance; each remembers when it was last confirmed (a header saying it again, or a 429). A
 * window lesson holds until `recoveryMs` (2 minutes) after that, then the credential's window is back (for no limit:
 * unpaced again); the allowance grows back linearly from the 429 to full over the same time. So a header repeated
 * on every response, or 429s that keep coming, keep the budget slow, and once they stop it is back to its own setting
 * within 2 minutes, instead of a single 429 from someone else's burst slowing a 6,000/min account for the life of the
 * process. The pause after a 429 is not a lesson: it ends at the reset the 429 named.
 *
 * A request holds its place in every window from the moment it is sent until its response arrives, then for the
 * window's length after that: the server counts it at some time in between, so no window can see more than its limit
 * whatever the network latency. (Counting it from any earlier moment is a guess about where in the round trip the
 * server counted: a test that sent the next request at the response less half the fastest round trip saw 6 arrive
 * within a second at 5/s, because n8n's own work before a request leaves is part of its round trip.)
 * No background timers: the only timer is the one a queued request waits on; a lesson's age is checked whenever the
 * windows are read (`windowsAt`).
 *
 * A credential with no limit (Custom 0 and 0) sends at full speed, at most UNPACED_IN_FLIGHT at a time, except while
 * a lesson paces it: from a 429 (the documented limits) or a `RateLimit-Policy` naming windows.
 */

export interface RateLimitWindow {
	/** Requests allowed in any interval of `windowMs`. */
	limit: number;
	windowMs: number;
}

/** The documented defaults (auth-errors-limits, "Rate limits"); plans may differ, the headers tell. */
export const DOCUMENTED_LIMITS: readonly RateLimitWindow[] = Object.freeze([
	{ limit: 10, windowMs: 1_000 },
	{ limit: 60, windowMs: 60_000 },
]);

/** Requests in flight at most for a credential that sets no limit, while no lesson paces its budget. */
export const UNPACED_IN_FLIGHT = 8;

export interface RateLimitSettings {
	/** Windows a new budget starts from. */
	limits: RateLimitWindow[];
	/** How long a request may keep waiting after its first 429 before the 429 goes to the user. */
	maxRetryWaitMs: number;
	/** Allowance multiplier applied on a 429 (multiplicative decrease). */
	decrease: number;
	/** The allowance never shrinks below this share of the limits (and never below 1 request per window). */
	minFactor: number;
	/**
	 * How long a lesson lasts after its last confirmation: a learned window holds until then, a shrunk allowance grows
	 * back linearly to full over it (see the header comment). At most 2 minutes in production.
	 */
	recoveryMs: number;
	/** A granted request never reported back (a caller bug) stops holding its place after this long. */
	staleMs: number;
}

const DEFAULT_SETTINGS: RateLimitSettings = {
	limits: DOCUMENTED_LIMITS.map((window) => ({ ...window })),
	maxRetryWaitMs: 5 * 60_000,
	decrease: 0.5,
	minFactor: 0.1,
	recoveryMs: 2 * 60_000,
	staleMs: 5 * 60_000,
};

/** Response headers as n8n (plain object, any case, string or string[]) or fetch (`Headers`) hands them over. */
export type HeaderSource = { get(name: string): string | null } | Record<string, unknown> | undefined;

export interface RateLimitSlot {
	readonly key: string;
	/** Epoch ms at which the request was allowed to go. */
	readonly grantedAt: number;
}

export interface AcquireOptions {
	/** Gives up waiting (rejects with the signal's reason) when aborted, e.g. the execution was cancelled. */
	signal?: AbortSignal;
	/** A retry after a 429 goes before first attempts, so a request is not sent to the back of a long queue. */
	retry?: boolean;
	/** Epoch ms: rejects with RateLimitDeadlineError if the request could not be sent by then. */
	deadline?: number;
	/**
	 * The limits a new budget starts from, as the credential sets them (`[]`: none); the registry's default limits
	 * when absent. Only read when the key's budget is created: the key must tell different limits apart.
	 */
	limits?: readonly RateLimitWindow[];
}

export interface RateLimitSnapshot {
	windows: Array<RateLimitWindow & { effective: number }>;
	factor: number;
	pausedUntil: number;
	queued: number;
	inFlight: number;
}

/** The request could not get a slot before its deadline (the account stayed rate limited). */
export class RateLimitDeadlineError extends Error {
	constructor() {
		super('The Stora rate limit did not allow the request in time');
		this.name = 'RateLimitDeadlineError';
	}
}

/** What one RateLimit-* header value says (every member optional). */
export interface ParsedRateLimit {
	limit?: number;
	remaining?: number;
	/** Raw reset value (seconds until reset, or epoch seconds): see resetAtMs. */
	reset?: number;
	/** Windows named by IETF-draft policy items (`60;w=60`, `q=60;w=60`). */
	windows: RateLimitWindow[];
}

/**
 * Parses a `RateLimit-Limit` / `RateLimit-Remaining` / `RateLimit` / `RateLimit-Policy` value: a plain number (the
 * documented form, `60`), the draft-03 list (`10, 10;w=1, 60;w=60`: the current limit, then policies) or the
 * key-value forms (`limit=60, remaining=5, reset=30`; `"default";q=60;w=60`; `r=5;t=30`).
 */
export function parseRateLimitHeader(value: string | undefined): ParsedRateLimit {
	const parsed: ParsedRateLimit = { windows: [] };
	if (value === undefined) return parsed;
	for (const item of value.split(',')) {
		let bare: number | undefined;
		const params: Record<string, number> = {};
		for (const part of item.split(';').map((p) => p.trim())) {
			const eq = part.indexOf('=');
			if (eq < 0) {
				const n = toNumber(part);
				if (n !== undefined) bare = n;
				continue;
			}
			const n = toNumber(part.slice(eq + 1).trim().replace(/^"|"$/g, ''));
			if (n !== undefined) params[part.slice(0, eq).trim().toLowerCase()] = n;
		}
		const quota = bare ?? params.q ?? params.limit ?? params.l;
		if (quota !== undefined && params.w !== undefined && params.w > 0) {
			parsed.windows.push({ limit: quota, windowMs: params.w * 1000 });
		} else if (quota !== undefined) {
			parsed.limit ??= quota;
		}
		const remaining = params.remaining ?? params.r;
		if (remaining !== undefined) parsed.remaining ??= remaining;
		const reset = params.reset ?? params.t;
		if (reset !== undefined) parsed.reset ??= reset;
	}
	return parsed;
}

function toNumber(text: string): number | undefined {
	if (!/^\d+(\.\d+)?$/.test(text)) return undefined;
	return Number(text);
}

/**
 * Epoch ms of a reset value. The docs say `RateLimit-Reset` is UTC epoch seconds; the IETF drafts use seconds from
 * now. A value above 1e9 can only be an epoch (a delta that large is 31 years), anything smaller is a delta.
 */
export function resetAtMs(reset: number, now: number): number {
	return reset > 1e9 ? reset * 1000 : now + reset * 1000;
}

/**
 * Epoch ms (on this machine's clock) at which a window resets. An epoch reset is read against the response's `Date`
 * (the server's clock, whole seconds): if the clocks disagree by more than that second, the server's own distance to
 * the reset wins, so a skewed clock neither stretches a one-second window into a minute nor ends a pause early.
 */
export function resetAtFromResponse(reset: number, date: string | undefined, now: number): number {
	const local = resetAtMs(reset, now);
	if (reset <= 1e9 || date === undefined) return local;
	const serverNow = Date.parse(date);
	if (Number.isNaN(serverNow)) return local;
	// The server's clock read somewhere in [serverNow, serverNow + 1 s) when it answered.
	const latest = now + (reset * 1000 - serverNow);
	return Math.min(Math.max(local, latest - 1000), latest);
}

/** Epoch ms a `Retry-After` value (seconds or an HTTP date) points at, if it is one. */
export function retryAfterAtMs(value: string | undefined, now: number): number | undefined {
	if (value === undefined || value.trim() === '') return undefined;
	const seconds = toNumber(value.trim());
	if (seconds !== undefined) return now + seconds * 1000;
	const date = Date.parse(value);
	return Number.isNaN(date) ? undefined : date;
}

function headerValue(headers: HeaderSource, name: string): string | undefined {
	if (!headers) return undefined;
	if (typeof (headers as { get?: unknown }).get === 'function') {
		return (headers as { get(name: string): string | null }).get(name) ?? undefined;
	}
	const lower = name.toLowerCase();
	for (const [key, value] of Object.entries(headers as Record<string, unknown>)) {
		if (key.toLowerCase() !== lower || value === undefined || value === null) continue;
		return Array.isArray(value) ? value.map(String).join(', ') : String(value);
	}
	return undefined;
}

/**
 * The budget's key: the base URL and the credential (not the Stora account behind it, which the package cannot see).
 * A hash, so no secret ever sits in the registry in clear (it is reachable from any code in the process).
 * `secretMaterial`: the access token, or the OAuth2 client id plus whatever tells the stored credentials apart, and
 * the credential's limit settings.
 */
export function budgetKey(baseUrl: string, secretMaterial: string): string {
	const base = baseUrl.trim().replace(/\/+$/, '').toLowerCase();
	return `stora:${createHash('sha256').update(`${base}\n${secretMaterial}`).digest('hex')}`;
}

interface Waiter {
	resolve: (slot: RateLimitSlot) => void;
	reject: (error: Error) => void;
	retry: boolean;
	deadline?: number;
}

interface Slot extends RateLimitSlot {
	done: boolean;
}

/** A window limit learned from a header or a 429, and when it was last confirmed (epoch ms). */
interface Lesson {
	limit: number;
	confirmedAt: number;
}

interface Budget {
	/** The credential's own windows (or the registry's default), shortest first; empty: no limit. */
	own: RateLimitWindow[];
	/** Limits the credential sets, by window length: what Stora announces may lower them, never raise them. */
	ceilings: Map<number, number>;
	/** Learned limits by window length; each overrides `own` for its window until it fades (`windowsAt`). */
	lessons: Map<number, Lesson>;
	/** Allowance factor right after the last decrease, and when (that 429) its linear recovery starts. */
	low: number;
	recoverFrom: number;
	/** Nothing is sent before this (a 429, or the server said remaining 0). */
	pausedUntil: number;
	/** End of the pause of the last decrease: 429s of requests sent before it do not shrink the allowance again. */
	decreasedUntil: number;
	/** Consecutive 429s without any rate-limit header: the fallback wait grows from a second to a minute window. */
	blind429s: number;
	/** Response times of completed requests within the longest window, oldest first. */
	completed: number[];
	inFlight: Set<Slot>;
	queue: Waiter[];
	pumping: boolean;
	wake?: () => void;
}

/** Budgets by key. The package shares one instance per process (`rateLimits`); tests make more to act as another process. */
export class RateLimitRegistry {
	readonly version = 2;
	private settings: RateLimitSettings = cloneSettings(DEFAULT_SETTINGS);
	private readonly budgets = new Map<string, Budget>();

	/** Changes the settings for budgets created from now on (tests: smaller limits, faster recovery). */
	configure(settings: Partial<RateLimitSettings>): void {
		this.settings = cloneSettings({ ...this.settings, ...settings });
	}

	/** Forgets every budget and restores the default settings. Waiting requests are rejected. */
	reset(): void {
		for (const budget of this.budgets.values()) {
			for (const waiter of budget.queue.splice(0)) waiter.reject(new Error('The rate-limit budget was reset'));
			budget.wake?.();
		}
		this.budgets.clear();
		this.settings = cloneSettings(DEFAULT_SETTINGS);
	}

	snapshot(key: string, now = Date.now(), limits?: readonly RateLimitWindow[]): RateLimitSnapshot {
		const budget = this.budget(key, limits);
		const factor = this.factor(budget, now);
		return {
			windows: this.windowsAt(budget, now).map((window) => ({ ...window, effective: effectiveLimit(window, factor) })),
			factor,
			pausedUntil: budget.pausedUntil,
			queued: budget.queue.length,
			inFlight: budget.inFlight.size,
		};
	}

	/** Resolves when a request may be sent. Every slot must be reported back with `record` exactly once. */
	async acquire(key: string, options: AcquireOptions = {}): Promise<RateLimitSlot> {
		const { signal } = options;
		if (signal?.aborted) throw abortReason(signal);
		const budget = this.budget(key, options.limits);
		return await new Promise<RateLimitSlot>((resolve, reject) => {
			const onAbort = () => {
				const index = budget.queue.indexOf(waiter);
				if (index >= 0) budget.queue.splice(index, 1);
				budget.wake?.();
				reject(abortReason(signal!));
			};
			const waiter: Waiter = {
				resolve: (slot) => {
					signal?.removeEventListener('abort', onAbort);
					resolve(slot);
				},
				reject: (error) => {
					signal?.removeEventListener('abort', onAbort);
					reject(error);
				},
				retry: options.retry === true,
				deadline: options.deadline,
			};
			if (waiter.retry) {
				// After the retries already waiting, before every first attempt: the order of arrival is kept.
				const firstNew = budget.queue.findIndex((w) => !w.retry);
				budget.queue.splice(firstNew < 0 ? budget.queue.length : firstNew, 0, waiter);
			} else {
				budget.queue.push(waiter);
			}
			signal?.addEventListener('abort', onAbort, { once: true });
			void this.pump(key, budget);
		});
	}

	/**
	 * Reports how a granted request ended: its status and headers, or no status when no response came (network
	 * error). Learns from the headers; on 429 pauses the budget and returns the ms to wait before the retry
	 * (0 otherwise). Repeated calls for one slot are ignored.
	 */
	record(slot: RateLimitSlot, statusCode: number | undefined, headers?: HeaderSource): number {
		const own = slot as Slot;
		if (own.done) return 0;
		own.done = true;
		const budget = this.budgets.get(slot.key);
		// The registry was reset while the request was out: nothing to learn into.
		if (!budget) return 0;
		const now = Date.now();
		if (budget.inFlight.delete(own)) budget.completed.push(now);
		let wait = 0;
		// Faded lessons go here, at a real time, not where the budget is read (a snapshot may ask about any time).
		for (const [windowMs, lesson] of budget.lessons) if (!this.fresh(lesson, now)) budget.lessons.delete(windowMs);
		if (statusCode !== undefined) {
			this.learn(budget, headers, now);
			if (statusCode === 429) wait = this.limited(budget, headers, now);
			else if (statusCode < 400) budget.blind429s = 0;
		}
		budget.wake?.();
		return wait;
	}

	/**
	 * One request under the budget: waits for a slot, sends, reports, and on 429 waits and sends again until the
	 * request has spent `maxRetryWaitMs` waiting since its first 429. Returns the last response, which is still a 429
	 * when that time ran out; `send` rejecting is passed on as is (after freeing the slot).
	 */
	async send<T>(
		key: string,
		attempt: () => Promise<T>,
		view: (response: T) => { statusCode: number; headers?: HeaderSource },
		options: { signal?: AbortSignal; maxRetryWaitMs?: number; limits?: readonly RateLimitWindow[] } = {},
	): Promise<T> {
		const maxRetryWaitMs = options.maxRetryWaitMs ?? this.settings.maxRetryWaitMs;
		let firstLimitedAt: number | undefined;
		let last: T | undefined;
		for (;;) {
			// A deadline passed while waiting for the retry: the last 429 goes to the caller as its answer.
			const slot = await this.acquire(key, {
				signal: options.signal,
				limits: options.limits,
				retry: firstLimitedAt !== undefined,
				deadline: firstLimitedAt === undefined ? undefined : firstLimitedAt + maxRetryWaitMs,
			}).catch(async (error: unknown) =>
				error instanceof RateLimitDeadlineError && last !== undefined ? undefined : await Promise.reject(error),
			);
			if (slot === undefined) return last as T;
			let response: T;
			let answered = false;
			try {
				response = await attempt();
				answered = true;
			} finally {
				// No response (the request threw): free the slot; the error goes on to the caller as it is.
				if (!answered) this.record(slot, undefined);
			}
			const { statusCode, headers } = view(response);
			const wait = this.record(slot, statusCode, headers);
			if (statusCode !== 429) return response;
			const now = Date.now();
			firstLimitedAt ??= now;
			if (now + wait - firstLimitedAt > maxRetryWaitMs) return response;
			last = response;
		}
	}

	private budget(key: string, credentialLimits?: readonly RateLimitWindow[]): Budget {
		let budget = this.budgets.get(key);
		if (!budget) {
			const limits = credentialLimits ?? this.settings.limits;
			budget = {
				own: limits.map((window) => ({ ...window })).sort((a, b) => a.windowMs - b.windowMs),
				ceilings: new Map((credentialLimits ?? []).map((window) => [window.windowMs, window.limit])),
				lessons: new Map(),
				low: 1,
				recoverFrom: 0,
				pausedUntil: 0,
				decreasedUntil: 0,
				blind429s: 0,
				completed: [],
				inFlight: new Set(),
				queue: [],
				pumping: false,
			};
			this.budgets.set(key, budget);
		}
		return budget;
	}

	/** Grants the queue's head whenever every window allows it; one pump per budget, gone when the queue is empty. */
	private async pump(key: string, budget: Budget): Promise<void> {
		if (budget.pumping) {
			budget.wake?.();
			return;
		}
		budget.pumping = true;
		try {
			while (budget.queue.length > 0 && this.budgets.get(key) === budget) {
				const now = Date.now();
				const { at, known } = this.nextSendAt(budget, now);
				const head = budget.queue[0];
				if (at <= now) {
					budget.queue.shift();
					const slot: Slot = { key, grantedAt: now, done: false };
					budget.inFlight.add(slot);
					head.resolve(slot);
					continue;
				}
				// A time that depends on responses still to come is not known yet: give up only once the deadline is here.
				if (head.deadline !== undefined && (known ? at > head.deadline : now >= head.deadline)) {
					budget.queue.shift();
					head.reject(new RateLimitDeadlineError());
					continue;
				}
				await this.nap(budget, Math.min(at, head.deadline ?? Infinity) - now);
			}
		} finally {
			budget.pumping = false;
		}
	}

	/** Sleeps until `ms` passed or something changed (a response, an abort, a retry at the front). */
	private async nap(budget: Budget, ms: number): Promise<void> {
		const controller = new AbortController();
		let wake = () => {};
		const woken = new Promise<void>((resolve) => {
			wake = () => {
				controller.abort();
				resolve();
			};
		});
		budget.wake = wake;
		try {
			// Racing the wake-up keeps this correct on n8n versions whose sleep ignores the signal.
			await Promise.race([sleep(Math.min(ms, 2 ** 31 - 1), controller.signal).catch(() => undefined), woken]);
		} finally {
			if (budget.wake === wake) budget.wake = undefined;
		}
	}

	/**
	 * The earliest time (epoch ms, at least `now`) at which every window and any pause allow one more request; not
	 * `known` when requests still out fill a window (then it is the latest such time: a response comes sooner).
	 */
	private nextSendAt(budget: Budget, now: number): { at: number; known: boolean } {
		const { staleMs } = this.settings;
		for (const slot of budget.inFlight) {
			if (slot.grantedAt + staleMs <= now) {
				budget.inFlight.delete(slot);
				budget.completed.push(now);
			}
		}
		const windows = this.windowsAt(budget, now);
		const longest = windows[windows.length - 1]?.windowMs ?? 0;
		while (budget.completed.length > 0 && budget.completed[0] <= now - longest) budget.completed.shift();
		budget.completed.sort((a, b) => a - b);

		const factor = this.factor(budget, now);
		let at = Math.max(now, budget.pausedUntil);
		let known = true;
		if (windows.length === 0 && budget.inFlight.size >= UNPACED_IN_FLIGHT) {
			// Unpaced: the next response frees a place (the stale limit bounds the wait).
			const oldest = Math.min(...[...budget.inFlight].map((slot) => slot.grantedAt));
			at = Math.max(at, oldest + staleMs);
			known = false;
		}
		for (const window of windows) {
			const limit = effectiveLimit(window, factor);
			const recent = budget.completed.filter((time) => time > now - window.windowMs);
			const used = budget.inFlight.size + recent.length;
			if (used < limit) continue;
			// That many of the recent ones must leave the window first; if the requests still out alone fill it,
			// the next response wakes the pump (the stale limit bounds the wait).
			const leaving = used - limit + 1;
			if (leaving <= recent.length) {
				at = Math.max(at, recent[leaving - 1] + window.windowMs);
			} else {
				const oldest = Math.min(...[...budget.inFlight].map((slot) => slot.grantedAt));
				at = Math.max(at, oldest + staleMs);
				known = false;
			}
		}
		return { at, known };
	}

	/**
	 * The windows in force at `now`, shortest first: the credential's own, each overridden by a lesson confirmed less
	 * than `recoveryMs` before `now`, plus windows only lessons name.
	 */
	private windowsAt(budget: Budget, now: number): RateLimitWindow[] {
		const limits = new Map(budget.own.map((window) => [window.windowMs, window.limit]));
		for (const [windowMs, lesson] of budget.lessons) {
			if (this.fresh(lesson, now)) limits.set(windowMs, lesson.limit);
		}
		return [...limits].map(([windowMs, limit]) => ({ limit, windowMs })).sort((a, b) => a.windowMs - b.windowMs);
	}

	private fresh(lesson: Lesson, now: number): boolean {
		return now - lesson.confirmedAt < this.settings.recoveryMs;
	}

	private factor(budget: Budget, now: number): number {
		if (budget.low >= 1) return 1;
		const recovered = budget.low + ((1 - budget.low) * Math.max(0, now - budget.recoverFrom)) / this.settings.recoveryMs;
		return Math.min(1, recovered);
	}

	/** Applies what the headers say: limits, and a pause until the reset when nothing remains. */
	private learn(budget: Budget, headers: HeaderSource, now: number): void {
		const combined = parseRateLimitHeader(headerValue(headers, 'ratelimit'));
		const limitHeader = parseRateLimitHeader(headerValue(headers, 'ratelimit-limit'));
		const policy = parseRateLimitHeader(headerValue(headers, 'ratelimit-policy'));
		const remaining = parseRateLimitHeader(headerValue(headers, 'ratelimit-remaining')).limit ?? combined.remaining ?? limitHeader.remaining;
		const reset = toNumber(headerValue(headers, 'ratelimit-reset')?.trim() ?? '') ?? combined.reset ?? limitHeader.reset;
		const date = headerValue(headers, 'date');
		const resetAt = reset === undefined ? undefined : this.clampReset(budget, resetAtFromResponse(reset, date, now), now);

		const named = [...limitHeader.windows, ...policy.windows, ...combined.windows];
		const limit = limitHeader.limit ?? combined.limit;
		// An unpaced budget paces by the windows Stora names, while it names them. A bare limit does not say its window:
		// the budget stays unpaced (a 429 or remaining 0 still pauses it until the reset).
		for (const window of named) this.setWindow(budget, window, now);
		const windows = this.windowsAt(budget, now);
		if (limit !== undefined && limit >= 1 && windows.length > 0) this.lowerMatchingWindow(budget, windows, Math.floor(limit), resetAt, now);
		if (remaining !== undefined && remaining <= 0 && resetAt !== undefined) {
			budget.pausedUntil = Math.max(budget.pausedUntil, resetAt);
		}
	}

	/**
	 * A policy naming its window is taken as it is (a lesson confirmed now): it may raise a limit as well as lower it,
	 * but not above what the credential sets for that window (a share of the account's limit, say).
	 */
	private setWindow(budget: Budget, window: RateLimitWindow, now: number): void {
		if (!(window.limit >= 1) || !(window.windowMs > 0)) return;
		const limit = Math.min(Math.floor(window.limit), budget.ceilings.get(window.windowMs) ?? Infinity);
		budget.lessons.set(window.windowMs, { limit, confirmedAt: now });
	}

	/**
	 * A bare `RateLimit-Limit` belongs to "the current window" without saying which. The windows it can be are those
	 * at least as long as the time to the reset (whole seconds, so one second of slack); shortest first, it confirms
	 * a window with that limit (renewing its lesson, if it is one), lowers the first one above it (a lesson confirmed
	 * now), and skips windows already below it. A bare limit never raises one: a wrong guess may only cost speed.
	 */
	private lowerMatchingWindow(
		budget: Budget,
		windows: readonly RateLimitWindow[],
		limit: number,
		resetAt: number | undefined,
		now: number,
	): void {
		const untilReset = resetAt === undefined ? 0 : resetAt - now;
		for (const window of windows) {
			if (window.windowMs + 1000 < untilReset) continue;
			if (window.limit === limit) {
				const lesson = budget.lessons.get(window.windowMs);
				if (lesson) lesson.confirmedAt = now;
				return;
			}
			// Held below Stora's limit on purpose by the credential: this may well be the window announced.
			const ceiling = budget.ceilings.get(window.windowMs);
			if (ceiling !== undefined && window.limit >= ceiling && limit >= ceiling) return;
			if (window.limit > limit) {
				budget.lessons.set(window.windowMs, { limit, confirmedAt: now });
				return;
			}
		}
	}

	/** A reset further away than the longest window (clock skew, a bogus value) is cut to that window. */
	private clampReset(budget: Budget, resetAt: number, now: number): number {
		const longest = Math.max(60_000, ...this.windowsAt(budget, now).map((w) => w.windowMs));
		return Math.min(resetAt, now + longest + 1000);
	}

	/**
	 * A 429: pause the budget until the window reopens, shrink the allowance once per pause, and confirm what was
	 * learned (still too fast: nothing learned may fade now).
	 */
	private limited(budget: Budget, headers: HeaderSource, now: number): number {
		if (this.windowsAt(budget, now).length === 0) {
			// An unpaced budget is paced by the documented limits until 429s stop for `recoveryMs`.
			for (const window of DOCUMENTED_LIMITS) budget.lessons.set(window.windowMs, { limit: window.limit, confirmedAt: now });
		} else {
			for (const lesson of budget.lessons.values()) lesson.confirmedAt = now;
		}
		const windows = this.windowsAt(budget, now);
		const retryAfter = retryAfterAtMs(headerValue(headers, 'retry-after'), now);
		const reset = toNumber(headerValue(headers, 'ratelimit-reset')?.trim() ?? '') ?? parseRateLimitHeader(headerValue(headers, 'ratelimit')).reset;
		let until: number;
		if (retryAfter !== undefined) {
			until = this.clampReset(budget, retryAfter, now);
			budget.blind429s = 0;
		} else if (reset !== undefined) {
			until = this.clampReset(budget, resetAtFromResponse(reset, headerValue(headers, 'date'), now), now);
			budget.blind429s = 0;
		} else {
			// No hint: the rest of the shortest window, then of the longest (fixed windows start on the clock).
			budget.blind429s += 1;
			const windowMs = budget.blind429s === 1 ? windows[0].windowMs : windows[windows.length - 1].windowMs;
			until = now + (windowMs - (now % windowMs));
		}
		// At least a moment: a reset already past (rounding, skew) must not turn into a tight retry loop.
		until = Math.max(until, now + 100);
		budget.pausedUntil = Math.max(budget.pausedUntil, until);
		if (now >= budget.decreasedUntil) {
			budget.low = Math.max(this.settings.minFactor, this.factor(budget, now) * this.settings.decrease);
			// Recovery runs from the 429 itself, not from the end of its pause: the allowance is full again
			// `recoveryMs` after the last 429 however long the pause was.
			budget.recoverFrom = now;
			budget.decreasedUntil = budget.pausedUntil;
		}
		return budget.pausedUntil - now;
	}
}

function effectiveLimit(window: RateLimitWindow, factor: number): number {
	return Math.max(1, Math.floor(window.limit * factor));
}

function cloneSettings(settings: RateLimitSettings): RateLimitSettings {
	return { ...settings, limits: settings.limits.map((window) => ({ ...window })) };
}

function abortReason(signal: AbortSignal): Error {
	const reason: unknown = signal.reason;
	return reason instanceof Error ? reason : new Error('The request was cancelled while waiting for the Stora rate limit');
}

/** The process-wide registry, found by every copy of this module. */
export const rateLimits: RateLimitRegistry = processWide('rateLimitRegistry', 2, () => new RateLimitRegistry());

/**
 * The limits a credential sets for its account: `undefined` for Stora's documented default (the registry's default
 * limits), else a window per limit above 0 (`[]`: no limit). Throws an Error naming the field for a value that is not
 * a whole number of 0 or more.
 */
export function credentialLimits(credentials: Record<string, unknown>): RateLimitWindow[] | undefined {
	if (credentials.rateLimit !== 'custom') return undefined;
	const fields = [
		{ name: 'requestsPerSecond', label: 'Requests per Second', windowMs: 1_000 },
		{ name: 'requestsPerMinute', label: 'Requests per Minute', windowMs: 60_000 },
	];
	const windows: RateLimitWindow[] = [];
	for (const { name, label, windowMs } of fields) {
		const value = Number(credentials[name] ?? 0);
		if (!Number.isInteger(value) || value < 0) {
			throw new Error(
				`${label} in the Stora credential must be a whole number of 0 or more (0: no limit per ${windowMs === 1_000 ? 'second' : 'minute'}), not ${String(credentials[name])}`,
			);
		}
		if (value > 0) windows.push({ limit: value, windowMs });
	}
	return windows;
}

/** Waits for the credential's budget; see RateLimitRegistry.acquire. */
export async function acquireSlot(key: string, options?: AcquireOptions): Promise<RateLimitSlot> {
	return await rateLimits.acquire(key, options);
}

/** One request with queueing and bounded 429 retries; see RateLimitRegistry.send. */
export async function sendWithRateLimit<T>(
	key: string,
	attempt: () => Promise<T>,
	view: (response: T) => { statusCode: number; headers?: HeaderSource },
	options?: { signal?: AbortSignal; maxRetryWaitMs?: number; limits?: readonly RateLimitWindow[] },
): Promise<T> {
	return await rateLimits.send(key, attempt, view, options);
}
