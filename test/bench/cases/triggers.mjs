// Case 5: signed deliveries per second to the Stora Trigger against n8n's own Webhook node, the two taking turns;
// in an n8n that acquires its expression isolate lazily (the goal) and in n8n as it comes (information).
import { startN8n } from '../../realN8n/n8n.mjs';
import { startSandbox } from '../../realN8n/sandbox.mjs';
import { contactCreatedBody, signature } from '../../realN8n/sign.mjs';
import { until } from '../../realN8n/wait.mjs';
import { doing, median, publish, row, say, summary, using } from '../harness.mjs';
import * as wf from '../workflows.mjs';
import { GOALS, ratios } from './common.mjs';

const DELIVERY_CONCURRENCY = 4;
/**
 * The pairs, and which side starts each (S W W S). Within a pair the two sides take turns in batches, in a balanced
 * order (S W W S S W W S, or W S S W W S S W), and each side's rate is its deliveries over the time its batches took.
 * With whole rounds one after the other, rounds moved through a run on both sides (Stora Trigger 47.7, 56.6, 57.9,
 * 62.7 per second in one run; 56.4 to 72.4 in the next, the Webhook node's 52.9 to 66.3), and a pair compared the
 * two sides at different moments.
 */
const PAIRS = ['stora', 'plain', 'plain', 'stora'];
const TURNS = 4;
const other = (side) => (side === 'stora' ? 'plain' : 'stora');
/** The order of a pair's batches when `first` starts it: S W W S S W W S for the Stora Trigger. */
const turnsOf = (first) =>
	Array.from({ length: TURNS }, (_, t) =>
		t % 2 === 0 ? [first, other(first)] : [other(first), first],
	).flat();
const letter = (side) => (side === 'stora' ? 'S' : 'W');
const batchOf = (deliveries) => Math.ceil(deliveries / TURNS);

/** A signed `contact.created` delivery as Stora sends it, and its X-Stora-Signature. */
function signedDelivery(secret, contactId) {
	const body = contactCreatedBody(contactId, 'evt_bench');
	return { body, signature: signature(secret, body) };
}

/** Sends `count` signed deliveries with `concurrency` at a time; resolves to the time the first went and the statuses. */
async function deliver(url, count, concurrency, make) {
	const statuses = [];
	let next = 0;
	const started = Date.now();
	const worker = async () => {
		while (next < count) {
			next++;
			const { body, signature } = make();
			const res = await fetch(url, {
				method: 'POST',
				headers: { 'content-type': 'application/json', 'x-stora-signature': signature },
				body,
				signal: AbortSignal.timeout(60_000),
			});
			await res.arrayBuffer();
			statuses.push(res.status);
		}
	};
	await Promise.all(Array.from({ length: concurrency }, worker));
	return { started, statuses };
}

/**
 * Waits until a workflow has `total` finished executions; returns the latest stop time among the newest 100 (the
 * round just sent) and how many failed. Counts come from n8n's execution list with a status filter.
 */
async function executionsDone(n8n, workflowId, total) {
	const list = (status, limit) =>
		n8n.request(
			'GET',
			`/rest/executions?filter=${encodeURIComponent(JSON.stringify({ workflowId, status }))}&limit=${limit}`,
		);
	let finished = 0;
	return await until(
		async () => {
			const ok = await list(['success'], 100);
			const failed = (await list(['error', 'crashed', 'canceled'], 1)).count;
			finished = ok.count + failed;
			return (
				finished >= total && {
					lastStop: Math.max(...ok.results.map((e) => Date.parse(e.stoppedAt))),
					failed,
				}
			);
		},
		() => `${total} executions to finish (${finished} did)`,
		{ timeoutMs: 180_000, every: 200 },
	);
}

/** Deliveries per second to the Stora Trigger and to the Webhook node in `n8n`, per pair of turns. */
async function triggerRates(n8n, deliveries, label) {
	const sandbox = await startSandbox({ seed: 'demo', allowHttpWebhooks: true });
	return await using(
		sandbox,
		(s) => s.close(),
		async () => {
			const credential = await n8n.createCredential('bench trigger (Stora)', 'storaApi', {
				baseUrl: sandbox.url,
				accessToken: sandbox.token,
			});
			const stora = await publish(n8n, wf.storaTrigger(credential));
			const plain = await publish(n8n, wf.plainWebhook('bench-plain-webhook'));
			try {
				const [endpoint] = await sandbox.control.state('webhook_endpoints');
				// The sandbox runs in this process: the secret it signs with (the API returns it only on create).
				const secret = sandbox.core.webhookSecrets.get(endpoint?.id);
				if (!endpoint?.url || !secret)
					throw new Error('publishing the Stora Trigger registered no endpoint with a secret');
				const [contact] = await sandbox.control.state('contacts');
				const targets = {
					stora: { url: endpoint.url, workflow: stora, count: 0 },
					plain: { url: `${n8n.base}/webhook/bench-plain-webhook`, workflow: plain, count: 0 },
				};
				const make = () => signedDelivery(secret, contact.id);
				// Warm-up, a whole round per side, not measured: after 10 deliveries the first measured Stora round was still its
				// slowest (47.7/s against 56.6 to 62.7).
				for (const target of Object.values(targets)) {
					const { statuses } = await deliver(target.url, deliveries, DELIVERY_CONCURRENCY, make);
					target.count += deliveries;
					if (statuses.some((s) => s !== 200))
						throw new Error(`warm-up delivery answered ${statuses.find((s) => s !== 200)}`);
					await executionsDone(n8n, target.workflow.id, target.count);
				}
				const rates = { stora: [], plain: [] };
				const batch = batchOf(deliveries);
				for (const [pair, first] of PAIRS.entries()) {
					const seconds = { stora: 0, plain: 0 };
					for (const side of turnsOf(first)) {
						const target = targets[side];
						doing(
							`${label}, pair ${pair + 1}: ${batch} signed deliveries to ${side === 'stora' ? 'Stora Trigger' : 'the Webhook node'}, ${DELIVERY_CONCURRENCY} at a time`,
						);
						const { started, statuses } = await deliver(
							target.url,
							batch,
							DELIVERY_CONCURRENCY,
							make,
						);
						target.count += batch;
						const bad = statuses.filter((s) => s !== 200);
						if (bad.length)
							throw new Error(`${bad.length} of ${batch} deliveries to ${side} answered ${bad[0]}`);
						const { lastStop, failed } = await executionsDone(
							n8n,
							target.workflow.id,
							target.count,
						);
						if (failed) throw new Error(`${failed} executions of ${side} failed`);
						seconds[side] += (lastStop - started) / 1000;
					}
					for (const side of ['stora', 'plain']) rates[side].push((batch * TURNS) / seconds[side]);
					say(
						`${label}, pair ${pair + 1}: Stora Trigger ${rates.stora.at(-1).toFixed(1)}, Webhook node ${rates.plain.at(-1).toFixed(1)} deliveries/s (answered and executed)`,
					);
				}
				return rates;
			} finally {
				await n8n.deactivate(stora).catch(() => {});
				await n8n.deactivate(plain).catch(() => {});
			}
		},
	);
}

/** The rates as a row: Stora Trigger / Webhook node, one ratio per pair. */
function triggerRow(id, what, rates, deliveries, goal, reason = '') {
	row(id, what, {
		stora: `${median(rates.stora).toFixed(1)}/s`,
		other: `${median(rates.plain).toFixed(1)}/s`,
		ratio: summary(ratios(rates.stora, rates.plain)),
		goal,
		note:
			`${reason}${PAIRS.length} pairs of ${TURNS * batchOf(deliveries)} deliveries per side, the sides taking turns in batches of ${batchOf(deliveries)} ` +
			`(the first pair ${turnsOf(PAIRS[0]).map(letter).join(' ')}, then starting with ${PAIRS.slice(1).map(letter).join(', ')}), ` +
			`${DELIVERY_CONCURRENCY} at a time, each batch from its first send until its last execution stopped; per pair: ` +
			`Stora ${rates.stora.map((r) => r.toFixed(1)).join(', ')}, Webhook ${rates.plain.map((r) => r.toFixed(1)).join(', ')}`,
	});
}

/**
 * Case 5 in an n8n that acquires its expression isolate only when an expression needs one
 * (N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true): the goal. n8n 2.41 as it comes sets one up for every delivery to a
 * trigger other than its own Webhook node; that default is measured too, for information.
 */
export async function lazyTriggerCase(tarball, cfg) {
	doing('case 5: starting an n8n with N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true');
	const n8n = await startN8n({ tarball, env: { N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE: 'true' } });
	await using(
		n8n,
		(n) => n.stop(),
		async () => {
			triggerRow(
				'5a',
				'Trigger: signed deliveries per second, Stora Trigger / Webhook node, n8n with N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true',
				await triggerRates(n8n, cfg.deliveries, 'case 5'),
				cfg.deliveries,
				GOALS['5a'],
			);
		},
	);
}

export async function defaultTriggerCase(n8n, cfg) {
	const reason =
		"n8n 2.41 as it comes builds an expression isolate for every delivery to any trigger but its own Webhook node (webhookPhaseNeedsIsolate in n8n's live-webhooks.js), before the one every execution gets; ";
	triggerRow(
		'5d',
		'  same, n8n with its default settings (info)',
		await triggerRates(n8n, cfg.defaultDeliveries, 'case 5d'),
		cfg.defaultDeliveries,
		undefined,
		reason,
	);
}
