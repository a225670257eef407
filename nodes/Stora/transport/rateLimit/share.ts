import type { RateLimitWindow } from './settings';

/**
 * This process's share of one of the account's windows, when other processes (n8n workers, main, webhook processors,
 * other apps) may be using the same account. The design, and why, is in the header of `registry.ts`; here the rules.
 *
 * While the budget has no sign of anyone else, the share is the window's whole limit ("alone"). A 429 for the window
 * makes it a share. The first time: what this process got through in that window (the others got the rest), at most
 * half the limit (a new process must leave room). Under an eighth, the count says the process came late (whoever
 * came first filled the window before its first requests came), not what its part is: the first share is then a
 * quarter, a guess that costs a round of 429s where more than four share the account, where an eighth kept a late
 * process under half its part for minutes. Where a longer window allows less than this one's limit on average (10 a
 * second and 60 a minute), the first share is at most that average: the longer window runs out either way, and
 * shares above it only overrun the short window, a 429 for each process in each second they do. A longer window's
 * first share is counted from the moment the shortest window's share began to pace the process (`allowance.ts`), so
 * it too does not keep who came first; from the window's start where that share is at the longer window's pace.
 * Later: scaled
 * by how far into the window the account was found full, since evenly spread shares that fit fill it exactly at its
 * end, and 10% below that so the next window does not end in a 429; by at most 40% at once (the 429 may come from a
 * process that just started and took more than its part). A share counts whole requests, spread evenly over the
 * window, so shares that add up to the limit never overrun a window however their requests fall.
 *
 * A share grows while it is what holds requests back. After a cut it goes back, halfway (at least a request) each
 * window, to one request below the share that overran. Beyond that it probes: one request more, then two, four, up to an eighth of the
 * limit, while no 429 follows (a process may have left); a 429 right after a probe undoes it. A probe may cost a
 * 429, so the first waits a hold: the time this process takes for 60 of its own requests (all processes together
 * then probe about once per 60 of the account's requests, however many they are), at least two windows and 30 s.
 * Each probe that found room quarters the hold before the next; one that did not doubles it (up to four times).
 */
export interface Share {
	/** Requests per window this process allows itself; the window's limit while it is alone. */
	share: number;
	/** Where growth goes back to quickly after a cut (one request below the share that overran); beyond it, probes. */
	peak: number;
	/** The next probe's size in requests. */
	step: number;
	/** The hold in force after the last change (ms). */
	holdMs: number;
	/** No growth back towards the peak before this, and no probe beyond it before `probeAt` (epoch ms). */
	growAt: number;
	probeAt: number;
	/** End of the window of the last decrease: further 429s in that window do not decrease again. */
	decreasedUntil: number;
	/** When the share left "alone": what this process had through that window, lowered by its later 429s there. */
	firstCount?: number;
	/** The longer window's pace, where it capped the first share below half the limit (`LimitedWindow.longerPace`). */
	firstAtMost?: number;
	/** Whether it was ever a share: a budget back to alone by probing is not capped like a new one at its next 429. */
	shared: boolean;
	/** Epoch ms: the end of the window in which the first share was made, from which it paces the process. */
	pacedFrom?: number;
	/** When the last probe was, the hold before it and its size: a 429 soon after it undoes it and doubles the hold. */
	probedAt?: number;
	probeHoldMs?: number;
	probeStep?: number;
}

/** What a decrease keeps of the estimate: a window rarely ends in a 429 after one. */
const MARGIN = 0.9;
/** A later decrease keeps at least this much of the share (fairness with a process that just came). */
const KEEP_AT_LEAST = 0.6;
/** The first share: what this process got through, at most this part of the limit... */
const FIRST_AT_MOST = 0.5;
/** ...and under this part, which says it came late, this guess. */
const FIRST_LATE = 0.125;
const FIRST_LATE_GUESS = 0.25;
const cameLate = (count: number, limit: number) => count < limit * FIRST_LATE;
/**
 * The hold before a probe: as long as this process takes for this many of its own requests, at least two windows
 * and this long; drawn up to half as long again at random, so processes cut in the same window do not all probe in
 * the same window later.
 */
const HOLD_REQUESTS = 60;
const HOLD_AT_LEAST_MS = 30_000;
/** Growth back towards the peak starts after this part of the hold, then takes a step a window. */
const RETURN_FIRST = 0.25;
/** A probe adds at most this part of the limit (a process that is not alone could take a whole window otherwise). */
const LARGEST_STEP = 0.125;
/** The hold after a probe answered by a 429 grows to at most this many times the usual one. */
const LONGEST_HOLD = 4;

export function newShare(limit: number): Share {
	return { share: limit, peak: limit, step: 1, holdMs: 0, growAt: 0, probeAt: 0, decreasedUntil: 0, shared: false };
}

export const isAlone = (share: Share, window: RateLimitWindow) => share.share >= window.limit;

/** Requests the share allows in any window of its length (the whole limit when alone). */
export function effective(share: Share, window: RateLimitWindow): number {
	return isAlone(share, window) ? window.limit : Math.max(1, Math.floor(share.share + 1e-9));
}

/** The least time between two requests a share allows: its requests spread evenly over the window. */
export function spacingMs(share: Share, window: RateLimitWindow): number {
	return isAlone(share, window) ? 0 : window.windowMs / effective(share, window);
}

function usualHold(window: RateLimitWindow, share: number): number {
	const hold = Math.max(2 * window.windowMs, (HOLD_REQUESTS / Math.max(1, share)) * window.windowMs, HOLD_AT_LEAST_MS);
	return hold * (1 + Math.random() / 2);
}

/** What a 429 for `window` tells this process about its share. */
export interface LimitedWindow {
	now: number;
	/** Epoch ms at which the window the 429 names ends. */
	resetAt: number;
	/** When the request answered 429 was sent. */
	sentAt: number;
	/** This process's other requests sent in that window and not answered 429 (some may be still out). */
	count: number;
	/**
	 * The account's pace in a longer window, in requests per `window`, where that is below this window's limit (10 a
	 * second and 60 a minute: one a second). A first share above it buys nothing (the longer window runs out either
	 * way) and costs a 429 a second for each process that overruns the window together with the others.
	 */
	longerPace?: number;
}

/** A 429 for `window`: the share shrinks once per window; a later 429 of the window the first share came from lowers it. */
export function shrink(share: Share, window: RateLimitWindow, { now, resetAt, sentAt, count, longerPace }: LimitedWindow): void {
	const start = resetAt - window.windowMs;
	if (now < share.decreasedUntil) {
		if (share.firstCount !== undefined && sentAt >= start) {
			share.firstCount = Math.max(window.limit * FIRST_LATE, share.firstCount - 1);
			share.share = firstShare(share.firstCount, window.limit, share.shared, share.firstAtMost);
			share.peak = share.share;
		}
		return;
	}
	const afterProbe = share.probedAt !== undefined && now - share.probedAt < 2 * window.windowMs + 1000;
	const probeHoldMs = share.probeHoldMs;
	share.probedAt = undefined;
	if (isAlone(share, window)) {
		// A guess (it came late) is not lowered by the window's later 429s.
		share.firstCount = cameLate(count, window.limit) ? undefined : count;
		// Only a cap below half the limit is new: there every process paces alike (`allowance.ts` counts from the start).
		share.firstAtMost = longerPace !== undefined && longerPace < window.limit * FIRST_AT_MOST ? longerPace : undefined;
		share.share = firstShare(count, window.limit, share.shared, share.firstAtMost);
		share.peak = share.share;
		share.shared = true;
		share.pacedFrom = resetAt;
	} else if (afterProbe) {
		// The probe found no room: back to the share before it.
		share.firstCount = undefined;
		share.share = share.peak = Math.max(1, share.share - (share.probeStep ?? 1));
	} else {
		share.firstCount = undefined;
		const full = Math.min(1, Math.max(0, (sentAt - start) / window.windowMs));
		// One request fewer than the share that overran: where growth may safely go back to.
		share.peak = Math.max(1, effective(share, window) - 1);
		share.share = Math.max(1, share.share * Math.max(KEEP_AT_LEAST, full * MARGIN));
	}
	const base = usualHold(window, share.share);
	share.holdMs = afterProbe ? Math.min(LONGEST_HOLD * base, Math.max(base, 2 * (probeHoldMs ?? base))) : base;
	share.step = 1;
	share.decreasedUntil = resetAt;
	share.growAt = start + share.holdMs * RETURN_FIRST;
	share.probeAt = start + share.holdMs;
}

function firstShare(count: number, limit: number, wasShared: boolean, atMost = Infinity): number {
	const guess = cameLate(count, limit) ? limit * FIRST_LATE_GUESS : count;
	return Math.max(1, Math.min(wasShared ? limit - 1 : limit * FIRST_AT_MOST, guess, atMost));
}

/**
 * The share is what holds a request back at `now`: it grows if its hold is over. Returns whether it changed. Back
 * within a request of the limit, the process is alone again.
 */
export function grow(share: Share, window: RateLimitWindow, now: number): boolean {
	if (isAlone(share, window) || now < share.growAt || now < share.decreasedUntil) return false;
	if (share.share < share.peak * 0.99) {
		share.share = Math.min(share.peak, share.share + Math.max(1, (share.peak - share.share) / 2));
		share.growAt = now + window.windowMs;
	} else if (now >= share.probeAt) {
		share.probedAt = now;
		share.probeHoldMs = share.holdMs;
		share.probeStep = share.step;
		share.share += share.step;
		share.peak = share.share;
		share.step = Math.min(2 * share.step, Math.max(1, window.limit * LARGEST_STEP));
		share.holdMs = Math.max(window.windowMs, share.holdMs / 4);
		share.growAt = share.probeAt = now + share.holdMs;
	} else {
		return false;
	}
	if (share.share >= window.limit - 1) share.share = share.peak = window.limit;
	return true;
}

/**
 * A window's limit changed (a header lowered it, or a lesson faded): a lone budget is alone at the new limit, a share
 * keeps its part of it.
 */
export function fitShare(share: Share, window: RateLimitWindow, previousLimit: number): void {
	if (share.share >= previousLimit) {
		share.share = share.peak = window.limit;
		return;
	}
	const scale = window.limit / previousLimit;
	share.share = Math.max(1, share.share * scale);
	share.peak = Math.max(1, share.peak * scale);
}
