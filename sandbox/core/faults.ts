/**
 * Fault injection for API calls (`/2025-09/*`, `/oauth2/*`; never the control plane). Each registration has a
 * match and a queue of responses; every matching request consumes the next queued response, in order.
 */
export type FaultResponse =
	| { status: number; headers?: Record<string, string>; body?: unknown }
	| { reset: true }
	/** The request is processed, then the connection drops before the answer: the client cannot know it worked. */
	| { reset_after: true }
	/** 200 with a JSON content type and no body at all. */
	| { empty: true }
	| { delay_ms: number }
	| { malformed: true }
	| { html: true };

export interface FaultMatch {
	method?: string;
	/** Exact path, or a prefix ending with `*`. */
	path?: string;
}

interface Fault {
	match: FaultMatch;
	responses: FaultResponse[];
}

export class FaultQueue {
	private faults: Fault[] = [];

	clear() {
		this.faults = [];
	}

	list() {
		return this.faults.map((f) => ({ match: f.match, responses: [...f.responses] }));
	}

	add(match: FaultMatch, responses: FaultResponse[]) {
		this.faults.push({ match, responses: [...responses] });
	}

	/** Takes the next fault for this request, if any. */
	take(method: string, path: string): FaultResponse | undefined {
		for (const fault of this.faults) {
			if (!fault.responses.length || !matches(fault.match, method, path)) continue;
			const next = fault.responses.shift();
			this.faults = this.faults.filter((f) => f.responses.length);
			return next;
		}
		return undefined;
	}
}

function matches(match: FaultMatch, method: string, path: string): boolean {
	if (match.method && match.method.toUpperCase() !== method.toUpperCase()) return false;
	if (!match.path) return true;
	if (match.path.endsWith('*')) return path.startsWith(match.path.slice(0, -1));
	return path === match.path;
}

/** Validates a control-plane fault body; returns an error message or undefined. */
export function checkFault(response: unknown): string | undefined {
	if (!response || typeof response !== 'object') return 'each response must be an object';
	const r = response as Record<string, unknown>;
	if (
		r.reset === true ||
		r.reset_after === true ||
		r.empty === true ||
		r.malformed === true ||
		r.html === true
	)
		return undefined;
	if (typeof r.delay_ms === 'number' && r.delay_ms >= 0) return undefined;
	if (typeof r.status === 'number' && r.status >= 100 && r.status <= 599) return undefined;
	return 'each response needs one of: status, reset, reset_after, empty, delay_ms, malformed, html';
}

export const HTML_ERROR_PAGE = `<!DOCTYPE html>
<html><head><title>502 Bad Gateway</title></head>
<body><h1>502 Bad Gateway</h1><p>The upstream server returned an invalid response.</p></body></html>
`;
