import {
	headerValue,
	parseRateLimitHeader,
	rateLimitReset,
	resetAtFromResponse,
	retryAfterAtMs,
	type HeaderSource,
} from './headers';
import { DOCUMENTED_LIMITS, type RateLimitSettings, type RateLimitWindow } from './settings';
import { fitShare, newShare, shrink, type Share } from './share';

/**
 * What one budget allows (the registry in `registry.ts` queues its requests): the credential's own windows, what
 * the answers taught, this process's share of each window (`share.ts`), a pause after a 429.
 *
 * What it learns about limits fades: the credential's own setting is the rule, a lesson the exception that lasts only
 * as long as its evidence. A lesson is a window a header named or lowered, or the documented windows an unpaced budget
 * adopts at a 429; each remembers when it was last confirmed (a header saying it again, or a 429). A window lesson
 * holds until `recoveryMs` (2 minutes) after that, then the credential's window is back (for no limit: unpaced
 * again). A share does not fade: it grows back by itself while it is what holds requests back. The pause after a 429
 * is not a lesson: it ends at the reset the 429 named.
 * No background timers: a lesson's age is checked whenever the windows are read (`windowsAt`).
 */

/** A window limit learned from a header or a 429, and when it was last confirmed (epoch ms). */
interface Lesson {
	limit: number;
	confirmedAt: number;
}

/** A request this budget sent, within the longest window: when, and whether it was answered 429. */
export interface Sent {
	at: number;
	limited: boolean;
}

export interface Allowance {
	/** The credential's own windows (or the registry's default), shortest first; empty: no limit. */
	own: RateLimitWindow[];
	/** Limits the credential sets, by window length: what Stora announces may lower them, never raise them. */
	ceilings: Map<number, number>;
	/** Learned limits by window length; each overrides `own` for its window until it fades (`windowsAt`). */
	lessons: Map<number, Lesson>;
	/** This process's share of each window, by window length, with the limit it was last fitted to. */
	shares: Map<number, Share & { limit: number }>;
	/** Requests sent within the longest window, oldest first (what a share learns from at a 429). */
	sent: Sent[];
	/** Nothing is sent before this (a 429's reset). */
	pausedUntil: number;
	/** Consecutive 429s without any rate-limit header: the fallback wait grows from a second to a minute window. */
	blind429s: number;
}

/** A fresh allowance from `limits`; the credential's own limits (if it sets any) are also its ceilings. */
export function newAllowance(limits: readonly RateLimitWindow[], credentialLimits?: readonly RateLimitWindow[]): Allowance {
	return {
		own: limits.map((window) => ({ ...window })).sort((a, b) => a.windowMs - b.windowMs),
		ceilings: new Map((credentialLimits ?? []).map((window) => [window.windowMs, window.limit])),
		lessons: new Map(),
		shares: new Map(),
		sent: [],
		pausedUntil: 0,
		blind429s: 0,
	};
}

/** This process's share of `window`, made alone on first use and kept within the window's current limit. */
export function shareOf(allowance: Allowance, window: RateLimitWindow): Share {
	let share = allowance.shares.get(window.windowMs);
	if (!share) {
		share = { ...newShare(window.limit), limit: window.limit };
		allowance.shares.set(window.windowMs, share);
	} else if (share.limit !== window.limit) {
		fitShare(share, window, share.limit);
		share.limit = window.limit;
	}
	return share;
}

/**
 * The windows in force at `now`, shortest first: the credential's own, each overridden by a lesson confirmed less
 * than `recoveryMs` before `now`, plus windows only lessons name.
 */
export function windowsAt(allowance: Allowance, now: number, recoveryMs: number): RateLimitWindow[] {
	const limits = new Map(allowance.own.map((window) => [window.windowMs, window.limit]));
	for (const [windowMs, lesson] of allowance.lessons) {
		if (fresh(lesson, now, recoveryMs)) limits.set(windowMs, lesson.limit);
	}
	return [...limits].map(([windowMs, limit]) => ({ limit, windowMs })).sort((a, b) => a.windowMs - b.windowMs);
}

function fresh(lesson: Lesson, now: number, recoveryMs: number): boolean {
	return now - lesson.confirmedAt < recoveryMs;
}

/**
 * An answer came (`statusCode`), or none did (undefined), to the request `sent`: faded lessons go, the headers teach,
 * a 429 pauses and shrinks this process's share of the window it names. Returns the ms to wait before a retry (0
 * unless a 429).
 */
export function learnFrom(
	allowance: Allowance,
	statusCode: number | undefined,
	headers: HeaderSource,
	now: number,
	settings: RateLimitSettings,
	sent?: Sent,
): number {
	// Faded lessons go here, at a real time, not where the budget is read (a snapshot may ask about any time).
	for (const [windowMs, lesson] of allowance.lessons) {
		if (!fresh(lesson, now, settings.recoveryMs)) allowance.lessons.delete(windowMs);
	}
	if (statusCode === undefined) return 0;
	learn(allowance, headers, now, settings.recoveryMs);
	if (statusCode === 429) {
		if (sent) sent.limited = true;
		return limited(allowance, headers, now, settings, sent?.at ?? now);
	}
	if (statusCode < 400) allowance.blind429s = 0;
	return 0;
}

/**
 * Applies the limits the headers say. `RateLimit-Remaining` (not documented) is not read: pausing when it says 0
 * would spare the process that used the window up the 429 that tells it to share, and leave the 429s to the others.
 */
function learn(allowance: Allowance, headers: HeaderSource, now: number, recoveryMs: number): void {
	const combined = parseRateLimitHeader(headerValue(headers, 'ratelimit'));
	const limitHeader = parseRateLimitHeader(headerValue(headers, 'ratelimit-limit'));
	const policy = parseRateLimitHeader(headerValue(headers, 'ratelimit-policy'));
	const reset = rateLimitReset(headers) ?? combined.reset ?? limitHeader.reset;
	const date = headerValue(headers, 'date');
	const resetAt = reset === undefined ? undefined : clampReset(allowance, resetAtFromResponse(reset, date, now), now, recoveryMs);

	const named = [...limitHeader.windows, ...policy.windows, ...combined.windows];
	const limit = limitHeader.limit ?? combined.limit;
	// An unpaced budget paces by the windows Stora names, while it names them. A bare limit does not say its window:
	// the budget stays unpaced (a 429 still pauses it until the reset).
	for (const window of named) setWindow(allowance, window, now);
	const windows = windowsAt(allowance, now, recoveryMs);
	if (limit !== undefined && limit >= 1 && windows.length > 0) lowerMatchingWindow(allowance, windows, Math.floor(limit), resetAt, now);
}

/**
 * A policy naming its window is taken as it is (a lesson confirmed now): it may raise a limit as well as lower it,
 * but not above what the credential sets for that window (a share of the account's limit, say).
 */
function setWindow(allowance: Allowance, window: RateLimitWindow, now: number): void {
	if (!(window.limit >= 1) || !(window.windowMs > 0)) return;
	const limit = Math.min(Math.floor(window.limit), allowance.ceilings.get(window.windowMs) ?? Infinity);
	allowance.lessons.set(window.windowMs, { limit, confirmedAt: now });
}

/**
 * A bare `RateLimit-Limit` belongs to "the current window" without saying which. The windows it can be are those
 * at least as long as the time to the reset (whole seconds, so one second of slack); shortest first, it confirms
 * a window with that limit (renewing its lesson, if it is one), lowers the first one above it (a lesson confirmed
 * now), and skips windows already below it. A bare limit never raises one: a wrong guess may only cost speed.
 */
function lowerMatchingWindow(
	allowance: Allowance,
	windows: readonly RateLimitWindow[],
	limit: number,
	resetAt: number | undefined,
	now: number,
): void {
	const untilReset = resetAt === undefined ? 0 : resetAt - now;
	for (const window of windows) {
		if (window.windowMs + 1000 < untilReset) continue;
		if (window.limit === limit) {
			const lesson = allowance.lessons.get(window.windowMs);
			if (lesson) lesson.confirmedAt = now;
			return;
		}
		// Held below Stora's limit on purpose by the credential: this may well be the window announced.
		const ceiling = allowance.ceilings.get(window.windowMs);
		if (ceiling !== undefined && window.limit >= ceiling && limit >= ceiling) return;
		if (window.limit > limit) {
			allowance.lessons.set(window.windowMs, { limit, confirmedAt: now });
			return;
		}
	}
}

/** A reset further away than the longest window (clock skew, a bogus value) is cut to that window. */
function clampReset(allowance: Allowance, resetAt: number, now: number, recoveryMs: number): number {
	const longest = Math.max(60_000, ...windowsAt(allowance, now, recoveryMs).map((w) => w.windowMs));
	return Math.min(resetAt, now + longest + 1000);
}

/**
 * A 429: pause the budget until the window reopens, shrink this process's share of that window (once per window,
 * `share.ts`), and confirm what was learned (still too fast: nothing learned may fade now). The window is the one
 * the documented headers name: `RateLimit-Reset` says when it ends, so the window is the shortest of the budget's
 * that lasts at least that long (one of those whose limit is the `RateLimit-Limit`, when one is).
 */
function limited(allowance: Allowance, headers: HeaderSource, now: number, settings: RateLimitSettings, sentAt: number): number {
	const { recoveryMs } = settings;
	if (windowsAt(allowance, now, recoveryMs).length === 0) {
		// An unpaced budget is paced by the documented limits until 429s stop for `recoveryMs`.
		for (const window of DOCUMENTED_LIMITS) allowance.lessons.set(window.windowMs, { limit: window.limit, confirmedAt: now });
	} else {
		for (const lesson of allowance.lessons.values()) lesson.confirmedAt = now;
	}
	const windows = windowsAt(allowance, now, recoveryMs);
	const retryAfter = retryAfterAtMs(headerValue(headers, 'retry-after'), now);
	const reset = rateLimitReset(headers) ?? parseRateLimitHeader(headerValue(headers, 'ratelimit')).reset;
	let until: number;
	let window: RateLimitWindow;
	let windowEnd: number;
	if (reset !== undefined) {
		windowEnd = clampReset(allowance, resetAtFromResponse(reset, headerValue(headers, 'date'), now), now, recoveryMs);
		window = namedWindow(windows, windowEnd - now, parseRateLimitHeader(headerValue(headers, 'ratelimit-limit')).limit);
		until = Math.max(windowEnd, retryAfter === undefined ? 0 : clampReset(allowance, retryAfter, now, recoveryMs));
		allowance.blind429s = 0;
	} else {
		// No reset named: the rest of the shortest window, then of the longest (fixed windows start on the clock).
		allowance.blind429s += 1;
		window = allowance.blind429s === 1 ? windows[0] : windows[windows.length - 1];
		windowEnd = now + (window.windowMs - (now % window.windowMs));
		until = retryAfter === undefined ? windowEnd : clampReset(allowance, retryAfter, now, recoveryMs);
		if (retryAfter !== undefined) allowance.blind429s = 0;
	}
	// At least a moment: a reset already past (rounding, skew) must not turn into a tight retry loop.
	until = Math.max(until, now + 100);
	allowance.pausedUntil = Math.max(allowance.pausedUntil, until);
	const start = windowEnd - window.windowMs;
	const shortest = window.windowMs === windows[0]?.windowMs;
	// What this process got through in the window, as its part: if its share of the shortest window began in this
	// window and paced it for at least four fifths of the time to the 429, counted from then and scaled to the whole
	// window (before it, whoever came first got more); a shorter sample says too little (processes whose shares began
	// at different times would together claim more than the window). Still out or answered otherwise: a request still
	// out that meets a 429 later lowers the first share then.
	// Not where that share is capped at this window's pace (`longerPace`): then every process paced alike from its
	// first 429, the burst before was a second's at most, and scaling the paced part up to the window would leave
	// that burst's room to nobody (two workers on 10/s and 60/min: shares of 25 and 24).
	const shortestShare = shortest ? undefined : allowance.shares.get(windows[0].windowMs);
	const pacedFrom = shortestShare?.firstAtMost === undefined ? shortestShare?.pacedFrom : undefined;
	const within = pacedFrom !== undefined && pacedFrom > start && pacedFrom < sentAt;
	const scale = within ? (sentAt - start) / (sentAt - pacedFrom) : 1;
	const from = within && scale <= SCALED_AT_MOST ? pacedFrom : start;
	const through = allowance.sent.filter((request) => request.at >= from && !request.limited).length;
	const count = from > start ? Math.round(through * scale) : through;
	shrink(shareOf(allowance, window), window, { now, resetAt: windowEnd, sentAt, count, longerPace: longerPace(windows, window) });
	return allowance.pausedUntil - now;
}

/** The least average pace of the windows longer than `window`, in requests per `window`, where below its limit. */
function longerPace(windows: readonly RateLimitWindow[], window: RateLimitWindow): number | undefined {
	const paces = windows.filter((longer) => longer.windowMs > window.windowMs).map((longer) => (longer.limit * window.windowMs) / longer.windowMs);
	const least = Math.min(...paces);
	return least < window.limit ? least : undefined;
}

/** A longer window's count is taken from when the shortest window's share began where that scales it by at most this. */
const SCALED_AT_MOST = 1.25;

/**
 * The window a 429 names: the shortest that lasts at least until its reset (whole seconds: one second of slack), one
 * with the limit the answer states when there is one; the longest when none lasts that long.
 */
function namedWindow(windows: readonly RateLimitWindow[], untilReset: number, limit: number | undefined): RateLimitWindow {
	const long = windows.filter((window) => window.windowMs + 1000 >= untilReset);
	return long.find((window) => window.limit === limit) ?? long[0] ?? windows[windows.length - 1];
}
