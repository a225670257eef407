/**
 * The probe's only way to the API: one request at a time, paced under the documented rate limits (10 requests a
 * second and 60 a minute per account, auth-errors-limits.md §4), counted for the report, and stopped on the first
 * 401 or 403 the caller did not ask for. The token goes into the Authorization header and nowhere else.
 */

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Raised on a 401/403 nobody expected: the probe stops asking and reports what it has. */
export class StopError extends Error {}

/**
 * Sliding windows, as the node paces: a request holds its place from its sending until its answer and for a
 * window's length after that (where in between Stora counts it is not documented), so the server's count, whether
 * it counts at arrival or at answer, in fixed or sliding windows, never exceeds the limit.
 */
export function createPacer({ perSecond, perMinute }) {
	const windows = [
		{ limit: perSecond, ms: 1_000 },
		{ limit: perMinute, ms: 60_000 },
	];
	const done = [];
	let notBefore = 0;
	return {
		async acquire() {
			for (;;) {
				const now = Date.now();
				if (now < notBefore) {
					await sleep(notBefore - now);
					continue;
				}
				let wait = 0;
				for (const { limit, ms } of windows) {
					const inside = done.filter((end) => now - end < ms);
					if (inside.length >= limit) wait = Math.max(wait, inside[inside.length - limit] + ms - now + 1);
				}
				if (wait <= 0) return;
				await sleep(wait);
			}
		},
		release() {
			done.push(Date.now());
			if (done.length > 200) done.splice(0, done.length - 200);
		},
		/** The server says its window is spent: no request before `at` (epoch ms). */
		holdUntil(at) {
			notBefore = Math.max(notBefore, Math.min(at, Date.now() + 65_000));
		},
	};
}

const headerObject = (headers) => Object.fromEntries([...headers.entries()].map(([name, value]) => [name.toLowerCase(), value]));

/** Epoch ms of a `RateLimit-Reset` / `Retry-After` value: epoch seconds (the docs) or seconds from now (IETF drafts). */
export function resetTime(value, now = Date.now()) {
	const number = Number(String(value ?? '').trim());
	if (!Number.isFinite(number) || number < 0) return undefined;
	return number > 1e9 ? number * 1000 : now + number * 1000;
}

/**
 * `baseUrl`: STORA_BASE_URL without a trailing slash. `rate`: {perSecond, perMinute}. Every answer is
 * `{status, headers, json, text, ms}`; `headers` lower-cased. `onAnswer` sees every answer, a 429 retried included
 * (rate-limit headers are read there).
 */
export function createClient({ baseUrl, token, rate, onAnswer = () => {}, timeoutMs = 60_000 }) {
	const pacer = createPacer(rate);
	const stats = { requests: 0, rateLimited: 0, byStatus: {} };

	function urlOf(path, query) {
		const url = new URL(baseUrl + path);
		for (const [name, value] of Object.entries(query ?? {})) if (value !== undefined) url.searchParams.set(name, String(value));
		return url;
	}

	async function once(method, url, { body, headers, auth }) {
		await pacer.acquire();
		stats.requests += 1;
		const started = Date.now();
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
			const answer = { status: response.status, headers: headerObject(response.headers), json, text, ms: Date.now() - started };
			onAnswer(answer, { method, url });
			return answer;
		} catch (error) {
			// No answer (refused, reset, timed out): status 0, so callers report it instead of crashing.
			return { status: 0, headers: {}, json: undefined, text: '', error: error?.cause?.message ?? error?.message ?? String(error), ms: Date.now() - started };
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
		if (answer.status === 429) {
			// Over a limit after all (a plan below the documented one): wait as told, then once more.
			stats.rateLimited += 1;
			const at = resetTime(answer.headers['retry-after']) ?? resetTime(answer.headers['ratelimit-reset']) ?? Date.now() + 60_000;
			pacer.holdUntil(at);
			answer = await once(method, url, { body, headers, auth });
		}
		stats.byStatus[answer.status] = (stats.byStatus[answer.status] ?? 0) + 1;
		if (answer.headers['ratelimit-remaining'] === '0') {
			const at = resetTime(answer.headers['ratelimit-reset']);
			if (at !== undefined) pacer.holdUntil(at);
		}
		if ((answer.status === 401 || answer.status === 403) && !expect.includes(answer.status)) {
			const code = answer.json?.error?.code ? ` ${answer.json.error.code}` : '';
			throw new StopError(`${method} ${path} answered ${answer.status}${code}, which the probe did not expect: it stops here.`);
		}
		return answer;
	}

	return { request, stats };
}
