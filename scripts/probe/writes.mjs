/**
 * The few writes some points need, only with `--write` (and `--yes` or a typed yes) and meant for a test operator: a
 * contact created (with an Idempotency-Key of 255 characters), the same request replayed, and deleted again; with
 * `--webhook-url` and `--listen`, a webhook endpoint registered at that URL first, subscribed only to the event the
 * probe causes (contact.created), whose delivery shows the signature, and removed. Every record carries this run's
 * tag (metadata stora_probe) and is created with an Idempotency-Key, so one whose answer was lost is found again (the
 * same request replayed, else the tag on the list) and deleted too; what could not be is listed with its ID and how
 * to remove it.
 */
import { randomBytes, randomUUID } from 'node:crypto';

import { errorLine, recordsOf } from './judge.mjs';
import { EXTRA_EVENT_TYPES, skippedWritePoints, WHERE } from './points.mjs';
import { signaturePoints } from './receiver.mjs';

const V = '/2025-09';
/** The events the probe itself causes: its temporary endpoint subscribes to these and no other. */
export const PROBE_EVENT_TYPES = ['contact.created'];

const ok = (answer) => answer.status >= 200 && answer.status < 300;
const lost = (answer) => answer.status === 0 || answer.status >= 500;
const point = (id, verdict, evidence, where) => ({ id, verdict, evidence, where });

/** The same 255 visible characters each run would be a replay of an earlier run: random, then padded. */
const longKey = () => `stora-probe-${randomUUID()}-`.padEnd(255, 'k');

/**
 * POSTs `body` to `path` with `key`; when the answer is lost (no answer, a 5xx), the same request again (a replay
 * where the key is honoured), then this run's tag looked for on the list. `{answer, record}`; `record` undefined when
 * nothing was found.
 */
async function createTagged(client, path, body, key, tag, member) {
	let answer = await client.request('POST', `${V}/${path}`, {
		body,
		headers: { 'Idempotency-Key': key },
	});
	if (lost(answer))
		answer = await client.request('POST', `${V}/${path}`, {
			body,
			headers: { 'Idempotency-Key': key },
		});
	const record = ok(answer) ? answer.json?.[member] : undefined;
	if (record?.id || !lost(answer)) return { answer, record: record?.id ? record : undefined };
	return { answer, record: await findTagged(client, path, tag) };
}

/** The records of this run on the list at `path`, by its tag (checked on each record: a filter may be ignored). */
async function findAllTagged(client, path, tag) {
	const listed = await client.request('GET', `${V}/${path}`, {
		query: { limit: 100, 'metadata[stora_probe]': tag },
	});
	return (recordsOf(listed.json) ?? []).filter(
		(record) => record?.metadata?.stora_probe === tag && record.id !== undefined,
	);
}
const findTagged = async (client, path, tag) => (await findAllTagged(client, path, tag))[0];

async function registerEndpoint(client, webhookUrl, tag, points) {
	const body = {
		name: 'Stora probe (temporary)',
		api_version: '2025-09',
		url: webhookUrl,
		event_types: PROBE_EVENT_TYPES,
		description: 'Created by npm run probe (n8n-nodes-stora); deleted when it ends.',
		metadata: { stora_probe: tag },
	};
	const { answer, record } = await createTagged(
		client,
		'webhook_endpoints',
		body,
		randomUUID(),
		tag,
		'endpoint',
	);
	const endpoint = record ?? (ok(answer) ? answer.json?.webhook_endpoint : undefined);
	if (!endpoint?.id) return { error: errorLine(answer), maybe: lost(answer) };
	points.push(
		point(
			`webhook event type ${PROBE_EVENT_TYPES.join(', ')}`,
			'accepted',
			`an endpoint for it alone was created (${answer.status})`,
			WHERE.events,
		),
	);
	const why =
		"not probed: subscribing to it would send the account's real events (customers' data) to the --webhook-url while the probe runs";
	points.push(
		point(
			'webhook event types (the 13 confirmed)',
			'unknown',
			why.replace('it', 'them'),
			WHERE.events,
		),
	);
	for (const type of EXTRA_EVENT_TYPES)
		points.push(point(`webhook event type ${type}`, 'unknown', why, WHERE.events));
	return {
		id: String(endpoint.id),
		secret: typeof endpoint.secret === 'string' ? endpoint.secret : undefined,
	};
}

/**
 * `scopes`: the token's (undefined when unknown). `receiver`: the started receiver when `webhookUrl` is given.
 * Returns `{points, leftovers}`.
 */
export async function probeWrites(
	client,
	{ scopes, webhookUrl, receiver, waitMs = 30_000, log = () => {} },
) {
	const points = [];
	const leftovers = [];
	const webhook = Boolean(webhookUrl && receiver);
	if (scopes && !scopes.includes('public.contact:write'))
		return {
			points: skippedWritePoints('the token lacks public.contact:write', webhook),
			leftovers,
		};
	const created = [];
	const tag = `run-${randomBytes(6).toString('hex')}`;
	let endpoint;
	let attempted = false;
	let maybeLost = false;
	try {
		if (webhook) {
			if (scopes && !scopes.includes('public.webhook_endpoint:write')) {
				points.push(
					...skippedWritePoints('the token lacks public.webhook_endpoint:write').filter((entry) =>
						/webhook/.test(entry.id),
					),
				);
			} else {
				log(`registering a temporary webhook endpoint at the given --webhook-url`);
				endpoint = await registerEndpoint(client, webhookUrl, tag, points);
				if (endpoint.error) {
					if (endpoint.maybe)
						leftovers.push(
							`maybe a webhook endpoint at the --webhook-url (its answer was lost and no endpoint tagged stora_probe=${tag} was found): look in BackOffice → Settings → Webhooks and delete it there or with DELETE ${V}/webhook_endpoints/{id}`,
						);
					points.push(
						...skippedWritePoints(`the endpoint could not be created: ${endpoint.error}`).filter(
							(entry) => /webhook/.test(entry.id) && !points.some((done) => done.id === entry.id),
						),
					);
					endpoint = undefined;
				}
			}
		}

		log('creating a temporary contact');
		const body = {
			email: `stora-probe-${randomBytes(6).toString('hex')}@example.com`,
			full_name: 'Stora probe (deleted again)',
			metadata: { stora_probe: tag },
		};
		let key = longKey();
		attempted = true;
		let { answer, record: contact } = await createTagged(
			client,
			'contacts',
			body,
			key,
			tag,
			'contact',
		);
		if (
			!contact &&
			answer.status >= 400 &&
			answer.status < 500 &&
			/idempotency/i.test(answer.text)
		) {
			points.push(
				point(
					'idempotency key of 255 characters',
					'refused',
					`answered ${errorLine(answer)}`,
					WHERE.idempotency,
				),
			);
			key = randomUUID();
			({ answer, record: contact } = await createTagged(
				client,
				'contacts',
				body,
				key,
				tag,
				'contact',
			));
		} else if (ok(answer)) {
			points.push(
				point(
					'idempotency key of 255 characters',
					'accepted',
					`a create with it answered ${answer.status}`,
					WHERE.idempotency,
				),
			);
		}
		if (!contact?.id) {
			const why = `creating a contact answered ${errorLine(answer)}`;
			maybeLost = lost(answer);
			for (const entry of skippedWritePoints(why, webhook))
				if (!points.some((done) => done.id === entry.id)) points.push(entry);
			return { points, leftovers };
		}
		created.push(String(contact.id));
		points.push(
			point(
				'POST /2025-09/contacts status',
				ok(answer) ? String(answer.status) : 'unknown',
				ok(answer)
					? `a create answered ${answer.status}`
					: `the create's answer was lost (${errorLine(answer)}); the contact was found by its tag`,
				WHERE.none,
			),
		);
		if (!points.some((done) => done.id === 'idempotency key of 255 characters'))
			points.push(
				point(
					'idempotency key of 255 characters',
					'refused',
					'refused, then created with a UUID key',
					WHERE.idempotency,
				),
			);

		const replay = await client.request('POST', `${V}/contacts`, {
			body,
			headers: { 'Idempotency-Key': key },
		});
		const again = ok(replay) ? replay.json?.contact?.id : undefined;
		if (again !== undefined && String(again) !== String(contact.id)) created.push(String(again));
		const replayed =
			replay.headers['idempotent-replayed'] ?? replay.headers['idempotency-replayed'];
		points.push(
			again === undefined
				? point(
						'idempotency replay',
						ok(replay) ? 'unknown' : 'refused',
						`the same request with the same key answered ${errorLine(replay)}`,
						WHERE.replay,
					)
				: String(again) === String(contact.id)
					? point(
							'idempotency replay',
							'replayed',
							`the same request with the same key answered ${replay.status} with the same contact${replayed ? ` (Idempotent-Replayed: ${replayed})` : ''}`,
							WHERE.replay,
						)
					: point(
							'idempotency replay',
							'not replayed',
							`the same request with the same key created a second contact (${replay.status})`,
							WHERE.replay,
						),
		);

		if (endpoint) {
			log(`waiting up to ${Math.round(waitMs / 1000)} s for the contact.created delivery`);
			const delivery = await receiver.waitFor(
				(candidate) => candidate.raw.includes(String(contact.id)),
				waitMs,
			);
			points.push(...signaturePoints(delivery, endpoint.secret));
		}
	} finally {
		// A create or replay whose answer was lost may have made a contact nobody saw: this run's tag finds it.
		if (attempted)
			for (const record of await findAllTagged(client, 'contacts', tag).catch(() => []))
				if (!created.includes(String(record.id))) created.push(String(record.id));
		if (maybeLost && !created.length)
			leftovers.push(
				`maybe a contact tagged metadata stora_probe=${tag} (its answer was lost and the tag was not found on the list): find it in BackOffice and delete it, or DELETE ${V}/contacts/{id}`,
			);
		for (const id of created) {
			const deleted = await client
				.request('DELETE', `${V}/contacts/${id}`)
				.catch((error) => ({ status: 0, error: error.message }));
			if (!ok(deleted))
				leftovers.push(
					`contact ${id} (DELETE answered ${errorLine(deleted)}): DELETE ${V}/contacts/${id}, or delete it in BackOffice`,
				);
		}
		if (endpoint) {
			const deleted = await client
				.request('DELETE', `${V}/webhook_endpoints/${endpoint.id}`)
				.catch((error) => ({ status: 0, error: error.message }));
			points.push(
				point(
					'DELETE /2025-09/webhook_endpoints/{id}',
					ok(deleted)
						? 'exists'
						: deleted.status === 404 || deleted.status === 405
							? 'absent'
							: 'unknown',
					`answered ${ok(deleted) ? deleted.status : errorLine(deleted)}`,
					WHERE.webhookEndpoints,
				),
			);
			if (!ok(deleted)) {
				// No delete: at least stop deliveries (the update's `status` member is itself unconfirmed).
				const disabled = await client
					.request('PATCH', `${V}/webhook_endpoints/${endpoint.id}`, {
						body: { status: 'disabled' },
					})
					.catch(() => ({ status: 0 }));
				leftovers.push(
					`webhook endpoint ${endpoint.id}${ok(disabled) ? ' (disabled)' : ''}: DELETE ${V}/webhook_endpoints/${endpoint.id}, or remove it in BackOffice → Settings → Webhooks`,
				);
			}
		}
	}
	return { points, leftovers };
}
