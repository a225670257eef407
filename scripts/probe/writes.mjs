/**
 * The few writes some points need, only with `--write` and meant for a test operator: a contact created (with an
 * Idempotency-Key of 255 characters), the same request replayed, and deleted again; with `--webhook-url` and
 * `--listen`, a webhook endpoint registered at that URL first (its delivery of contact.created shows the signature),
 * tried with further event types, and removed. Whatever was created is deleted in the end, even after a stop; what
 * could not be is listed in the report.
 */
import { randomBytes, randomUUID } from 'node:crypto';

import { errorLine } from './listVerdicts.mjs';
import { EXTRA_EVENT_TYPES, skippedWritePoints, WHERE } from './points.mjs';
import { signaturePoints } from './receiver.mjs';

const V = '/2025-09';
/** The 13 event types the docs confirm (nodes/Stora/helpers/events.ts). */
export const EVENT_TYPES = ['contact.created', 'contact.updated', 'contact.churned', 'credit_note.created', 'deal.updated', 'deal.lost', 'identity_verification.processing', 'identity_verification.succeeded', 'invoice.created', 'invoice.paid', 'order.created', 'protection_level.created', 'unit.updated'];

const ok = (answer) => answer.status >= 200 && answer.status < 300;
const point = (id, verdict, evidence, where) => ({ id, verdict, evidence, where });

/** The same 255 visible characters each run would be a replay of an earlier run: random, then padded. */
const longKey = () => `stora-probe-${randomUUID()}-`.padEnd(255, 'k');

async function registerEndpoint(client, webhookUrl, points) {
	const body = (types) => ({ name: 'Stora probe (temporary)', api_version: '2025-09', url: webhookUrl, event_types: types, description: 'Created by npm run probe (n8n-nodes-stora); deleted when it ends.', metadata: { stora_probe: 'temporary' } });
	let answer = await client.request('POST', `${V}/webhook_endpoints`, { body: body(EVENT_TYPES), headers: { 'Idempotency-Key': randomUUID() } });
	if (ok(answer)) points.push(point('webhook event types (the 13 confirmed)', 'accepted', `an endpoint for all 13 was created (${answer.status})`, WHERE.events));
	else {
		points.push(point('webhook event types (the 13 confirmed)', 'refused', `creating an endpoint for all 13 answered ${errorLine(answer)}`, WHERE.events));
		answer = await client.request('POST', `${V}/webhook_endpoints`, { body: body(['contact.created']), headers: { 'Idempotency-Key': randomUUID() } });
	}
	const endpoint = ok(answer) ? answer.json?.endpoint ?? answer.json?.webhook_endpoint : undefined;
	return endpoint?.id ? { id: String(endpoint.id), secret: typeof endpoint.secret === 'string' ? endpoint.secret : undefined, types: endpoint.event_types ?? EVENT_TYPES } : { error: errorLine(answer) };
}

/** Each further event type, added to the temporary endpoint one at a time: accepted or refused by Stora. */
async function tryEventTypes(client, endpoint, points) {
	for (const type of EXTRA_EVENT_TYPES) {
		const answer = await client.request('PATCH', `${V}/webhook_endpoints/${endpoint.id}`, { body: { event_types: [...endpoint.types, type] } });
		const verdict = ok(answer) ? 'accepted' : answer.status >= 400 && answer.status < 500 ? 'refused' : 'unknown';
		points.push(point(`webhook event type ${type}`, verdict, ok(answer) ? `an endpoint update adding it answered ${answer.status}` : `answered ${errorLine(answer)}`, WHERE.events));
	}
}

/**
 * `scopes`: the token's (undefined when unknown). `receiver`: the started receiver when `webhookUrl` is given.
 * Returns `{points, leftovers}`.
 */
export async function probeWrites(client, { scopes, webhookUrl, receiver, waitMs = 30_000, log = () => {} }) {
	const points = [];
	const leftovers = [];
	const webhook = Boolean(webhookUrl && receiver);
	if (scopes && !scopes.includes('public.contact:write')) return { points: skippedWritePoints('the token lacks public.contact:write', webhook), leftovers };
	const created = [];
	let endpoint;
	try {
		if (webhook) {
			if (scopes && !scopes.includes('public.webhook_endpoint:write')) {
				points.push(...skippedWritePoints('the token lacks public.webhook_endpoint:write').filter((entry) => /webhook/.test(entry.id)));
			} else {
				log(`registering a temporary webhook endpoint at the given --webhook-url`);
				endpoint = await registerEndpoint(client, webhookUrl, points);
				if (endpoint.error) {
					points.push(...skippedWritePoints(`the endpoint could not be created: ${endpoint.error}`).filter((entry) => /webhook/.test(entry.id) && !points.some((done) => done.id === entry.id)));
					endpoint = undefined;
				}
			}
		}

		log('creating a temporary contact');
		const body = { email: `stora-probe-${randomBytes(6).toString('hex')}@example.com`, full_name: 'Stora probe (deleted again)', metadata: { stora_probe: 'temporary' } };
		let key = longKey();
		let answer = await client.request('POST', `${V}/contacts`, { body, headers: { 'Idempotency-Key': key } });
		if (!ok(answer) && answer.status >= 400 && answer.status < 500 && /idempotency/i.test(answer.text)) {
			points.push(point('idempotency key of 255 characters', 'refused', `answered ${errorLine(answer)}`, WHERE.idempotency));
			key = randomUUID();
			answer = await client.request('POST', `${V}/contacts`, { body, headers: { 'Idempotency-Key': key } });
		} else if (ok(answer)) {
			points.push(point('idempotency key of 255 characters', 'accepted', `a create with it answered ${answer.status}`, WHERE.idempotency));
		}
		const contact = ok(answer) ? answer.json?.contact : undefined;
		if (!contact?.id) {
			const why = `creating a contact answered ${errorLine(answer)}`;
			for (const entry of skippedWritePoints(why, webhook)) if (!points.some((done) => done.id === entry.id)) points.push(entry);
			return { points, leftovers };
		}
		created.push(String(contact.id));
		points.push(point('POST /2025-09/contacts status', String(answer.status), `a create answered ${answer.status}`, WHERE.none));
		if (!points.some((done) => done.id === 'idempotency key of 255 characters')) points.push(point('idempotency key of 255 characters', 'refused', 'refused, then created with a UUID key', WHERE.idempotency));

		const replay = await client.request('POST', `${V}/contacts`, { body, headers: { 'Idempotency-Key': key } });
		const again = ok(replay) ? replay.json?.contact?.id : undefined;
		if (again !== undefined && String(again) !== String(contact.id)) created.push(String(again));
		const replayed = replay.headers['idempotent-replayed'] ?? replay.headers['idempotency-replayed'];
		points.push(
			again === undefined
				? point('idempotency replay', ok(replay) ? 'unknown' : 'refused', `the same request with the same key answered ${errorLine(replay)}`, WHERE.replay)
				: String(again) === String(contact.id)
					? point('idempotency replay', 'replayed', `the same request with the same key answered ${replay.status} with the same contact${replayed ? ` (Idempotent-Replayed: ${replayed})` : ''}`, WHERE.replay)
					: point('idempotency replay', 'not replayed', `the same request with the same key created a second contact (${replay.status})`, WHERE.replay),
		);

		if (endpoint) {
			log(`waiting up to ${Math.round(waitMs / 1000)} s for the contact.created delivery`);
			const delivery = await receiver.waitFor((candidate) => candidate.raw.includes(String(contact.id)), waitMs);
			points.push(...signaturePoints(delivery, endpoint.secret));
			await tryEventTypes(client, endpoint, points);
		}
	} finally {
		for (const id of created) {
			const deleted = await client.request('DELETE', `${V}/contacts/${id}`).catch((error) => ({ status: 0, error: error.message }));
			if (!ok(deleted)) leftovers.push(`contact ${id} (DELETE answered ${errorLine(deleted)})`);
		}
		if (endpoint) {
			const deleted = await client.request('DELETE', `${V}/webhook_endpoints/${endpoint.id}`).catch((error) => ({ status: 0, error: error.message }));
			points.push(point('DELETE /2025-09/webhook_endpoints/{id}', ok(deleted) ? 'exists' : deleted.status === 404 || deleted.status === 405 ? 'absent' : 'unknown', `answered ${ok(deleted) ? deleted.status : errorLine(deleted)}`, WHERE.webhookEndpoints));
			if (!ok(deleted)) {
				// No delete: at least stop deliveries (the update's `status` member is itself unconfirmed).
				const disabled = await client.request('PATCH', `${V}/webhook_endpoints/${endpoint.id}`, { body: { status: 'disabled' } }).catch(() => ({ status: 0 }));
				leftovers.push(`webhook endpoint ${endpoint.id}${ok(disabled) ? ' (disabled)' : ''}: remove it in BackOffice → Settings → Webhooks`);
			}
		}
	}
	return { points, leftovers };
}
