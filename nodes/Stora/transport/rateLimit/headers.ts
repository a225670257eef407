import type { RateLimitWindow } from './policy';

/** Response headers as n8n (plain object, any case, string or string[]) or fetch (`Headers`) hands them over. */
export type HeaderSource =
	| { get(name: string): string | null }
	| Record<string, unknown>
	| undefined;

/** What one RateLimit-* header value says (every member optional). */
interface ParsedRateLimit {
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
			const n = toNumber(
				part
					.slice(eq + 1)
					.trim()
					.replace(/^"|"$/g, ''),
			);
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

/** One header's value, by name in any case; a repeated header's values joined as HTTP joins them. */
export function headerValue(headers: HeaderSource, name: string): string | undefined {
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

/** The `RateLimit-Reset` header's value, when it is a plain number. */
export function rateLimitReset(headers: HeaderSource): number | undefined {
	return toNumber(headerValue(headers, 'ratelimit-reset')?.trim() ?? '');
}
