import { createHmac, timingSafeEqual } from 'crypto';

/*
 * How old a signed `t` may be. Stora's docs give no tolerance and do not say whether a retry is signed again with a
 * fresh `t`: the tolerance is wide enough that a retry still carrying its first attempt's `t` passes, so an event sent
 * while n8n was down is not refused when n8n is back. Repeats inside it are the workflow's to skip (README: Remove
 * Duplicates on the event ID).
 */
export const SIGNATURE_TOLERANCE_SECONDS = 24 * 60 * 60;
/** How far ahead `t` may be: clock skew only, as nothing genuine is signed ahead of time. */
export const SIGNATURE_FUTURE_SKEW_SECONDS = 300;

type SignatureCheck =
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
 * The bytes a `v1` value stands for. The docs show neither encoding, so both are accepted: hex, and base64 or
 * base64url, each of a SHA-256 digest. A value that is neither decodes to nothing.
 */
function signatureBytes(value: string): Buffer | undefined {
	if (/^[0-9a-f]{64}$/i.test(value)) return Buffer.from(value, 'hex');
	if (/^[A-Za-z0-9+/_-]{43}=?$/.test(value))
		return Buffer.from(value.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
	return undefined;
}

/**
 * The timestamp in Unix seconds. The docs do not say seconds or milliseconds; a value of 13 digits or more can only be
 * milliseconds for any plausible date, so both are accepted without widening the tolerance.
 */
function timestampSeconds(timestamp: string): number {
	const value = Number(timestamp);
	return timestamp.length >= 13 ? value / 1000 : value;
}

/**
 * Verifies `X-Stora-Signature`: HMAC-SHA256 with an endpoint secret over `t + "." + raw body` (the `t` exactly as
 * sent), compared in constant time against every `v1`, and `t` inside the tolerance above.
 */
export function verifySignature(
	rawBody: Buffer | string,
	header: string | undefined,
	secrets: string[],
	nowSeconds = Date.now() / 1000,
): SignatureCheck {
	if (!header) return { valid: false, reason: 'missing' };
	const { timestamp, signatures } = parseHeader(header);
	if (!timestamp || !/^\d{1,16}$/.test(timestamp) || signatures.length === 0)
		return { valid: false, reason: 'malformed' };

	const body = Buffer.isBuffer(rawBody) ? rawBody : Buffer.from(rawBody, 'utf8');
	const given = signatures
		.map(signatureBytes)
		.filter((bytes): bytes is Buffer => bytes !== undefined);
	const matches = secrets.some((secret) => {
		const expected = createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest();
		return given.some(
			(bytes) => bytes.length === expected.length && timingSafeEqual(bytes, expected),
		);
	});
	if (!matches) return { valid: false, reason: 'mismatch' };
	const age = nowSeconds - timestampSeconds(timestamp);
	if (age > SIGNATURE_TOLERANCE_SECONDS || -age > SIGNATURE_FUTURE_SKEW_SECONDS)
		return { valid: false, reason: 'stale' };
	return { valid: true };
}
