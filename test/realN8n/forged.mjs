// Forged webhook deliveries against a published Stora Trigger in a real n8n: every forged one must be answered 4xx
// and start no execution; every genuine one (signed with the endpoint's secret) starts exactly one.
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import path from 'node:path';

import { contactCreatedBody, nowSeconds as now, sign, signature as signed } from './sign.mjs';
import { sleep, until } from './wait.mjs';

/** The signature window of the package this n8n runs (as installed in its user folder). */
const signatureRules = (n8n) =>
	createRequire(import.meta.url)(
		path.join(
			n8n.userFolder,
			'.n8n/nodes/node_modules/n8n-nodes-stora/dist/nodes/StoraTrigger/signature.js',
		),
	);

/** A delivery body as Stora sends it: an event envelope with a unique id. */
const eventBody = (contactId, extra = {}) => contactCreatedBody(contactId, 'evt_forged', extra);

/**
 * The kinds of forgery, each a function of (secret, otherSecret, contactId) giving { body, headers }. With `repeat`
 * copies each, more than 200 deliveries in all.
 */
function forgeries(rules) {
	const kinds = {
		'no signature header': (secret, other, id) => ({ body: eventBody(id), headers: {} }),
		'empty signature header': (secret, other, id) => ({
			body: eventBody(id),
			headers: { 'x-stora-signature': '' },
		}),
		'wrong secret': (secret, other, id) => {
			const body = eventBody(id);
			return {
				body,
				headers: { 'x-stora-signature': `t=${now()},v1=${sign(`${secret}x`, now(), body)}` },
			};
		},
		"another endpoint's secret": (secret, other, id) => {
			const body = eventBody(id);
			return {
				body,
				headers: { 'x-stora-signature': `t=${now()},v1=${sign(other, now(), body)}` },
			};
		},
		'tampered body': (secret, other, id) => {
			const body = eventBody(id);
			const t = now();
			return {
				body: body.replace('contact.created', 'contact.created '),
				headers: { 'x-stora-signature': `t=${t},v1=${sign(secret, t, body)}` },
			};
		},
		'timestamp older than the window': (secret, other, id) => {
			const body = eventBody(id);
			const t = now() - rules.SIGNATURE_TOLERANCE_SECONDS - 60;
			return { body, headers: { 'x-stora-signature': `t=${t},v1=${sign(secret, t, body)}` } };
		},
		'future timestamp (beyond clock skew)': (secret, other, id) => {
			const body = eventBody(id);
			const t = now() + rules.SIGNATURE_FUTURE_SKEW_SECONDS + 60;
			return { body, headers: { 'x-stora-signature': `t=${t},v1=${sign(secret, t, body)}` } };
		},
		'signature of another timestamp': (secret, other, id) => {
			const body = eventBody(id);
			return {
				body,
				headers: { 'x-stora-signature': `t=${now()},v1=${sign(secret, now() - 10, body)}` },
			};
		},
		'timestamp missing': (secret, other, id) => {
			const body = eventBody(id);
			return { body, headers: { 'x-stora-signature': `v1=${sign(secret, now(), body)}` } };
		},
		'garbage signature': (secret, other, id) => ({
			body: eventBody(id),
			headers: { 'x-stora-signature': `t=${now()},v1=zz-not-hex` },
		}),
		'oversized body (2 MB, wrong signature)': (secret, other, id) => {
			const body = eventBody(id, { padding: 'x'.repeat(2 * 1024 * 1024) });
			return { body, headers: { 'x-stora-signature': `t=${now()},v1=${'0'.repeat(64)}` } };
		},
		'non-JSON body with a forged signature': (secret, other, id) => ({
			body: 'not json at all',
			headers: {
				'x-stora-signature': `t=${now()},v1=${sign(`${secret}x`, now(), 'not json at all')}`,
				'content-type': 'text/plain',
			},
		}),
		'duplicate header values, none valid': (secret, other, id) => {
			const body = eventBody(id);
			return {
				body,
				headers: {
					'x-stora-signature': [
						`t=${now()},v1=${sign(other, now(), body)}`,
						`t=${now()},v1=${'a'.repeat(64)}`,
					],
				},
			};
		},
	};
	return Object.entries(kinds);
}

/** Posts one delivery; its status. */
async function post(url, { body, headers }) {
	const h = new Headers({ 'content-type': 'application/json' });
	for (const [name, value] of Object.entries(headers)) {
		if (Array.isArray(value)) for (const v of value) h.append(name, v);
		else h.set(name, value);
	}
	const res = await fetch(url, {
		method: 'POST',
		headers: h,
		body,
		signal: AbortSignal.timeout(30_000),
	});
	await res.arrayBuffer();
	return res.status;
}

/**
 * Publishes a Stora Trigger workflow, sends `repeat` copies of every forgery (and some genuine deliveries in between,
 * signed with the real secret), and checks statuses and execution counts. Returns the figures for the log.
 */
export async function forgedDeliveries({ n8n, sandbox, workflow, repeat = 16 }) {
	await n8n.activate(workflow);
	try {
		const [endpoint] = await sandbox.control.state('webhook_endpoints');
		// The sandbox runs in this process: the secret it signs with (the API returns it only on create).
		const secret = sandbox.core.webhookSecrets.get(endpoint?.id);
		if (!endpoint?.url || !secret)
			throw new Error('publishing registered no endpoint with a secret');
		// Another endpoint's secret: valid for some endpoint, not for this one.
		const other = randomBytes(32).toString('hex');
		const [contact] = await sandbox.control.state('contacts');
		const rules = signatureRules(n8n);

		const wrong = [];
		let forged = 0;
		let genuine = 0;
		for (let round = 0; round < repeat; round++) {
			for (const [kind, make] of forgeries(rules)) {
				const status = await post(endpoint.url, make(secret, other, contact.id));
				forged++;
				if (status < 400 || status >= 500) wrong.push(`${kind}: HTTP ${status}`);
			}
			// A genuine delivery, signed as Stora signs (hex), and every fourth one in milliseconds and base64 (both forms
			// the docs leave open), must each start one execution.
			const body = eventBody(contact.id);
			const alt = round % 4 === 3;
			const t = alt ? Date.now() : now();
			const signature = signed(secret, body, t, alt ? 'base64' : 'hex');
			const status = await post(endpoint.url, {
				body,
				headers: { 'x-stora-signature': signature },
			});
			genuine++;
			if (status !== 200)
				wrong.push(`genuine delivery${alt ? ' (ms, base64)' : ''}: HTTP ${status}`);
		}
		// Executions are written asynchronously: wait until the genuine ones are all there, then a little longer.
		// A shortfall is not thrown here: the count below reports it with the other problems.
		await until(
			async () => (await n8n.allExecutions(workflow.id)).length >= genuine,
			'the executions',
			{ timeoutMs: 60_000 },
		).catch(() => {});
		await sleep(1000);
		const executions = await n8n.allExecutions(workflow.id);
		if (executions.length !== genuine)
			wrong.push(`${executions.length} executions for ${genuine} genuine deliveries`);
		if (wrong.length)
			throw new Error(`${wrong.length} problems:\n${[...new Set(wrong)].slice(0, 20).join('\n')}`);
		const kindNames = forgeries(rules).map(([kind]) => kind);
		return { forged, genuine, kinds: kindNames.length, kindNames, executions: executions.length };
	} finally {
		await n8n.deactivate(workflow);
	}
}
