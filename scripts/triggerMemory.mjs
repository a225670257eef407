// n8n's memory under many signed deliveries: the Stora Trigger against n8n's own Webhook node in one n8n 2.41.1
// (issue 53). Both workflows are published in the same n8n (N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true, as the README
// advises); the same signed deliveries go to each at the same rate, the sides taking turns in batches (S W W S, ...)
// so a drift of the shared machine or of n8n itself falls on both. After every batch, once its executions have
// finished, n8n is made to collect its garbage (a full GC through its inspector, started on a free loopback port) and
// its resident memory (VmRSS of n8n's process, and of its process group) and V8 heap are read; each batch's growth
// counts for the side that ran it.
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
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

import { ensureN8n, freePort, log, N8N_VERSION, packPackage, REPO, seconds, startN8n } from '../test/realN8n/n8n.mjs';
import { logAs } from '../test/realN8n/basics.mjs';
import { buildSandbox, startSandbox } from '../test/realN8n/sandbox.mjs';
import { contactCreatedBody, signature } from '../test/realN8n/sign.mjs';
import { until } from '../test/realN8n/wait.mjs';
import { chain, noOpNode, storaTriggerNode, webhookNode } from '../test/realN8n/workflow.mjs';
import { groupPids, loadAverage, machine, memory } from '../test/bench/proc.mjs';
import { readFigures, recordFigures, replaceFiguresSection, writingFigures } from '../test/helpers/figures.ts';

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
if (![DELIVERIES, WARMUP, RATE, BATCH].every((n) => Number.isInteger(n) && n > 0) || DELIVERIES % BATCH) {
	throw new Error('--deliveries, --warmup, --rate and --batch are positive whole numbers, the deliveries a multiple of the batch');
}

logAs('trigger-memory');

/**
 * n8n's inspector (Chrome DevTools Protocol over a WebSocket): a full garbage collection and the V8 heap in use after
 * it. Reached on the loopback port n8n was started with; nothing else is asked of it.
 */
async function inspector(port) {
	const [target] = await until(async () => {
		try {
			return await (await fetch(`http://127.0.0.1:${port}/json/list`)).json();
		} catch {
			return undefined;
		}
	}, `n8n's inspector on port ${port}`, { timeoutMs: 30_000 });
	const socket = new WebSocket(target.webSocketDebuggerUrl);
	await new Promise((resolve, reject) => {
		socket.addEventListener('open', resolve, { once: true });
		socket.addEventListener('error', () => reject(new Error("could not connect to n8n's inspector")), { once: true });
	});
	let nextId = 1;
	const waiting = new Map();
	socket.addEventListener('message', (message) => {
		const { id, result, error } = JSON.parse(String(message.data));
		const pending = waiting.get(id);
		if (!pending) return;
		waiting.delete(id);
		if (error) pending.reject(new Error(`inspector: ${error.message}`));
		else pending.resolve(result);
	});
	const call = (method, params = {}) =>
		new Promise((resolve, reject) => {
			const id = nextId++;
			waiting.set(id, { resolve, reject });
			socket.send(JSON.stringify({ id, method, params }));
		});
	return {
		async heapAfterGc() {
			await call('HeapProfiler.collectGarbage');
			return (await call('Runtime.getHeapUsage')).usedSize;
		},
		close: () => socket.close(),
	};
}

/** RSS of n8n's process and of its whole group (its task runner, when one runs), in bytes. */
function rssOf(pid) {
	const main = memory(pid).rssKb * 1024;
	let group = 0;
	for (const member of groupPids(pid)) {
		try {
			group += memory(member).rssKb * 1024;
		} catch {
			// exited meanwhile
		}
	}
	return { main, group };
}

/** Sends `count` deliveries to `url` at `RATE` per second (each on its slot, at most IN_FLIGHT open); all must be 200. */
async function deliver(url, count, make) {
	const started = Date.now();
	const statuses = new Map();
	let next = 0;
	const worker = async () => {
		while (next < count) {
			const index = next++;
			const due = started + (index * 1000) / RATE;
			if (due > Date.now()) await new Promise((resolve) => setTimeout(resolve, due - Date.now()));
			const { body, header } = make();
			const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-stora-signature': header }, body, signal: AbortSignal.timeout(60_000) });
			await res.arrayBuffer();
			statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
		}
	};
	await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
	const bad = [...statuses].filter(([status]) => status !== 200);
	if (bad.length) throw new Error(`deliveries to ${url} answered ${bad.map(([s, n]) => `${n} × ${s}`).join(', ')}`);
	return (Date.now() - started) / 1000;
}

/** Waits until `workflowId` has `total` finished executions (counted by n8n's execution list); none may have failed. */
async function executionsDone(n8n, workflowId, total) {
	const count = async (status) =>
		(await n8n.request('GET', `/rest/executions?filter=${encodeURIComponent(JSON.stringify({ workflowId, status }))}&limit=1`)).count;
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

/** What one side's batches added: RSS (n8n's process, its group) and heap, whole run and by half, per 1,000. */
function growthOf(batches) {
	const sum = (list, key) => list.reduce((total, b) => total + b.after[key] - b.before[key], 0);
	const per1000 = (list, key) => mib(sum(list, key)) / (list.reduce((n, b) => n + b.count, 0) / 1000);
	const half = Math.floor(batches.length / 2);
	return {
		rss: per1000(batches, 'rss'),
		group: per1000(batches, 'group'),
		heap: per1000(batches, 'heap'),
		rssFirstHalf: per1000(batches.slice(0, half), 'rss'),
		rssSecondHalf: per1000(batches.slice(half), 'rss'),
		// The noise a per-1,000 figure stands against: the smallest and largest change of RSS in one batch.
		rssBatchMin: Math.min(...batches.map((b) => mib(b.after.rss - b.before.rss))),
		rssBatchMax: Math.max(...batches.map((b) => mib(b.after.rss - b.before.rss))),
		seconds: batches.reduce((total, b) => total + b.seconds, 0),
		count: batches.reduce((n, b) => n + b.count, 0),
	};
}

/** The repository's commit, and whether the package's code differs from it. */
function commitOf() {
	const git = (...a) => execFileSync('git', a, { cwd: REPO, encoding: 'utf8' }).trim();
	try {
		const head = git('rev-parse', '--short', 'HEAD');
		return git('status', '--porcelain', '--', 'nodes', 'credentials') ? `${head} with local changes to nodes/` : head;
	} catch {
		return 'unknown';
	}
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
		const inspectPort = await freePort();
		const n8n = await startN8n({
			tarball,
			env: { N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE: 'true', NODE_OPTIONS: `--inspect=127.0.0.1:${inspectPort}` },
		});
		cleanups.push(() => n8n.stop());
		const probe = await inspector(inspectPort);
		cleanups.push(() => probe.close());
		log(`n8n ${N8N_VERSION} at ${n8n.base} (pid ${n8n.pid}), inspector on 127.0.0.1:${inspectPort}`);

		const credential = await n8n.createCredential('trigger memory (Stora)', 'storaApi', { baseUrl: sandbox.url, accessToken: sandbox.token });
		const publish = async (workflow) => {
			const created = await n8n.createWorkflow(workflow);
			await n8n.activate(created);
			return created;
		};
		// The same shapes as the benchmark's trigger case: each trigger into a No Operation node, answering at once.
		const stora = await publish(chain('memory: Stora Trigger', [storaTriggerNode('Stora Trigger', { events: ['contact.created'] }, credential, { typeVersion: 1.1 }), noOpNode()]));
		const plain = await publish(chain('memory: Webhook', [webhookNode('memory-plain-webhook', { responseMode: 'onReceived' }), noOpNode()]));
		const [endpoint] = await sandbox.control.state('webhook_endpoints');
		// The sandbox runs in this process: the secret it signs with (the API returns it only on create).
		const secret = sandbox.core.webhookSecrets.get(endpoint?.id);
		if (!endpoint?.url || !secret) throw new Error('publishing the Stora Trigger registered no endpoint with a secret');
		const [contact] = await sandbox.control.state('contacts');
		// Both sides get the same: a contact.created body with a fresh event id, signed as Stora signs.
		const make = () => {
			const body = contactCreatedBody(contact.id, 'evt_memory');
			return { body, header: signature(secret, body) };
		};
		const sides = {
			stora: { name: 'Stora Trigger', url: endpoint.url, workflow: stora, sent: 0, batches: [] },
			plain: { name: 'Webhook node', url: `${n8n.base}/webhook/memory-plain-webhook`, workflow: plain, sent: 0, batches: [] },
		};
		const reading = async () => {
			const heap = await probe.heapAfterGc();
			const { main: rss, group } = rssOf(n8n.pid);
			return { rss, group, heap };
		};
		const turn = async (key, count) => {
			const side = sides[key];
			const took = await deliver(side.url, count, make);
			side.sent += count;
			await executionsDone(n8n, side.workflow.id, side.sent);
			return took;
		};

		// The warm-up ends as every measured batch does, after a few forced collections: in a trial, the batch after the
		// first forced collection lost 10 MiB of RSS, which would have counted for whichever side ran it.
		log(`warm-up: ${WARMUP} deliveries to each side at ${RATE}/s, in two turns each (S W W S), each followed by a full GC`);
		const halves = [Math.ceil(WARMUP / 2), Math.floor(WARMUP / 2)];
		for (const [key, count] of [['stora', halves[0]], ['plain', halves[0]], ['plain', halves[1]], ['stora', halves[1]]]) {
			if (count) await turn(key, count);
			await reading();
		}
		const atStart = await reading();
		log(`after the warm-up: RSS ${fixed(mib(atStart.rss), 1)} MiB, heap ${fixed(mib(atStart.heap), 1)} MiB (after a full GC)`);

		// S W W S, W S S W, ...: each side runs first as often as second.
		const rounds = DELIVERIES / BATCH;
		const order = Array.from({ length: rounds }, (_, r) => (r % 2 === 0 ? ['stora', 'plain'] : ['plain', 'stora'])).flat();
		let before = atStart;
		for (const [index, key] of order.entries()) {
			const took = await turn(key, BATCH);
			const after = await reading();
			sides[key].batches.push({ before, after, count: BATCH, seconds: took });
			log(
				`${index + 1}/${order.length} ${sides[key].name}: ${sides[key].sent - WARMUP} measured, ${fixed(BATCH / took, 1)}/s; ` +
					`RSS ${fixed(mib(after.rss), 1)} MiB (${signed(mib(after.rss - before.rss))}), ` +
					`heap ${fixed(mib(after.heap), 1)} MiB (${signed(mib(after.heap - before.heap))}), load ${loadAverage()}`,
			);
			before = after;
		}

		const s = growthOf(sides.stora.batches);
		const w = growthOf(sides.plain.batches);
		const levelled = s.rssSecondHalf <= LEVEL_MIB_PER_1000;
		const met = s.rss <= w.rss || levelled;
		const line = (name, g) =>
			`${name}: RSS ${signed(g.rss)} MiB per 1,000 deliveries (first half ${signed(g.rssFirstHalf)}, second half ${signed(g.rssSecondHalf)}; ` +
			`process group ${signed(g.group)}; one batch of ${BATCH} ${signed(g.rssBatchMin)} to ${signed(g.rssBatchMax)} MiB), heap after a full GC ${signed(g.heap)}; ${g.count} deliveries at ${fixed(g.count / g.seconds, 1)}/s`;
		console.log(`\n${line('Stora Trigger', s)}\n${line('Webhook node', w)}`);
		const verdict = met
			? `met (${s.rss <= w.rss ? `Stora ${fixed(s.rss)} ≤ Webhook ${fixed(w.rss)} MiB per 1,000` : `Stora's second half ${fixed(s.rssSecondHalf)} ≤ ${LEVEL_MIB_PER_1000} MiB per 1,000: levelled off`})`
			: `not met (Stora ${fixed(s.rss)} > Webhook ${fixed(w.rss)} MiB per 1,000, and its second half ${fixed(s.rssSecondHalf)} > ${LEVEL_MIB_PER_1000})`;

		const measured = new Date().toISOString();
		const { model } = machine();
		const figures = {
			n8n: N8N_VERSION,
			deliveries: DELIVERIES,
			warmup: WARMUP,
			rate: RATE,
			batch: BATCH,
			storaRssPer1000: Number(fixed(s.rss)),
			webhookRssPer1000: Number(fixed(w.rss)),
			storaRssSecondHalfPer1000: Number(fixed(s.rssSecondHalf)),
			webhookRssSecondHalfPer1000: Number(fixed(w.rssSecondHalf)),
			storaBatchRssRangeMiB: `${fixed(s.rssBatchMin)}..${fixed(s.rssBatchMax)}`,
			webhookBatchRssRangeMiB: `${fixed(w.rssBatchMin)}..${fixed(w.rssBatchMax)}`,
			storaHeapPer1000: Number(fixed(s.heap)),
			webhookHeapPer1000: Number(fixed(w.heap)),
			rssAfterWarmupMiB: Number(fixed(mib(atStart.rss), 1)),
			rssAtEndMiB: Number(fixed(mib(before.rss), 1)),
			met,
			commit: commitOf(),
			machine: `${model || 'unknown CPU'}, ${os.cpus().length} cores`,
			minutes: Number(fixed((Date.now() - started) / 60_000, 0)),
		};
		recordFigures('triggerMemory', 'rss', {
			measured,
			figures,
			cells: [
				`${measured.slice(0, 10)}, commit ${figures.commit}, n8n ${N8N_VERSION}, ${figures.machine}, ${fixed((Date.now() - started) / 60_000, 0)} minutes in all`,
				`${DELIVERIES.toLocaleString('en')} signed deliveries a side after ${WARMUP} each to warm up, in batches of ${BATCH} taking turns, sent at up to ${RATE}/s (reached: Stora Trigger ${fixed(s.count / s.seconds, 1)}/s, Webhook node ${fixed(w.count / w.seconds, 1)}/s)`,
				`${signed(s.rss)} MiB (first half ${signed(s.rssFirstHalf)}, second ${signed(s.rssSecondHalf)}; one batch ${signed(s.rssBatchMin)} to ${signed(s.rssBatchMax)} MiB); V8 heap after a full GC ${signed(s.heap)}`,
				`${signed(w.rss)} MiB (first half ${signed(w.rssFirstHalf)}, second ${signed(w.rssSecondHalf)}; one batch ${signed(w.rssBatchMin)} to ${signed(w.rssBatchMax)} MiB); V8 heap after a full GC ${signed(w.heap)}`,
				`${met ? 'met' : 'not met'} (levelled off: at most ${LEVEL_MIB_PER_1000} MiB per 1,000 over the second half); RSS ${fixed(mib(atStart.rss), 1)} MiB after the warm-up, ${fixed(mib(before.rss), 1)} MiB at the end`,
			],
		});
		if (writingFigures()) {
			const quality = path.join(REPO, 'docs/quality.md');
			fs.writeFileSync(quality, replaceFiguresSection(fs.readFileSync(quality, 'utf8'), 'triggerMemory', readFigures('triggerMemory')));
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
