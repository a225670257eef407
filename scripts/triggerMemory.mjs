// n8n's memory under many signed deliveries: the Stora Trigger against n8n's own Webhook node, n8n 2.41.1.
// Two n8n processes started alike (N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true, as the README advises; each with both
// workflows published) get the same signed deliveries at the same rate, one to its Stora Trigger, the other to its
// Webhook node, the two taking turns in batches (S W W S, W S S W, ...) so a drift of the shared machine falls on
// both. After every batch, once its executions have finished, that n8n is made to collect its garbage (a full GC
// through its inspector, started on a free loopback port) and its resident memory (VmRSS of its process, and of its
// process group) and V8 heap are read. A side's growth is the least-squares slope of its readings, per 1,000
// deliveries, with its standard error.
//
//   npm run measure:trigger-memory [-- options]
//     --deliveries <n>   measured deliveries per side (default 10000)
//     --warmup <n>       deliveries per side before the first reading (default 500)
//     --rate <n>         deliveries per second while a side has its turn (default 50)
//     --batch <n>        deliveries per turn (default 500)
//
// The goal: the Stora side's RSS grows no faster per 1,000 deliveries than the Webhook node's, or levels off (its
// second half grows at most LEVEL_MIB_PER_1000 per 1,000). It prints `trigger memory: goal met` or `... not met` last
// and exits 1 when not met. With STORA_FIGURES=write it records the figures in docs/figures/triggerMemory.json and
// writes that table into docs/quality.md (met or not: the row says which).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

import {
	ensureN8n,
	freePort,
	log,
	N8N_VERSION,
	packPackage,
	REPO,
	seconds,
	startN8n,
} from '../test/realN8n/n8n.mjs';
import { logAs } from '../test/realN8n/basics.mjs';
import { buildSandbox, startSandbox } from '../test/realN8n/sandbox.mjs';
import { contactCreatedBody, signature } from '../test/realN8n/sign.mjs';
import { until } from '../test/realN8n/wait.mjs';
import { chain, noOpNode, storaTriggerNode, webhookNode } from '../test/realN8n/workflow.mjs';
import { loadAverage, machine } from '../test/bench/proc.mjs';
import { inspector, rssOf } from './n8nMemory.mjs';
import {
	readFigures,
	recordFigures,
	replaceFiguresSection,
	writingFigures,
} from '../test/helpers/figures.ts';

/** Growth per 1,000 deliveries, in the Stora side's second half, that counts as levelled off. */
const LEVEL_MIB_PER_1000 = 0.1;
/** Deliveries in flight at most: enough for the rate, bounded should n8n fall behind. */
const IN_FLIGHT = 16;
const MIB = 1024 * 1024;

const { values: args } = parseArgs({
	options: {
		deliveries: { type: 'string', default: '10000' },
		warmup: { type: 'string', default: '500' },
		rate: { type: 'string', default: '50' },
		batch: { type: 'string', default: '500' },
	},
});
const DELIVERIES = Number(args.deliveries);
const WARMUP = Number(args.warmup);
const RATE = Number(args.rate);
const BATCH = Number(args.batch);
if (
	![DELIVERIES, WARMUP, RATE, BATCH].every((n) => Number.isInteger(n) && n > 0) ||
	DELIVERIES % BATCH
) {
	throw new Error(
		'--deliveries, --warmup, --rate and --batch are positive whole numbers, the deliveries a multiple of the batch',
	);
}

logAs('trigger-memory');

/** Sends `count` deliveries to `url` at `RATE` per second (each on its slot, at most IN_FLIGHT open); all must be 200. */
async function deliver(url, count, make) {
	const started = Date.now();
	const statuses = new Map();
	let next = 0;
	const worker = async () => {
		while (next < count) {
			const index = next++;
			const wait = started + (index * 1000) / RATE - Date.now();
			if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
			const { body, header } = make();
			const res = await fetch(url, {
				method: 'POST',
				headers: { 'content-type': 'application/json', 'x-stora-signature': header },
				body,
				signal: AbortSignal.timeout(60_000),
			});
			await res.arrayBuffer();
			statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
		}
	};
	await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
	const bad = [...statuses].filter(([status]) => status !== 200);
	if (bad.length)
		throw new Error(
			`deliveries to ${url} answered ${bad.map(([s, n]) => `${n} × ${s}`).join(', ')}`,
		);
	return (Date.now() - started) / 1000;
}

/** Waits until `workflowId` has `total` finished executions (counted by n8n's execution list); none may have failed. */
async function executionsDone(n8n, workflowId, total) {
	const count = async (status) =>
		(
			await n8n.request(
				'GET',
				`/rest/executions?filter=${encodeURIComponent(JSON.stringify({ workflowId, status }))}&limit=1`,
			)
		).count;
	let done = 0;
	await until(
		async () => {
			done = await count(['success']);
			const failed = await count(['error', 'crashed', 'canceled']);
			if (failed) throw new Error(`${failed} executions of workflow ${workflowId} did not succeed`);
			return done >= total;
		},
		() => `${total} executions of workflow ${workflowId} to finish (${done} did)`,
		{ timeoutMs: 300_000, every: 250 },
	);
}

const mib = (bytes) => bytes / MIB;
const fixed = (n, digits = 2) => (Object.is(n, -0) ? 0 : n).toFixed(digits);
/** A change with its sign: +1.25, -0.40. */
const signed = (n, digits = 2) => `${n >= 0 ? '+' : ''}${fixed(n, digits)}`;

/** The least-squares slope of `ys` over `xs` and its standard error (0 with fewer than three points). */
function slope(xs, ys) {
	const n = xs.length;
	const mx = xs.reduce((a, b) => a + b, 0) / n;
	const my = ys.reduce((a, b) => a + b, 0) / n;
	const sxx = xs.reduce((a, x) => a + (x - mx) ** 2, 0);
	const b = xs.reduce((a, x, i) => a + (x - mx) * (ys[i] - my), 0) / sxx;
	const residuals = xs.reduce((a, x, i) => a + (ys[i] - my - b * (x - mx)) ** 2, 0);
	return { per: b, error: n > 2 ? Math.sqrt(residuals / (n - 2) / sxx) : 0 };
}

/**
 * How one side's n8n grew, from its readings after the warm-up (`points`: deliveries since then, RSS and heap in bytes
 * after a full GC): MiB per 1,000 deliveries as the least-squares slope over all readings and over the second half
 * (from the middle reading on), each with its standard error; the spread of the readings around the line says how
 * much a single reading moves.
 */
function growthOf(points, batches) {
	const per1000 = (list, key) => {
		const { per, error } = slope(
			list.map((p) => p.sent),
			list.map((p) => mib(key === 'outside' ? p.rss - p.heap : p[key])),
		);
		return { per: per * 1000, error: error * 1000 };
	};
	const middle = Math.floor((points.length - 1) / 2);
	return {
		rss: per1000(points, 'rss'),
		group: per1000(points, 'group'),
		heap: per1000(points, 'heap'),
		// What the process holds outside V8's heap (buffers, crypto, the allocator's own), where a native leak would show.
		outside: per1000(points, 'outside'),
		rssFirstHalf: per1000(points.slice(0, middle + 1), 'rss'),
		rssSecondHalf: per1000(points.slice(middle), 'rss'),
		first: mib(points[0].rss),
		last: mib(points.at(-1).rss),
		seconds: batches.reduce((total, b) => total + b.seconds, 0),
		count: batches.reduce((n, b) => n + b.count, 0),
	};
}

async function main() {
	const started = Date.now();
	const work = fs.mkdtempSync(path.join(os.tmpdir(), 'stora-trigger-memory-'));
	const cleanups = [() => fs.rmSync(work, { recursive: true, force: true })];
	const cleanUp = async () => {
		for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
	};
	for (const signal of ['SIGINT', 'SIGTERM']) {
		process.once(signal, () => cleanUp().finally(() => process.exit(130)));
	}
	try {
		await ensureN8n();
		buildSandbox();
		const { tarball } = packPackage(work);
		const sandbox = await startSandbox({ seed: 'demo', allowHttpWebhooks: true });
		cleanups.push(() => sandbox.close());
		const [contact] = await sandbox.control.state('contacts');

		/**
		 * One n8n as the README advises, with its inspector on a free loopback port, both workflows published (the same
		 * shapes as the benchmark's trigger case: each trigger into a No Operation node, answering at once).
		 */
		const n8nWithBoth = async () => {
			const inspectPort = await freePort();
			const n8n = await startN8n({
				tarball,
				env: {
					N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE: 'true',
					NODE_OPTIONS: `--inspect=127.0.0.1:${inspectPort}`,
				},
			});
			cleanups.push(() => n8n.stop());
			const probe = await inspector(inspectPort);
			cleanups.push(() => probe.close());
			const credential = await n8n.createCredential('trigger memory (Stora)', 'storaApi', {
				baseUrl: sandbox.url,
				accessToken: sandbox.token,
			});
			const publish = async (workflow) => {
				const created = await n8n.createWorkflow(workflow);
				await n8n.activate(created);
				return created;
			};
			const stora = await publish(
				chain('memory: Stora Trigger', [
					storaTriggerNode('Stora Trigger', { events: ['contact.created'] }, credential, {
						typeVersion: 1.1,
					}),
					noOpNode(),
				]),
			);
			const plain = await publish(
				chain('memory: Webhook', [
					webhookNode('memory-plain-webhook', { responseMode: 'onReceived' }),
					noOpNode(),
				]),
			);
			const endpoint = (await sandbox.control.state('webhook_endpoints')).find((e) =>
				String(e.url).startsWith(`${n8n.base}/`),
			);
			// The sandbox runs in this process: the secret it signs with (the API returns it only on create).
			const secret = sandbox.core.webhookSecrets.get(endpoint?.id);
			if (!endpoint?.url || !secret)
				throw new Error('publishing the Stora Trigger registered no endpoint with a secret');
			log(
				`n8n ${N8N_VERSION} at ${n8n.base} (pid ${n8n.pid}), inspector on 127.0.0.1:${inspectPort}`,
			);
			return { n8n, probe, stora, plain, endpoint, secret };
		};
		// One n8n per side, started alike: in one process a batch's change of RSS comes mostly from the allocator and V8's
		// pages, a few MiB either way whichever side ran it, so summing each side's batches does not tell the sides apart.
		// Each n8n's own readings give its own slope; the turns still share the machine's drift between the two.
		const forStora = await n8nWithBoth();
		const forPlain = await n8nWithBoth();
		// Both sides get the same: a contact.created body with a fresh event id, signed as Stora signs (for the Webhook
		// node with its n8n's Stora endpoint secret, which it does not check).
		const make = (secret) => () => {
			const body = contactCreatedBody(contact.id, 'evt_memory');
			return { body, header: signature(secret, body) };
		};
		const sides = {
			stora: {
				name: 'Stora Trigger',
				at: forStora,
				url: forStora.endpoint.url,
				workflow: forStora.stora,
				sent: 0,
				batches: [],
				points: [],
			},
			plain: {
				name: 'Webhook node',
				at: forPlain,
				url: `${forPlain.n8n.base}/webhook/memory-plain-webhook`,
				workflow: forPlain.plain,
				sent: 0,
				batches: [],
				points: [],
			},
		};
		const reading = async (side) => {
			const heap = await side.at.probe.heapAfterGc();
			const { main: rss, group } = rssOf(side.at.n8n.pid);
			return { rss, group, heap };
		};
		const turn = async (side, count) => {
			const took = await deliver(side.url, count, make(side.at.secret));
			side.sent += count;
			await executionsDone(side.at.n8n, side.workflow.id, side.sent);
			return took;
		};

		// The warm-up ends as every measured batch does, after forced collections: the first one can release several MiB,
		// which would otherwise show in the first measured batch.
		log(
			`warm-up: ${WARMUP} deliveries to each side at ${RATE}/s, in two turns each (S W W S), each followed by a full GC`,
		);
		const halves = [Math.ceil(WARMUP / 2), Math.floor(WARMUP / 2)];
		for (const [key, count] of [
			['stora', halves[0]],
			['plain', halves[0]],
			['plain', halves[1]],
			['stora', halves[1]],
		]) {
			if (count) await turn(sides[key], count);
			await reading(sides[key]);
		}
		for (const side of Object.values(sides)) {
			const at = await reading(side);
			side.points.push({ sent: 0, ...at });
			log(
				`${side.name}'s n8n after the warm-up: RSS ${fixed(mib(at.rss), 1)} MiB, heap ${fixed(mib(at.heap), 1)} MiB (after a full GC)`,
			);
		}

		// S W W S, W S S W, ...: each side runs first as often as second.
		const rounds = DELIVERIES / BATCH;
		const order = Array.from({ length: rounds }, (_, r) =>
			r % 2 === 0 ? ['stora', 'plain'] : ['plain', 'stora'],
		).flat();
		for (const [index, key] of order.entries()) {
			const side = sides[key];
			const took = await turn(side, BATCH);
			const before = side.points.at(-1);
			const after = { sent: side.sent - WARMUP, ...(await reading(side)) };
			side.points.push(after);
			side.batches.push({ count: BATCH, seconds: took });
			log(
				`${index + 1}/${order.length} ${side.name}: ${after.sent} measured, ${fixed(BATCH / took, 1)}/s; ` +
					`RSS ${fixed(mib(after.rss), 1)} MiB (${signed(mib(after.rss - before.rss))}), ` +
					`heap ${fixed(mib(after.heap), 1)} MiB (${signed(mib(after.heap - before.heap))}), load ${loadAverage()}`,
			);
		}

		const s = growthOf(sides.stora.points, sides.stora.batches);
		const w = growthOf(sides.plain.points, sides.plain.batches);
		const levelled = s.rssSecondHalf.per <= LEVEL_MIB_PER_1000;
		const met = s.rss.per <= w.rss.per || levelled;
		const pm = (g) => `${signed(g.per)} ± ${fixed(g.error)}`;
		const line = (name, g) =>
			`${name}'s n8n: RSS ${pm(g.rss)} MiB per 1,000 deliveries (first half ${pm(g.rssFirstHalf)}, second half ${pm(g.rssSecondHalf)}; ` +
			`process group ${pm(g.group)}; ${fixed(g.first, 1)} to ${fixed(g.last, 1)} MiB), V8 heap after a full GC ${pm(g.heap)}, RSS outside it ${pm(g.outside)}; ` +
			`${g.count} deliveries at ${fixed(g.count / g.seconds, 1)}/s`;
		// The two n8n are separate processes: the difference's standard error is that of the two slopes together.
		const minus = (key) =>
			`${signed(s[key].per - w[key].per)} ± ${fixed(Math.hypot(s[key].error, w[key].error))}`;
		console.log(
			`\nLeast-squares slopes over the readings after each batch (± their standard error):\n${line('Stora Trigger', s)}\n${line('Webhook node', w)}`,
		);
		console.log(
			`Stora Trigger minus Webhook node, MiB per 1,000 deliveries: RSS ${minus('rss')}, V8 heap after a full GC ${minus('heap')}, RSS outside the heap ${minus('outside')}`,
		);
		const verdict = met
			? `met (${s.rss.per <= w.rss.per ? `Stora ${fixed(s.rss.per)} ≤ Webhook ${fixed(w.rss.per)} MiB per 1,000` : `Stora's second half ${fixed(s.rssSecondHalf.per)} ≤ ${LEVEL_MIB_PER_1000} MiB per 1,000: levelled off`})`
			: `not met (Stora ${fixed(s.rss.per)} > Webhook ${fixed(w.rss.per)} MiB per 1,000, and its second half ${fixed(s.rssSecondHalf.per)} > ${LEVEL_MIB_PER_1000})`;

		const { model } = machine();
		const minutes = Number(fixed((Date.now() - started) / 60_000, 0));
		const figures = {
			n8n: N8N_VERSION,
			deliveries: DELIVERIES,
			warmup: WARMUP,
			rate: RATE,
			batch: BATCH,
			storaRssPer1000: Number(fixed(s.rss.per)),
			storaRssPer1000Error: Number(fixed(s.rss.error)),
			webhookRssPer1000: Number(fixed(w.rss.per)),
			webhookRssPer1000Error: Number(fixed(w.rss.error)),
			storaRssSecondHalfPer1000: Number(fixed(s.rssSecondHalf.per)),
			webhookRssSecondHalfPer1000: Number(fixed(w.rssSecondHalf.per)),
			storaHeapPer1000: Number(fixed(s.heap.per)),
			webhookHeapPer1000: Number(fixed(w.heap.per)),
			storaOutsideHeapPer1000: Number(fixed(s.outside.per)),
			webhookOutsideHeapPer1000: Number(fixed(w.outside.per)),
			storaRssMiB: `${fixed(s.first, 1)}..${fixed(s.last, 1)}`,
			webhookRssMiB: `${fixed(w.first, 1)}..${fixed(w.last, 1)}`,
			met,
			machine: `${model || 'unknown CPU'}, ${os.cpus().length} cores`,
			minutes,
		};
		const cell = (g) =>
			`${pm(g.rss)} MiB (first half ${pm(g.rssFirstHalf)}, second ${pm(g.rssSecondHalf)}; ${fixed(g.first, 1)} MiB after the warm-up, ${fixed(g.last, 1)} at the end); V8 heap after a full GC ${pm(g.heap)}, RSS outside it ${pm(g.outside)}`;
		recordFigures('triggerMemory', 'rss', {
			figures,
			cells: [
				`n8n ${N8N_VERSION}, ${figures.machine}, ${minutes} minutes in all`,
				`${DELIVERIES.toLocaleString('en')} signed deliveries a side after ${WARMUP} each to warm up, in batches of ${BATCH} taking turns, sent at up to ${RATE}/s (reached: Stora Trigger ${fixed(s.count / s.seconds, 1)}/s, Webhook node ${fixed(w.count / w.seconds, 1)}/s)`,
				cell(s),
				cell(w),
				`${met ? 'met' : 'not met'} (levelled off: at most ${LEVEL_MIB_PER_1000} MiB per 1,000 over the second half); Stora minus Webhook: RSS ${minus('rss')} MiB, V8 heap ${minus('heap')}, RSS outside it ${minus('outside')}`,
			],
		});
		if (writingFigures()) {
			const quality = path.join(REPO, 'docs/quality.md');
			fs.writeFileSync(
				quality,
				replaceFiguresSection(
					fs.readFileSync(quality, 'utf8'),
					'triggerMemory',
					readFigures('triggerMemory'),
				),
			);
			log('wrote docs/figures/triggerMemory.json and its table in docs/quality.md');
		}
		console.log(`\n[trigger-memory] ${seconds(Date.now() - started)} in all`);
		console.log(`trigger memory: goal ${verdict}`);
		process.exitCode = met ? 0 : 1;
	} finally {
		await cleanUp();
	}
}

main().catch((error) => {
	console.error(`[trigger-memory] ${error.stack ?? error.message}`);
	process.exitCode = 1;
});
