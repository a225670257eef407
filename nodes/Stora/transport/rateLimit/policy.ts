import {
	headerValue,
	parseRateLimitHeader,
	rateLimitReset,
	resetAtFromResponse,
	retryAfterAtMs,
	type HeaderSource,
} from './headers';

/**
 * The rate-limit policy: what a request waits for, how long a 429 pauses the account, what is retried and for how
 * long. `registry.ts` carries it out (one FIFO queue per credential and its timer); `headers.ts` reads the headers.
 *
 * What waits. Every request of a credential in this process queues for one budget. A request goes when every window
 * has room for it (it holds its place from its sending until its answer, then for the window's length, so no window
 * sees more than its limit whatever the latency), the budget is not paused, and the last request went at least the
 * shortest window's even pace ago (no bursts). The windows are the credential's (Stora's documented limits, or its
 * Custom limits), lowered by what `RateLimit-Limit` announces.
 *
 * How long. A 429 pauses the whole budget until the window it names resets (`RateLimit-Reset`; a longer
 * `Retry-After` wins), then a moment more drawn at random, so processes that paused together do not resume together.
 *
 * What is retried. A request answered 429 goes again after the pause, ahead of requests not sent yet, until the
 * request has waited `maxRetryWaitMs` since its first 429; then the last 429 goes to the caller, whose error says so.
 *
 * Several n8n processes on one account each have their own budget and believe they have the whole limit: n8n gives a
 * community node no state shared between processes. The even pace makes them meet the limit one request each rather
 * than a burst each, and each 429 is retried inside the node. For none at all, the credential's Custom limits set to
 * the account's limits divided by the number of processes.
 */

/** A rate-limit window: requests allowed in any interval of `windowMs`. */
export interface RateLimitWindow {
	limit: number;
	windowMs: number;
}

/** The documented defaults (auth-errors-limits, "Rate limits"); plans may differ. */
export const DOCUMENTED_LIMITS: readonly RateLimitWindow[] = Object.freeze([
	{ limit: 10, windowMs: 1_000 },
	{ limit: 60, windowMs: 60_000 },
]);

/**
 * Requests in flight at most for a credential that sets no limit (Custom 0 and 0) while nothing paces it; after a 429
 * it keeps to the documented limits until 429s stop for `announcedForMs`.
 */
export const UNPACED_IN_FLIGHT = 8;

export interface RateLimitSettings {
	/** Windows a budget starts from when the credential sets none of its own. */
	limits: RateLimitWindow[];
	/** A request answered 429 is retried until it has waited this long since its first 429. */
	maxRetryWaitMs: number;
	/** A limit a header announced, or the documented limits a 429 set on a credential without limits, holds this long after last heard. */
	announcedForMs: number;
	/** A pause after a 429 ends up to this much later than the reset, at random. */
	jitterMs: number;
	/** A granted request never reported back (a caller bug) stops holding its place after this long. */
	staleMs: number;
}

export const DEFAULT_SETTINGS: RateLimitSettings = {
	limits: DOCUMENTED_LIMITS.map((window) => ({ ...window })),
	maxRetryWaitMs: 5 * 60_000,
	announcedForMs: 2 * 60_000,
	jitterMs: 200,
	staleMs: 5 * 60_000,
};

export function cloneSettings(settings: RateLimitSettings): RateLimitSettings {
	return { ...settings, limits: settings.limits.map((window) => ({ ...window })) };
}

/** The limits a budget keeps to: its own windows, the credential's ceilings, what the answers announced. */
export interface Limits {
	/** The credential's windows (or the registry's default), shortest first; empty: no limit. */
	own: RateLimitWindow[];
	/** Limits the credential sets, by window length: what Stora announces may lower them, never raise them. */
	ceilings: Map<number, number>;
	/** Announced limits by window length and when each was last heard; each overrides `own` while fresh. */
	announced: Map<number, { limit: number; heardAt: number }>;
}

export function newLimits(
	limits: readonly RateLimitWindow[],
	credentialLimits?: readonly RateLimitWindow[],
): Limits {
	return {
		own: limits.map((window) => ({ ...window })).sort((a, b) => a.windowMs - b.windowMs),
		ceilings: new Map((credentialLimits ?? []).map((window) => [window.windowMs, window.limit])),
		announced: new Map(),
	};
}

/** The windows in force at `now`, shortest first: the credential's, each overridden by a fresh announced limit. */
export function windowsAt(
	limits: Limits,
	now: number,
	settings: RateLimitSettings,
): RateLimitWindow[] {
	const byLength = new Map(limits.own.map((window) => [window.windowMs, window.limit]));
	for (const [windowMs, heard] of limits.announced) {
		if (now - heard.heardAt < settings.announcedForMs) byLength.set(windowMs, heard.limit);
	}
	return [...byLength]
		.map(([windowMs, limit]) => ({ limit, windowMs }))
		.sort((a, b) => a.windowMs - b.windowMs);
}

/** A request granted and not answered yet. */
interface Out {
	grantedAt: number;
}

/** What the budget has when it decides: its requests out, the answer times within the longest window, its pause. */
export interface BudgetState {
	inFlight: ReadonlySet<Out>;
	/** When each answered request was answered, oldest first. */
	answered: readonly number[];
	lastGrantAt: number;
	pausedUntil: number;
}

/**
 * The earliest time (epoch ms, at least `now`) the next request may go. Not `known` when requests still out fill a
 * window: then it is the latest it can be (their stale limit), and an answer will tell sooner.
 */
export function nextSendAt(
	windows: readonly RateLimitWindow[],
	state: BudgetState,
	now: number,
	settings: RateLimitSettings,
): { at: number; known: boolean } {
	let at = Math.max(now, state.pausedUntil);
	let known = true;
	const oldestOut = () =>
		Math.min(...[...state.inFlight].map((slot) => slot.grantedAt)) + settings.staleMs;
	if (windows.length === 0) {
		if (state.inFlight.size < UNPACED_IN_FLIGHT) return { at, known };
		return { at: Math.max(at, oldestOut()), known: false };
	}
	at = Math.max(at, state.lastGrantAt + spacingMs(windows));
	for (const window of windows) {
		const recent = state.answered.filter((time) => time > now - window.windowMs);
		const used = state.inFlight.size + recent.length;
		if (used < window.limit) continue;
		const leaving = used - window.limit + 1;
		if (leaving <= recent.length) {
			at = Math.max(at, recent[leaving - 1] + window.windowMs);
		} else {
			at = Math.max(at, oldestOut());
			known = false;
		}
	}
	return { at, known };
}

/** The least time between two requests: the shortest window's even pace (0 without windows). */
const spacingMs = (windows: readonly RateLimitWindow[]) =>
	windows.length === 0 ? 0 : windows[0].windowMs / windows[0].limit;

/**
 * When the pace counts a request granted at `now` as sent: at its turn when it went less than one spacing after it, so
 * the timer's lateness does not add up over a long queue; else at `now`.
 */
export function pacedAt(
	lastGrantAt: number,
	now: number,
	windows: readonly RateLimitWindow[],
): number {
	const turn = lastGrantAt + spacingMs(windows);
	return now - turn < spacingMs(windows) ? Math.min(turn, now) : now;
}

/**
 * Applies what an answer's headers say about limits. A window a policy names (`RateLimit-Policy`, the draft's
 * `RateLimit`) is taken as it is, up to the credential's ceiling. A bare `RateLimit-Limit` (the documented form) is
 * "the current window" without saying which: among the windows lasting until the reset, shortest first, it renews one
 * with that limit, stops at one the credential holds at or below it, lowers one above it, and passes one below it;
 * it never raises one. `RateLimit-Remaining` is not read: the 429 says the same when it matters.
 */
export function hear(
	limits: Limits,
	headers: HeaderSource,
	now: number,
	settings: RateLimitSettings,
): void {
	const combined = parseRateLimitHeader(headerValue(headers, 'ratelimit'));
	const bare = parseRateLimitHeader(headerValue(headers, 'ratelimit-limit'));
	const policy = parseRateLimitHeader(headerValue(headers, 'ratelimit-policy'));
	for (const window of [...bare.windows, ...policy.windows, ...combined.windows]) {
		if (!(window.limit >= 1) || !(window.windowMs > 0)) continue;
		const limit = Math.min(
			Math.floor(window.limit),
			limits.ceilings.get(window.windowMs) ?? Infinity,
		);
		limits.announced.set(window.windowMs, { limit, heardAt: now });
	}
	const limit = bare.limit ?? combined.limit;
	const windows = windowsAt(limits, now, settings);
	if (limit === undefined || !(limit >= 1) || windows.length === 0) return;
	const resetAt = resetOf(headers, limits, now, settings);
	const untilReset = resetAt === undefined ? 0 : resetAt - now;
	// Shortest first, among the windows lasting until the reset (whole seconds: one second of slack).
	for (const window of windows.filter((each) => each.windowMs + 1000 >= untilReset)) {
		const heard = limits.announced.get(window.windowMs);
		if (window.limit === Math.floor(limit)) {
			if (heard) heard.heardAt = now;
			return;
		}
		// Held at or below Stora's limit on purpose by the credential: this may well be the window announced.
		const ceiling = limits.ceilings.get(window.windowMs);
		if (ceiling !== undefined && window.limit >= ceiling && limit >= ceiling) return;
		if (window.limit > limit) {
			limits.announced.set(window.windowMs, { limit: Math.floor(limit), heardAt: now });
			return;
		}
	}
}

/**
 * How long a 429 pauses the budget: until the window it names resets (`RateLimit-Reset`, or a longer `Retry-After`),
 * or without either the rest of the shortest window, then at a second 429 in a row the rest of the longest (fixed
 * windows start on the clock); plus up to `jitterMs` at random. A credential without limits keeps to the documented
 * ones from now on, and what was announced is renewed: it still holds. Returns the epoch ms the pause ends and the
 * count of 429s in a row that named no time.
 */
export function pauseAfter429(
	limits: Limits,
	headers: HeaderSource,
	now: number,
	settings: RateLimitSettings,
	unnamedBefore: number,
	random: number,
): { until: number; unnamed: number } {
	if (windowsAt(limits, now, settings).length === 0) {
		for (const window of DOCUMENTED_LIMITS)
			limits.announced.set(window.windowMs, { limit: window.limit, heardAt: now });
	}
	for (const heard of limits.announced.values()) heard.heardAt = now;
	const windows = windowsAt(limits, now, settings);
	const retryAfter = retryAfterAtMs(headerValue(headers, 'retry-after'), now);
	const resetAt = resetOf(headers, limits, now, settings);
	let until: number;
	let unnamed = 0;
	if (resetAt !== undefined || retryAfter !== undefined) {
		until = Math.max(resetAt ?? 0, retryAfter === undefined ? 0 : clamp(retryAfter, windows, now));
	} else {
		unnamed = unnamedBefore + 1;
		const window = unnamed === 1 ? windows[0] : windows[windows.length - 1];
		until = now + window.windowMs - (now % window.windowMs);
	}
	// At least a moment: a reset already past (rounding, skew) must not turn into a tight retry loop.
	return { until: Math.max(until, now + 100) + random * settings.jitterMs, unnamed };
}

/** Whether a request first answered 429 at `firstLimitedAt` may wait until `retryAt` and go again. */
export const mayRetry = (firstLimitedAt: number, retryAt: number, settings: RateLimitSettings) =>
	retryAt - firstLimitedAt <= settings.maxRetryWaitMs;

/** Epoch ms at which the window the answer names resets, if it names one. */
function resetOf(
	headers: HeaderSource,
	limits: Limits,
	now: number,
	settings: RateLimitSettings,
): number | undefined {
	const reset =
		rateLimitReset(headers) ??
		parseRateLimitHeader(headerValue(headers, 'ratelimit')).reset ??
		parseRateLimitHeader(headerValue(headers, 'ratelimit-limit')).reset;
	if (reset === undefined) return undefined;
	return clamp(
		resetAtFromResponse(reset, headerValue(headers, 'date'), now),
		windowsAt(limits, now, settings),
		now,
	);
}

/** A time further away than the longest window (clock skew, a bogus value) is cut to that window. */
function clamp(at: number, windows: readonly RateLimitWindow[], now: number): number {
	return Math.min(at, now + Math.max(60_000, ...windows.map((window) => window.windowMs)) + 1000);
}
