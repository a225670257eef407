import {
	headerValue,
	parseRateLimitHeader,
	rateLimitReset,
	resetAtFromResponse,
	retryAfterAtMs,
	type HeaderSource,
} from './headers';
import { DOCUMENTED_LIMITS, type RateLimitSettings, type RateLimitWindow } from './settings';

/**
 * What one budget allows (the registry in `registry.ts` queues its requests): the credential's own windows, what
 * the answers taught, a pause after a 429.
 *
 * What it learns fades: the credential's own setting is the rule, a lesson the exception that lasts only as long as
 * its evidence. A lesson is a window a header named or lowered, the documented windows an unpaced budget adopts at a
 * 429, or the shrunk allowance; each remembers when it was last confirmed (a header saying it again, or a 429). A
 * window lesson holds until `recoveryMs` (2 minutes) after that, then the credential's window is back (for no limit:
 * unpaced again); the allowance grows back linearly from the 429 to full over the same time. So a header repeated
 * on every response, or 429s that keep coming, keep the budget slow, and once they stop it is back to its own setting
 * within 2 minutes, instead of a single 429 from someone else's burst slowing a 6,000/min account for the life of the
 * process. The pause after a 429 is not a lesson: it ends at the reset the 429 named.
 * No background timers: a lesson's age is checked whenever the windows are read (`windowsAt`).
 */

/** A window limit learned from a header or a 429, and when it was last confirmed (epoch ms). */
interface Lesson {
	limit: number;
	confirmedAt: number;
}

export interface Allowance {
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
}

/** A fresh allowance from `limits`; the credential's own limits (if it sets any) are also its ceilings. */
export function newAllowance(limits: readonly RateLimitWindow[], credentialLimits?: readonly RateLimitWindow[]): Allowance {
	return {
		own: limits.map((window) => ({ ...window })).sort((a, b) => a.windowMs - b.windowMs),
		ceilings: new Map((credentialLimits ?? []).map((window) => [window.windowMs, window.limit])),
		lessons: new Map(),
		low: 1,
		recoverFrom: 0,
		pausedUntil: 0,
		decreasedUntil: 0,
		blind429s: 0,
	};
}

export function effectiveLimit(window: RateLimitWindow, factor: number): number {
	return Math.max(1, Math.floor(window.limit * factor));
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

export function factorAt(allowance: Allowance, now: number, recoveryMs: number): number {
	if (allowance.low >= 1) return 1;
	const recovered = allowance.low + ((1 - allowance.low) * Math.max(0, now - allowance.recoverFrom)) / recoveryMs;
	return Math.min(1, recovered);
}

/**
 * An answer came (`statusCode`), or none did (undefined): faded lessons go, the headers teach, a 429 pauses. Returns
 * the ms to wait before a retry (0 unless a 429).
 */
export function learnFrom(
	allowance: Allowance,
	statusCode: number | undefined,
	headers: HeaderSource,
	now: number,
	settings: RateLimitSettings,
): number {
	// Faded lessons go here, at a real time, not where the budget is read (a snapshot may ask about any time).
	for (const [windowMs, lesson] of allowance.lessons) {
		if (!fresh(lesson, now, settings.recoveryMs)) allowance.lessons.delete(windowMs);
	}
	if (statusCode === undefined) return 0;
	learn(allowance, headers, now, settings.recoveryMs);
	if (statusCode === 429) return limited(allowance, headers, now, settings);
	if (statusCode < 400) allowance.blind429s = 0;
	return 0;
}

/** Applies what the headers say: limits, and a pause until the reset when nothing remains. */
function learn(allowance: Allowance, headers: HeaderSource, now: number, recoveryMs: number): void {
	const combined = parseRateLimitHeader(headerValue(headers, 'ratelimit'));
	const limitHeader = parseRateLimitHeader(headerValue(headers, 'ratelimit-limit'));
	const policy = parseRateLimitHeader(headerValue(headers, 'ratelimit-policy'));
	const remaining = parseRateLimitHeader(headerValue(headers, 'ratelimit-remaining')).limit ?? combined.remaining ?? limitHeader.remaining;
	const reset = rateLimitReset(headers) ?? combined.reset ?? limitHeader.reset;
	const date = headerValue(headers, 'date');
	const resetAt = reset === undefined ? undefined : clampReset(allowance, resetAtFromResponse(reset, date, now), now, recoveryMs);

	const named = [...limitHeader.windows, ...policy.windows, ...combined.windows];
	const limit = limitHeader.limit ?? combined.limit;
	// An unpaced budget paces by the windows Stora names, while it names them. A bare limit does not say its window:
	// the budget stays unpaced (a 429 or remaining 0 still pauses it until the reset).
	for (const window of named) setWindow(allowance, window, now);
	const windows = windowsAt(allowance, now, recoveryMs);
	if (limit !== undefined && limit >= 1 && windows.length > 0) lowerMatchingWindow(allowance, windows, Math.floor(limit), resetAt, now);
	if (remaining !== undefined && remaining <= 0 && resetAt !== undefined) {
		allowance.pausedUntil = Math.max(allowance.pausedUntil, resetAt);
	}
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
 * A 429: pause the budget until the window reopens, shrink the allowance once per pause, and confirm what was
 * learned (still too fast: nothing learned may fade now).
 */
function limited(allowance: Allowance, headers: HeaderSource, now: number, settings: RateLimitSettings): number {
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
	if (retryAfter !== undefined) {
		until = clampReset(allowance, retryAfter, now, recoveryMs);
		allowance.blind429s = 0;
	} else if (reset !== undefined) {
		until = clampReset(allowance, resetAtFromResponse(reset, headerValue(headers, 'date'), now), now, recoveryMs);
		allowance.blind429s = 0;
	} else {
		// No hint: the rest of the shortest window, then of the longest (fixed windows start on the clock).
		allowance.blind429s += 1;
		const windowMs = allowance.blind429s === 1 ? windows[0].windowMs : windows[windows.length - 1].windowMs;
		until = now + (windowMs - (now % windowMs));
	}
	// At least a moment: a reset already past (rounding, skew) must not turn into a tight retry loop.
	until = Math.max(until, now + 100);
	allowance.pausedUntil = Math.max(allowance.pausedUntil, until);
	if (now >= allowance.decreasedUntil) {
		allowance.low = Math.max(settings.minFactor, factorAt(allowance, now, recoveryMs) * settings.decrease);
		// Recovery runs from the 429 itself, not from the end of its pause: the allowance is full again
		// `recoveryMs` after the last 429 however long the pause was.
		allowance.recoverFrom = now;
		allowance.decreasedUntil = allowance.pausedUntil;
	}
	return allowance.pausedUntil - now;
}
