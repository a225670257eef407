/**
 * The probe's only way to the API: one request at a time, paced well under the documented rate limits (10 requests a
 * second and 60 a minute per account, auth-errors-limits.md §4, which the account's other clients share), counted for
 * the report, and stopped on the first 401 or 403 the caller did not ask for. A 429 is waited out (until
 * `RateLimit-Reset`, the header Stora documents) and asked again, a few times; it is never an answer to judge. The
 * token goes into the Authorization header and nowhere else.
 */

const realClock = {
	now: () => Date.now(),
	sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};
/** Attempts after a 429 before the answer is left as the 429 (the caller then says `unknown`). */
export const RETRIES_AFTER_429 = 3;

/** Raised on a 401/403 nobody expected: the probe stops asking and reports what it has. */
export class StopError extends Error {}

/**
 * Sliding windows, as the node paces: a request holds its place from its sending until its answer and for a
 * window's length after that (where in between Stora counts it is not documented), so the server's count, whether
 * it counts at arrival or at answer, in fixed or sliding windows, never exceeds the limit.
 */
export function createPacer({ perSecond, perMinute }, clock = realClock) {
	const { now: nowOf, sleep } = clock;
	const windows = [
		{ limit: perSecond, ms: 1_000 },
		{ limit: perMinute, ms: 60_000 },
	];
	const done = [];
	let notBefore = 0;
	return {
		async acquire() {
			for (;;) {
				const now = nowOf();
				if (now < notBefore) {
					await sleep(notBefore - now);
					continue;
				}
				let wait = 0;
				for (const { limit, ms } of windows) {
					const inside = done.filter((end) => now - end < ms);
					if (inside.length >= limit)
						wait = Math.max(wait, inside[inside.length - limit] + ms - now + 1);
				}
				if (wait <= 0) return;
				await sleep(wait);
			}
		},
		release() {
			done.push(nowOf());
			if (done.length > 200) done.splice(0, done.length - 200);
		},
		/** The server says its window is spent: no request before `at` (epoch ms). */
		holdUntil(at) {
			notBefore = Math.max(notBefore, Math.min(at, nowOf() + 65_000));
		},
	};
}

const headerObject = (headers) =>
	Object.fromEntries([...headers.entries()].map(([name, value]) => [name.toLowerCase(), value]));

/**
 * Epoch ms (on this machine's clock) of a `RateLimit-Reset` / `Retry-After` value: epoch seconds (the docs) or seconds
 * from now (IETF drafts). `serverDate`: the answer's `Date` header, so a server clock ahead of ours does not shorten
 * the wait (Date has whole seconds: the wait comes out at most a second long, never short). Undefined when absent.
 */
export function resetTime(value, now = Date.now(), serverDate) {
	const text = String(value ?? '').trim();
	if (!/^\d+(\.\d+)?$/.test(text)) return undefined;
	const number = Number(text);
	if (number <= 1e9) return now + number * 1000;
	const server = Date.parse(String(serverDate ?? ''));
	return Number.isNaN(server) ? number * 1000 : now + Math.max(0, number * 1000 - server);
}

/**
 * `baseUrl`: STORA_BASE_URL without a trailing slash. `rate`: {perSecond, perMinute}. Every answer is
 * `{status, headers, json, text, ms}`; `headers` lower-cased. `onAnswer` sees every answer, a 429 retried included
 * (rate-limit headers are read there).
 */
export function createClient({
	baseUrl,
	token,
	rate,
	onAnswer = () => {},
	timeoutMs = 60_000,
	clock = realClock,
}) {
	const pacer = createPacer(rate, clock);
	const stats = { requests: 0, rateLimited: 0, byStatus: {} };

	function urlOf(path, query) {
		const url = new URL(baseUrl + path);
		for (const [name, value] of Object.entries(query ?? {}))
			if (value !== undefined) url.searchParams.set(name, String(value));
		return url;
	}

	async function once(method, url, { body, headers, auth }) {
		await pacer.acquire();
		stats.requests += 1;
		const started = clock.now();
		try {
			const response = await fetch(url, {
				method,
				headers: {
					Accept: 'application/json',
					...(auth === null ? {} : { Authorization: `Bearer ${auth ?? token}` }),
					...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
					...headers,
				},
				body: body === undefined ? undefined : JSON.stringify(body),
				redirect: 'manual',
				signal: AbortSignal.timeout(timeoutMs),
			});
			const text = await response.text();
			let json;
			try {
				json = text ? JSON.parse(text) : undefined;
			} catch {
				json = undefined;
			}
			const answer = {
				status: response.status,
				headers: headerObject(response.headers),
				json,
				text,
				ms: clock.now() - started,
			};
			onAnswer(answer, { method, url });
			return answer;
		} catch (error) {
			// No answer (refused, reset, timed out): status 0, so callers report it instead of crashing.
			return {
				status: 0,
				headers: {},
				json: undefined,
				text: '',
				error: error?.cause?.message ?? error?.message ?? String(error),
				ms: clock.now() - started,
			};
		} finally {
			pacer.release();
		}
	}

	/**
	 * `expect`: statuses among 401/403 that this request provokes on purpose (the bad-token probe). `auth`: another
	 * token for this request, or null for none.
	 */
	async function request(method, path, { query, body, headers, expect = [], auth } = {}) {
		const url = urlOf(path, query);
		let answer = await once(method, url, { body, headers, auth });
		for (let retry = 0; answer.status === 429; retry++) {
			// Over the limit: another client of the account may have taken the budget. Wait as told, then again.
			stats.rateLimited += 1;
			if (retry === RETRIES_AFTER_429) {
				answer.rateLimited = RETRIES_AFTER_429 + 1;
				break;
			}
			const now = clock.now();
			const at =
				resetTime(answer.headers['ratelimit-reset'], now, answer.headers.date) ??
				resetTime(answer.headers['retry-after'], now, answer.headers.date) ??
				now + 60_000;
			pacer.holdUntil(Math.max(at, now + 1_000));
			answer = await once(method, url, { body, headers, auth });
		}
		stats.byStatus[answer.status] = (stats.byStatus[answer.status] ?? 0) + 1;
		if (answer.headers['ratelimit-remaining'] === '0') {
			const at = resetTime(answer.headers['ratelimit-reset'], clock.now(), answer.headers.date);
			if (at !== undefined) pacer.holdUntil(at);
		}
		if ((answer.status === 401 || answer.status === 403) && !expect.includes(answer.status)) {
			const code = answer.json?.error?.code ? ` ${answer.json.error.code}` : '';
			throw new StopError(
				`${method} ${path} answered ${answer.status}${code}, which the probe did not expect: it stops here.`,
			);
		}
		return answer;
	}

	return { request, stats };
}
