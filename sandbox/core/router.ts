/**
 * Route table with `:param` segments. Matching is exact per segment; a literal segment beats a parameter
 * (so `/orders/:order_id/validate` and `/orders/summary` can coexist).
 *
 * Path-parameter IDs are not checked against their prefix here: a wrong prefix simply finds no record, so the
 * handler's `mustGet` answers 404 `resource_not_found` (we chose that over 422 `invalid_url_param`; the docs do
 * not say which one the API uses).
 */
import type { Handler, RouteOptions } from './types';

export interface Route {
	method: string;
	pattern: string;
	segments: string[];
	options: RouteOptions;
	handler: Handler;
}

export type RouteMatch = { route: Route; params: Record<string, string> };

export class Router {
	readonly routes: Route[] = [];

	add(method: string, pattern: string, options: RouteOptions, handler: Handler) {
		const upper = method.toUpperCase();
		if (this.routes.some((r) => r.method === upper && r.pattern === pattern)) {
			throw new Error(`Route registered twice: ${upper} ${pattern}`);
		}
		this.routes.push({ method: upper, pattern, segments: split(pattern), options, handler });
	}

	/** The best route for a method and path, or undefined (the caller answers 404 `invalid_endpoint`). */
	match(method: string, path: string): RouteMatch | undefined {
		const parts = split(path);
		let best: { match: RouteMatch; score: number } | undefined;
		for (const route of this.routes) {
			if (route.method !== method.toUpperCase() || route.segments.length !== parts.length) continue;
			const params: Record<string, string> = {};
			let score = 0;
			let ok = true;
			for (let i = 0; i < parts.length; i++) {
				const seg = route.segments[i];
				if (seg.startsWith(':')) {
					try {
						params[seg.slice(1)] = decodeURIComponent(parts[i]);
					} catch {
						params[seg.slice(1)] = parts[i];
					}
				} else if (seg === parts[i]) {
					score += 1;
				} else {
					ok = false;
					break;
				}
			}
			if (ok && (!best || score > best.score)) best = { match: { route, params }, score };
		}
		return best?.match;
	}
}

function split(path: string): string[] {
	return path.split('/').filter(Boolean);
}
