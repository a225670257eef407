// Deliveries signed as Stora signs them (X-Stora-Signature: t=<timestamp>,v1=<HMAC-SHA256 of "<t>.<body>">), for
// every suite that posts to a published Stora Trigger itself: redeliveries, forgeries, the bench's load.
import { createHmac, randomUUID } from 'node:crypto';

/** Now in whole seconds, as Stora's `t`. */
export const nowSeconds = () => Math.floor(Date.now() / 1000);

/** The `v1` of a delivery: HMAC-SHA256 of `<timestamp>.<body>` with the endpoint's secret (hex, or base64). */
export const sign = (secret, timestamp, body, encoding = 'hex') =>
	createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest(encoding);

/** The X-Stora-Signature header of `body`, signed at `t` (now by default). */
export const signature = (secret, body, t = nowSeconds(), encoding = 'hex') =>
	`t=${t},v1=${sign(secret, t, body, encoding)}`;

/** A `contact.created` delivery body as Stora sends it: an event envelope with a unique id (`<idPrefix><16 hex>`). */
export function contactCreatedBody(contactId, idPrefix, extra = {}) {
	return JSON.stringify({
		id: `${idPrefix}${randomUUID().replace(/-/g, '').slice(0, 16)}`,
		type: 'contact.created',
		created_at: new Date().toISOString(),
		data: { contact: { id: contactId } },
		...extra,
	});
}

/**
 * Delivers an event already delivered once again, as Stora's retry does: the same event (same id) in the same
 * envelope, signed again with the endpoint's secret and a fresh timestamp, with a new X-Stora-Request-Id; to the
 * endpoint's URL, or the same path on another webhook processor (`base`). Resolves to the answer's status and body.
 */
export async function redeliver(endpoint, secret, event, base) {
	const body = JSON.stringify({
		event: { ...event, api_version: endpoint.api_version ?? '2025-09' },
	});
	const url = base ? `${base}${new URL(endpoint.url).pathname}` : endpoint.url;
	const res = await fetch(url, {
		method: 'POST',
		headers: {
			'content-type': 'application/json',
			'user-agent': 'Stora-Webhooks/1.0',
			'x-stora-request-id': randomUUID(),
			'x-stora-signature': signature(secret, body),
		},
		body,
	});
	const text = await res.text();
	let answer;
	try {
		answer = JSON.parse(text);
	} catch {
		answer = text;
	}
	return { status: res.status, body: answer };
}
