import { createHash } from 'crypto';

import type { RateLimitWindow } from './rateLimit/policy';

/* What a credential decides about the rate limit: which budget its requests count against, and its own limits. */

/**
 * The rate-limit budget's key: the base URL and the credential (not the Stora account behind it, which the package
 * cannot see). A hash, so no secret ever sits in the registry in clear (it is reachable from any code in the process).
 * `secretMaterial`: the access token, or the OAuth2 client id plus whatever tells the stored credentials apart, and
 * the credential's limit settings.
 */
export function rateLimitKey(baseUrl: string, secretMaterial: string): string {
	const base = baseUrl.trim().replace(/\/+$/, '').toLowerCase();
	return `stora:${createHash('sha256').update(`${base}\n${secretMaterial}`).digest('hex')}`;
}

/**
 * The limits a credential sets for its account (`credentials/rateLimitFields.ts`): `undefined` for Stora's documented
 * default (the registry's default limits), else a window per limit above 0 (`[]`: no limit). Throws an Error naming
 * the field for a value that is not a whole number of 0 or more.
 */
export function credentialLimits(
	credentials: Record<string, unknown>,
): RateLimitWindow[] | undefined {
	if (credentials.rateLimit !== 'custom') return undefined;
	const fields = [
		{ name: 'requestsPerSecond', label: 'Requests per Second', windowMs: 1_000 },
		{ name: 'requestsPerMinute', label: 'Requests per Minute', windowMs: 60_000 },
	];
	const windows: RateLimitWindow[] = [];
	for (const { name, label, windowMs } of fields) {
		const value = Number(credentials[name] ?? 0);
		if (!Number.isInteger(value) || value < 0) {
			throw new Error(
				`${label} in the Stora credential must be a whole number of 0 or more (0: no limit per ${windowMs === 1_000 ? 'second' : 'minute'}), not ${String(credentials[name])}`,
			);
		}
		if (value > 0) windows.push({ limit: value, windowMs });
	}
	return windows;
}
