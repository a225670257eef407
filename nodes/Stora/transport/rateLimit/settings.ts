/** A rate-limit window: what a budget starts from, what a header names, what a 429 teaches. */
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

/**
 * Requests in flight at most for a credential that sets no limit (Custom 0 and 0), while no lesson paces its budget
 * (from a 429: the documented limits; or a `RateLimit-Policy` naming windows). Otherwise it sends at full speed.
 */
export const UNPACED_IN_FLIGHT = 8;

/** The registry's settings: what a new budget starts from, how long a request may wait, how lessons fade. */
export interface RateLimitSettings {
	/** Windows a new budget starts from. */
	limits: RateLimitWindow[];
	/** How long a request may keep waiting after its first 429 before the 429 goes to the user. */
	maxRetryWaitMs: number;
	/**
	 * How long a lesson lasts after its last confirmation: a learned window holds until then (see `allowance.ts`). At
	 * most 2 minutes in production.
	 */
	recoveryMs: number;
	/** A granted request never reported back (a caller bug) stops holding its place after this long. */
	staleMs: number;
}

export const DEFAULT_SETTINGS: RateLimitSettings = {
	limits: DOCUMENTED_LIMITS.map((window) => ({ ...window })),
	maxRetryWaitMs: 5 * 60_000,
	recoveryMs: 2 * 60_000,
	staleMs: 5 * 60_000,
};

export function cloneSettings(settings: RateLimitSettings): RateLimitSettings {
	return { ...settings, limits: settings.limits.map((window) => ({ ...window })) };
}
