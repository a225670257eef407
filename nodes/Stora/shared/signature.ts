import { createHmac, timingSafeEqual } from 'crypto';

/** How old a delivery's timestamp may be before it counts as a replay (the docs leave the window open). */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

export type SignatureCheck =
	| { valid: true }
	| { valid: false; reason: 'missing' | 'malformed' | 'mismatch' | 'stale' };

/** `t=...,v1=...` → its parts; several `v1` entries are allowed (secret rotation). */
function parseHeader(header: string): { timestamp?: string; signatures: string[] } {
	const signatures: string[] = [];
	let timestamp: string | undefined;
	for (const part of header.split(',')) {
		const [key, ...rest] = part.trim().split('=');
		const value = rest.join('=');
		if (key === 't') timestamp = value;
		if (key === 'v1' && value) signatures.push(value);
	}
	return { timestamp, signatures };
}

/**
 * Verifies `X-Stora-Signature`: HMAC-SHA256 with the endpoint secret over `t + "." + raw body`, compared in constant
 * time against every `v1`, and `t` within the tolerance window of now (Unix seconds).
 */
export function verifySignature(
	rawBody: Buffer | string,
	header: string | undefined,
	secrets: string[],
	nowSeconds = Math.floor(Date.now() / 1000),
	toleranceSeconds = SIGNATURE_TOLERANCE_SECONDS,
): SignatureCheck {
	if (!header) return { valid: false, reason: 'missing' };
	const { timestamp, signatures } = parseHeader(header);
	if (!timestamp || !/^\d+$/.test(timestamp) || signatures.length === 0) return { valid: false, reason: 'malformed' };

	const body = Buffer.isBuffer(rawBody) ? rawBody : Buffer.from(rawBody, 'utf8');
	const matches = secrets.some((secret) => {
		const expected = createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest();
		return signatures.some((signature) => {
			if (!/^[0-9a-f]+$/i.test(signature)) return false;
			const given = Buffer.from(signature, 'hex');
			return given.length === expected.length && timingSafeEqual(given, expected);
		});
	});
	if (!matches) return { valid: false, reason: 'mismatch' };
	if (Math.abs(nowSeconds - Number(timestamp)) > toleranceSeconds) return { valid: false, reason: 'stale' };
	return { valid: true };
}
