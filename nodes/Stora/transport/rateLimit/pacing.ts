import { shareOf, windowsAt, type Allowance } from './allowance';
import { effective, grow, isAlone, spacingMs } from './share';
import { UNPACED_IN_FLIGHT, type RateLimitSettings, type RateLimitWindow } from './settings';

/** A request granted and not reported back yet: it holds its place in every window. */
interface Granted {
	grantedAt: number;
}

/** What the pacing reads of a budget: its allowance, the requests out, the answers within the longest window. */
export interface Paced extends Allowance {
	/** Response times of completed requests within the longest window, oldest first. */
	completed: number[];
	inFlight: Set<Granted>;
	/** When the last request was granted (spacing). */
	lastGrantAt: number;
}

/**
 * The least time between two requests of a budget alone in its shortest window. A lone budget does not send its limit
 * at once: processes that start together then meet the account's limit after a request or two each rather than
 * after a burst each. Half the window's pace still fits the limit well within the window, so a lone budget loses at
 * most half a window at the end of a run; where bursting buys nothing at all, because the longest window runs out
 * before the shortest's pace would use it (10 a second and 60 a minute: the minute is spent in six seconds either
 * way), it keeps the shortest window's own pace.
 */
function loneSpacingMs(windows: readonly RateLimitWindow[]): number {
	const [shortest, longest] = [windows[0], windows[windows.length - 1]];
	const burstsBuyNothing = windows.length > 1 && longest.limit * shortest.windowMs < shortest.limit * longest.windowMs;
	return shortest.windowMs / shortest.limit / (burstsBuyNothing ? 1 : 2);
}

/**
 * Frees places held by requests never reported back, forgets what is older than the longest window, and the shares
 * of windows no longer in force (a lesson that faded: if it comes back, so does the budget's ignorance of others).
 */
function tidy(budget: Paced, now: number, staleMs: number, windows: readonly RateLimitWindow[]): void {
	const longest = windows[windows.length - 1]?.windowMs ?? 0;
	for (const windowMs of budget.shares.keys()) if (!windows.some((window) => window.windowMs === windowMs)) budget.shares.delete(windowMs);
	for (const slot of budget.inFlight) {
		if (slot.grantedAt + staleMs <= now) {
			budget.inFlight.delete(slot);
			budget.completed.push(now);
		}
	}
	while (budget.completed.length > 0 && budget.completed[0] <= now - longest) budget.completed.shift();
	budget.completed.sort((a, b) => a - b);
	while (budget.sent.length > 0 && budget.sent[0].at <= now - longest - 1000) budget.sent.shift();
}

/**
 * The earliest time (epoch ms, at least `now`) at which every window, this process's share of it and any pause allow
 * one more request; not `known` when requests still out fill a window (then it is the latest such time: a response
 * comes sooner). A share that is what holds the request back grows here when its hold is over (`share.ts`).
 */
export function nextSendAt(budget: Paced, now: number, settings: RateLimitSettings): { at: number; known: boolean } {
	const { staleMs, recoveryMs } = settings;
	const windows = windowsAt(budget, now, recoveryMs);
	tidy(budget, now, staleMs, windows);
	const free = Math.max(now, budget.pausedUntil);
	let at = free;
	let known = true;
	if (windows.length === 0 && budget.inFlight.size >= UNPACED_IN_FLIGHT) {
		// Unpaced: the next response frees a place (the stale limit bounds the wait).
		at = Math.max(at, oldestOut(budget) + staleMs);
		known = false;
	}
	// What each window allows; the window whose share holds the request back longest grows if its hold is over.
	const allows = (window: RateLimitWindow) => {
		const share = shareOf(budget, window);
		const allowed = windowAllows(budget, window, effective(share, window), now, staleMs);
		return isAlone(share, window) ? allowed : { ...allowed, at: Math.max(allowed.at, budget.lastGrantAt + spacingMs(share, window)) };
	};
	let each = windows.map(allows);
	const binding = windows.findIndex((window, i) => !isAlone(shareOf(budget, window), window) && each[i].at > free && each[i].at === Math.max(...each.map((a) => a.at)));
	if (binding >= 0 && grow(shareOf(budget, windows[binding]), windows[binding], now)) each = windows.map(allows);
	for (const allowed of each) {
		at = Math.max(at, allowed.at);
		known &&= allowed.known;
	}
	if (windows.length > 0 && isAlone(shareOf(budget, windows[0]), windows[0])) at = Math.max(at, budget.lastGrantAt + loneSpacingMs(windows));
	return { at, known };
}

/**
 * When `window` has room for one more request of `limit`: a request holds its place from its sending until its
 * answer, then for the window's length. If the requests still out alone fill it, the next response will tell
 * (the stale limit bounds the wait).
 */
function windowAllows(budget: Paced, window: RateLimitWindow, limit: number, now: number, staleMs: number): { at: number; known: boolean } {
	const recent = budget.completed.filter((time) => time > now - window.windowMs);
	const used = budget.inFlight.size + recent.length;
	if (used < limit) return { at: now, known: true };
	const leaving = used - limit + 1;
	if (leaving <= recent.length) return { at: recent[leaving - 1] + window.windowMs, known: true };
	return { at: oldestOut(budget) + staleMs, known: false };
}

const oldestOut = (budget: Paced) => Math.min(...[...budget.inFlight].map((slot) => slot.grantedAt));
