import { sleep } from 'n8n-workflow';

import { learnFrom, newAllowance, shareOf, windowsAt, type Sent } from './allowance';
import type { HeaderSource } from './headers';
import { nextSendAt, type Paced } from './pacing';
import { cloneSettings, DEFAULT_SETTINGS, type RateLimitSettings, type RateLimitWindow } from './settings';
import { effective } from './share';

/**
 * The reason a nap's sleep is aborted (a response or a change woke it), made once: abort() without a reason builds a
 * DOMException with its stack, and n8n's sleep wraps a reason that is not an Error in a new one, on every wake-up.
 */
const WOKEN = new Error('The rate-limit budget woke up');

/**
 * One request budget per credential and base URL (and the credential's Rate Limit settings, so changing them starts a
 * fresh budget), shared by every request this package makes with that credential in the process: all items of a node,
 * concurrent executions, list searches and the trigger. Requests queue for the budget (FIFO) instead of racing into
 * 429s. It starts from the credential's own setting (Stora's documented 10 requests per second and 60 per minute, or
 * the credential's Custom limits), learns limits from the RateLimit-* headers (what it learns fades: `allowance.ts`),
 * and when a 429 happens anyway pauses until the window reopens.
 *
 * Many processes, one account. n8n at scale runs main, workers and webhook processors, each with its own budget for the
 * same credential, and other apps may use the account too. A community package gets no state shared between n8n
 * processes: n8n gives nodes none, and reaching its Redis or database would need modules and environment access that
 * n8n's rules for community nodes forbid. So each budget learns its share of the account from what Stora documents: the
 * 429 (`too_many_requests`), `RateLimit-Limit` and `RateLimit-Reset`, the epoch second at which the current window
 * ends. The reset names the window, the same for every process (it ends at the same second whoever asks), and how far
 * away it is says which of the budget's windows it is. Per window (`share.ts`): a budget alone sends up to the limit;
 * at its first 429 its share becomes what it got through in that window (the others got the rest; a quarter when it got
 * under an eighth: it came late; never above the average pace of a longer window), a longer window's counted from when
 * the shortest's share began, unless that one is at the longer's pace; a later 429 scales the share by how far into the
 * window the account was full, since evenly spread shares that fit fill it exactly at its end; and it grows back while
 * it is what holds requests back, first to just below where the last 429 came, then beyond in probes (a process may
 * have left). A shared budget spreads its share evenly over the window: no burst when a window opens, so the others'
 * requests meet room, and a window that is full answers one request of each process 429, not a burst. A probe may cost
 * a 429, so the first waits as long as the process takes for 60 of its own requests: however many processes there are,
 * together they probe about once per 60 of the account's requests. A lone budget does not burst either (`pacing.ts`),
 * so processes that start together meet the limit after a request or two each. Headers Stora does not document are used
 * when they come (a `RateLimit-Policy` window as a limit, a `Retry-After` as a longer pause), and nothing depends on
 * them: with only the documented headers the shares work the same. `RateLimit-Remaining` is not read (see
 * `allowance.ts`).
 *
 * A request holds its place in every window from the moment it is sent until its response arrives, then for the
 * window's length after that: the server counts it at some time in between, so no window can see more than its limit
 * whatever the network latency. (Counting it from any earlier moment is a guess about where in the round trip the
 * server counted: a test that sent the next request at the response less half the fastest round trip saw 6 arrive
 * within a second at 5/s, because n8n's own work before a request leaves is part of its round trip.)
 * No background timers: the only timer is the one a queued request waits on.
 */

export interface RateLimitSlot {
	readonly key: string;
	/** Epoch ms at which the request was allowed to go. */
	readonly grantedAt: number;
}

interface AcquireOptions {
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

/** What `send` needs besides the request: the execution's cancel signal, the budget's limits. */
interface SendOptions {
	signal?: AbortSignal;
	maxRetryWaitMs?: number;
	limits?: readonly RateLimitWindow[];
}

export interface RateLimitSnapshot {
	/** `effective`: requests this process allows itself in the window now; `share`: its share (the limit when alone). */
	windows: Array<RateLimitWindow & { effective: number; share: number }>;
	pausedUntil: number;
	queued: number;
	inFlight: number;
}

/** The request could not get a slot before its deadline (the account stayed rate limited). */
class RateLimitDeadlineError extends Error {
	constructor() {
		super('The Stora rate limit did not allow the request in time');
		this.name = 'RateLimitDeadlineError';
	}
}

interface Waiter {
	resolve: (slot: RateLimitSlot) => void;
	reject: (error: Error) => void;
	retry: boolean;
	deadline?: number;
}

interface Slot extends RateLimitSlot {
	done: boolean;
	sent: Sent;
}

/** What the budget allows, and the requests it holds: out (in flight), answered within the longest window, waiting. */
interface Budget extends Paced {
	inFlight: Set<Slot>;
	queue: Waiter[];
	pumping: boolean;
	wake?: () => void;
}

/** Budgets by key. The package shares one instance per process (`instance.ts`); tests make more to act as another process. */
export class RateLimitRegistry {
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
		return {
			windows: windowsAt(budget, now, this.settings.recoveryMs).map((window) => {
				const share = shareOf(budget, window);
				return { ...window, effective: effective(share, window), share: share.share };
			}),
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
		const wait = learnFrom(budget, statusCode, headers, now, this.settings, own.sent);
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
		options: SendOptions = {},
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
			budget = {
				...newAllowance(credentialLimits ?? this.settings.limits, credentialLimits),
				completed: [],
				lastGrantAt: -Infinity,
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
				const { at, known } = nextSendAt(budget, now, this.settings);
				const head = budget.queue[0];
				if (at <= now) {
					budget.queue.shift();
					const slot: Slot = { key, grantedAt: now, done: false, sent: { at: now, limited: false } };
					budget.inFlight.add(slot);
					budget.sent.push(slot.sent);
					budget.lastGrantAt = now;
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
				controller.abort(WOKEN);
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
}

function abortReason(signal: AbortSignal): Error {
	const reason: unknown = signal.reason;
	return reason instanceof Error ? reason : new Error('The request was cancelled while waiting for the Stora rate limit');
}
