/**
 * The fault matrix: the sandbox's injected answers (sandbox/core/faults.ts) every retry path is tested under, by the
 * jest suite (test/nodes/faultMatrix.test.ts) and by the e2e credential test (test/e2e/checks/credentials.mjs, which
 * Node loads as TypeScript with its types stripped: plain values only here).
 */
const tooMany = {
	error: { code: 'too_many_requests', type: 'rate_limit_error', message: 'Too many requests' },
};

/** The nine faults, by name; `timeout` delays the answer past `timeoutMs`, the caller's per-attempt timeout. */
export function faultMatrix(timeoutMs: number): Record<string, Record<string, unknown>> {
	return {
		'429 with Retry-After': { status: 429, headers: { 'Retry-After': '1' }, body: tooMany },
		'429 without Retry-After': { status: 429, body: tooMany },
		'500': { status: 500 },
		'502 HTML page': { html: true },
		'reset before the API': { reset: true },
		'reset after the API processed it': { reset_after: true },
		timeout: { delay_ms: timeoutMs * 2.5 },
		'malformed JSON': { malformed: true },
		'empty body': { empty: true },
	};
}
