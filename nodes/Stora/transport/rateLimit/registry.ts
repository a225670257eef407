import { sleep } from 'n8n-workflow';

import type { HeaderSource } from './headers';
import {
	cloneSettings,
	DEFAULT_SETTINGS,
	hear,
	mayRetry,
	newLimits,
	nextSendAt,
	pacedAt,
	pauseAfter429,
	windowsAt,
	type Limits,
	type RateLimitSettings,
	type RateLimitWindow,
} from './policy';

/**
 * The queue that carries out `policy.ts`: one budget per credential and base URL (and the credential's Rate Limit
 * settings, so changing them starts a fresh budget), shared by every request this package makes with that credential
 * in the process: all items of a node, concurrent executions, list searches and the triggers. No background timers:
 * the only timer is the one the queue's head waits on.
 */

/**
 * The reason a nap's sleep is aborted (a response or a change woke it), made once: abort() without a reason builds a
 * DOMException with its stack, and n8n's sleep wraps a reason that is not an Error in a new one, on every wake-up.
 */
const WOKEN = new Error('The rate-limit budget woke up');

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
	/** The windows in force, shortest first. */
	windows: RateLimitWindow[];
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
}

interface Budget {
	limits: Limits;
	inFlight: Set<Slot>;
	answered: number[];
	lastGrantAt: number;
	pausedUntil: number;
	/** 429s in a row that named no time to wait (see `pauseAfter429`). */
	unnamed429s: number;
	queue: Waiter[];
	pumping: boolean;
	wake?: () => void;
}

/** Budgets by key. The package shares one instance per process (`instance.ts`); tests make more to act as another process. */
export class RateLimitRegistry {
	private settings: RateLimitSettings = cloneSettings(DEFAULT_SETTINGS);
	private readonly budgets = new Map<string, Budget>();

	/** Changes the settings for budgets created from now on (tests: smaller limits, shorter waits). */
	configure(settings: Partial<RateLimitSettings>): void {
		this.settings = cloneSettings({ ...this.settings, ...settings });
	}

	/** Forgets every budget and restores the default settings. Waiting requests are rejected. */
	reset(): void {
		for (const budget of this.budgets.values()) {
			for (const waiter of budget.queue.splice(0))
				waiter.reject(new Error('The rate-limit budget was reset'));
			budget.wake?.();
		}
		this.budgets.clear();
		this.settings = cloneSettings(DEFAULT_SETTINGS);
	}

	snapshot(key: string, now = Date.now(), limits?: readonly RateLimitWindow[]): RateLimitSnapshot {
		const budget = this.budget(key, limits);
		return {
			windows: windowsAt(budget.limits, now, this.settings),
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
	 * error). On 429 pauses the budget and returns the ms to wait before the retry (0 otherwise). Repeated calls for
	 * one slot are ignored.
	 */
	record(slot: RateLimitSlot, statusCode: number | undefined, headers?: HeaderSource): number {
		const own = slot as Slot;
		if (own.done) return 0;
		own.done = true;
		const budget = this.budgets.get(slot.key);
		// The registry was reset while the request was out.
		if (!budget) return 0;
		const now = Date.now();
		if (budget.inFlight.delete(own)) budget.answered.push(now);
		let wait = 0;
		if (statusCode !== undefined) hear(budget.limits, headers, now, this.settings);
		if (statusCode === 429) {
			const pause = pauseAfter429(
				budget.limits,
				headers,
				now,
				this.settings,
				budget.unnamed429s,
				Math.random(),
			);
			budget.unnamed429s = pause.unnamed;
			budget.pausedUntil = Math.max(budget.pausedUntil, pause.until);
			wait = budget.pausedUntil - now;
		} else if (statusCode !== undefined && statusCode < 400) {
			budget.unnamed429s = 0;
		}
		budget.wake?.();
		return wait;
	}

	/**
	 * One request under the budget: waits for a slot, sends, reports, and on 429 waits and sends again while
	 * `mayRetry` allows. Returns the last response, which is still a 429 when the retries ran out; `attempt` rejecting
	 * is passed on as is (after freeing the slot).
	 */
	async send<T>(
		key: string,
		attempt: () => Promise<T>,
		view: (response: T) => { statusCode: number; headers?: HeaderSource },
		options: SendOptions = {},
	): Promise<T> {
		const settings =
			options.maxRetryWaitMs === undefined
				? this.settings
				: { ...this.settings, maxRetryWaitMs: options.maxRetryWaitMs };
		let firstLimitedAt: number | undefined;
		let last: T | undefined;
		for (;;) {
			// A deadline passed while waiting for the retry: the last 429 goes to the caller as its answer.
			const slot = await this.acquire(key, {
				signal: options.signal,
				limits: options.limits,
				retry: firstLimitedAt !== undefined,
				deadline:
					firstLimitedAt === undefined ? undefined : firstLimitedAt + settings.maxRetryWaitMs,
			}).catch(async (error: unknown) =>
				error instanceof RateLimitDeadlineError && last !== undefined
					? undefined
					: await Promise.reject(error),
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
			if (!mayRetry(firstLimitedAt, now + wait, settings)) return response;
			last = response;
		}
	}

	private budget(key: string, credentialLimits?: readonly RateLimitWindow[]): Budget {
		let budget = this.budgets.get(key);
		if (!budget) {
			budget = {
				limits: newLimits(credentialLimits ?? this.settings.limits, credentialLimits),
				inFlight: new Set(),
				answered: [],
				lastGrantAt: -Infinity,
				pausedUntil: 0,
				unnamed429s: 0,
				queue: [],
				pumping: false,
			};
			this.budgets.set(key, budget);
		}
		return budget;
	}

	/** Frees places held by requests never reported back, and forgets answers older than the longest window. */
	private tidy(budget: Budget, windows: readonly RateLimitWindow[], now: number): void {
		for (const slot of budget.inFlight) {
			if (slot.grantedAt + this.settings.staleMs <= now) {
				budget.inFlight.delete(slot);
				budget.answered.push(now);
			}
		}
		budget.answered.sort((a, b) => a - b);
		const longest = windows[windows.length - 1]?.windowMs ?? 0;
		while (budget.answered.length > 0 && budget.answered[0] <= now - longest)
			budget.answered.shift();
	}

	/** Grants the queue's head whenever the policy allows it; one pump per budget, gone when the queue is empty. */
	private async pump(key: string, budget: Budget): Promise<void> {
		if (budget.pumping) {
			budget.wake?.();
			return;
		}
		budget.pumping = true;
		try {
			while (budget.queue.length > 0 && this.budgets.get(key) === budget) {
				const now = Date.now();
				const windows = windowsAt(budget.limits, now, this.settings);
				this.tidy(budget, windows, now);
				const { at, known } = nextSendAt(windows, budget, now, this.settings);
				const head = budget.queue[0];
				if (at <= now) {
					budget.queue.shift();
					const slot: Slot = { key, grantedAt: now, done: false };
					budget.inFlight.add(slot);
					budget.lastGrantAt = pacedAt(budget.lastGrantAt, now, windows);
					head.resolve(slot);
					continue;
				}
				// A time that depends on answers still to come is not known yet: give up only once the deadline is here.
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

	/** Sleeps until `ms` passed or something changed (an answer, an abort, a retry at the front). */
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
			await Promise.race([
				sleep(Math.min(ms, 2 ** 31 - 1), controller.signal).catch(() => undefined),
				woken,
			]);
		} finally {
			if (budget.wake === wake) budget.wake = undefined;
		}
	}
}

function abortReason(signal: AbortSignal): Error {
	const reason: unknown = signal.reason;
	return reason instanceof Error
		? reason
		: new Error('The request was cancelled while waiting for the Stora rate limit');
}
