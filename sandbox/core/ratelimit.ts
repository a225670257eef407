/**
 * Per-token fixed-window rate limiting (per second and per minute) on the sandbox clock. Documented defaults:
 * 10 requests/s and 60 requests/min. The docs show `RateLimit-Limit` and `RateLimit-Reset` (UTC epoch seconds);
 * `RateLimit-Remaining`, `RateLimit-Policy` (both windows, IETF draft form) and `Retry-After` are our additions
 * (unconfirmed), which the `documented` headers mode (`core/documented.ts`) leaves out. The headers describe whichever
 * window is closer to running out. Rejected requests do not count. `minuteMs` shortens the minute window for tests
 * that need many of them (a whole number of seconds, so its reset is still an epoch second); 60 s otherwise.
 * Minute windows start on the clock unless `startMinutesAt` moves them: the docs do not say where Stora's start, and
 * a test that need not wait for the clock's next minute starts them when it begins.
 */
export type RateLimitOption =
	| 'off'
	| 'default'
	| { perSecond: number; perMinute: number; minuteMs?: number };

interface Window {
	start: number;
	count: number;
}

export interface RateDecision {
	allowed: boolean;
	headers: Record<string, string>;
	retryAfter: number;
}

export class RateLimiter {
	private readonly windows = new Map<string, { second: Window; minute: Window }>();
	private readonly limits: { perSecond: number; perMinute: number } | null;
	private readonly minuteMs: number;
	/** Epoch ms at which a minute window starts (every `minuteMs` before and after it). */
	private minuteOrigin = 0;

	constructor(option: RateLimitOption) {
		this.limits =
			option === 'off' ? null : option === 'default' ? { perSecond: 10, perMinute: 60 } : option;
		this.minuteMs =
			typeof option === 'object' && option.minuteMs !== undefined ? option.minuteMs : 60_000;
		if (!(this.minuteMs >= 1000 && this.minuteMs % 1000 === 0))
			throw new Error(`minuteMs must be a whole number of seconds, not ${this.minuteMs} ms`);
	}

	get enabled() {
		return this.limits !== null;
	}

	clear() {
		this.windows.clear();
	}

	/** Minute windows start at `epochMs` (a whole second) and every `minuteMs` after it; every count starts anew. */
	startMinutesAt(epochMs: number) {
		if (epochMs % 1000 !== 0)
			throw new Error(`minute windows start on a whole second, not at ${epochMs} ms`);
		this.minuteOrigin = epochMs;
		this.windows.clear();
	}

	/** Counts one request for `key` at `now` (epoch ms) unless it is over a limit. */
	hit(key: string, now: number): RateDecision {
		if (!this.limits) return { allowed: true, headers: {}, retryAfter: 0 };
		const secondStart = Math.floor(now / 1000) * 1000;
		const minuteStart =
			this.minuteOrigin + Math.floor((now - this.minuteOrigin) / this.minuteMs) * this.minuteMs;
		let state = this.windows.get(key);
		if (!state) {
			state = {
				second: { start: secondStart, count: 0 },
				minute: { start: minuteStart, count: 0 },
			};
			this.windows.set(key, state);
		}
		if (state.second.start !== secondStart) state.second = { start: secondStart, count: 0 };
		if (state.minute.start !== minuteStart) state.minute = { start: minuteStart, count: 0 };

		const secondFull = state.second.count >= this.limits.perSecond;
		const minuteFull = state.minute.count >= this.limits.perMinute;
		const allowed = !secondFull && !minuteFull;
		if (allowed) {
			state.second.count += 1;
			state.minute.count += 1;
		}
		const remainingSecond = this.limits.perSecond - state.second.count;
		const remainingMinute = this.limits.perMinute - state.minute.count;
		// Report the window that blocks (minute wins if both do, it lasts longer), else the tighter one.
		const useMinute = minuteFull || (!secondFull && remainingMinute <= remainingSecond);
		const resetMs = useMinute ? minuteStart + this.minuteMs : secondStart + 1000;
		const retryAfter = Math.max(1, Math.ceil((resetMs - now) / 1000));
		return {
			allowed,
			retryAfter,
			headers: {
				'RateLimit-Limit': String(useMinute ? this.limits.perMinute : this.limits.perSecond),
				'RateLimit-Remaining': String(Math.max(0, useMinute ? remainingMinute : remainingSecond)),
				'RateLimit-Reset': String(Math.ceil(resetMs / 1000)),
				// Both windows, in the IETF draft's form: how a client can learn a plan's limits (undocumented by Stora).
				'RateLimit-Policy': `${this.limits.perSecond};w=1, ${this.limits.perMinute};w=${this.minuteMs / 1000}`,
			},
		};
	}
}
