// The packed package inside n8n 2.41.1 in queue mode: main + 2 workers + 1 webhook processor on PostgreSQL and Redis.
//
//   npm run test:queue [-- options]
//     --deliveries <n>      signed Stora Trigger deliveries (default 500)
//     --writes <n>          Contact → Create items spread over concurrent executions (default 200)
//     --burst <n>           deliveries emitted at once before waiting for them to arrive (default 25)
//     --rate-limit <spec>   the sandbox account's limits, <n>/s,<m>/min (default 10/s,600/min)
//     --keep                leave everything running at the end (Ctrl-C stops it)
//
// Steps: PostgreSQL and Redis from Debian's packages (apt-get when missing) on free loopback ports in temporary folders;
// n8n installed (cached in .cache/), the sandbox compiled, this package built, packed and installed into the user
// folder all n8n processes share; the sandbox (rate limited, http webhooks allowed) in this process; main, then the
// workers and the webhook processor. Then the checks below. Ends with "N passed, N failed"; exits 1 on any failure.
// Everything it started is stopped by PID (also on failure and Ctrl-C) and the temporary folders are removed.
import { createHash, createHmac, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual, parseArgs } from 'node:util';

import { loadExamples, withCredentials } from '../realN8n/examples.mjs';
import { atLeastOnce, noEventLostWhileStalled, postgresRefusal } from '../realN8n/triggerLife.mjs';
import { forgedDeliveries } from '../realN8n/forged.mjs';
import { ensureN8n, installPackage, N8N_VERSION, packPackage, randomId, seconds, sleep } from '../realN8n/n8n.mjs';
import { authorizationCodeCredential, buildSandbox, connectOAuth2, startSandbox } from '../realN8n/sandbox.mjs';
import { collectSecrets } from '../realN8n/secrets.mjs';
import { assert, createHarness, indent } from '../realN8n/harness.mjs';
import { executionsByWorker, startCluster, workerOf } from './cluster.mjs';
import { ensureServices, startPostgres, startRedis } from './services.mjs';

const { values: args } = parseArgs({
	options: {
		deliveries: { type: 'string', default: '500' },
		writes: { type: 'string', default: '200' },
		burst: { type: 'string', default: '25' },
		'rate-limit': { type: 'string', default: '10/s,600/min' },
		keep: { type: 'boolean', default: false },
	},
});
const DELIVERIES = Number(args.deliveries);
const WRITES = Number(args.writes);
const BURST = Number(args.burst);
const RATE = /^(\d+)\/s,(\d+)\/min$/.exec(args['rate-limit']);
if (!RATE || !(DELIVERIES > 0) || !(WRITES > 0) || !(BURST > 0)) {
	console.error('usage: npm run test:queue -- [--deliveries n] [--writes n] [--burst n] [--rate-limit <n>/s,<m>/min] [--keep]');
	process.exit(2);
}
const RATE_LIMIT = { perSecond: Number(RATE[1]), perMinute: Number(RATE[2]) };

const NODE_TYPE = 'n8n-nodes-stora.stora';
const TRIGGER_TYPE = 'n8n-nodes-stora.storaTrigger';
const figures = [];
const { log, timings, cleanups, timed, check, run: runSuite } = createHarness('[queue]', {
	report: {
		start: (name) => log(`check: ${name}`),
		passed: (name, time) => log(`passed: ${name} (${time})`),
		failed: (name, time, error) => log(`FAILED: ${name} (${time})\n${indent(error.stack ?? error.message)}`),
	},
	width: 72,
	prefixHeadings: true,
	sections: () => [['Figures', figures]],
	summaryOnInterrupt: true,
});

// ------------------------------------------------------------------------------------------------ checks

function figure(text) {
	figures.push(text);
	log(`figures: ${text}`);
}

/** Polls `probe` (a value, or undefined to keep waiting) until the deadline; progress every 10 s. */
async function until(what, probe, { timeoutMs = 60_000, every = 250, progress } = {}) {
	const deadline = Date.now() + timeoutMs;
	let lastReport = Date.now();
	for (;;) {
		const value = await probe();
		if (value !== undefined && value !== false) return value;
		if (Date.now() > deadline) throw new Error(`${what}: not reached after ${timeoutMs / 1000} s${progress ? ` (${await progress()})` : ''}`);
		if (progress && Date.now() - lastReport >= 10_000) {
			lastReport = Date.now();
			log(`  waiting for ${what}: ${await progress()}`);
		}
		await sleep(every);
	}
}

/** Runs `fn` over `items` with at most `limit` at a time; resolves to the results in order. */
async function pool(items, limit, fn) {
	const out = new Array(items.length);
	let next = 0;
	await Promise.all(
		Array.from({ length: Math.min(limit, items.length) }, async () => {
			while (next < items.length) {
				const i = next++;
				out[i] = await fn(items[i], i);
			}
		}),
	);
	return out;
}

const countBy = (values) => values.reduce((map, v) => map.set(v, (map.get(v) ?? 0) + 1), new Map());
const describeCounts = (map) => [...map].map(([k, v]) => `${k}: ${v}`).join(', ');

// ------------------------------------------------------------------------------------------------ workflows

const position = (i) => [240 * i, 0];

function storaNode(name, parameters, credential, i = 1) {
	return {
		id: randomUUID(),
		name,
		type: NODE_TYPE,
		typeVersion: 1,
		position: position(i),
		parameters: { authentication: credential.type === 'storaApi' ? 'accessToken' : 'oAuth2', ...parameters },
		credentials: { [credential.type]: { id: credential.id, name: credential.name } },
	};
}

function webhookNode(webhookPath) {
	return {
		id: randomUUID(),
		name: 'Webhook',
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		position: position(0),
		webhookId: randomUUID(),
		parameters: { httpMethod: 'POST', path: webhookPath, responseMode: 'lastNode', responseData: 'allEntries', options: {} },
	};
}

/** A workflow whose nodes run in a chain. */
function chain(name, nodes) {
	const connections = {};
	for (let i = 0; i + 1 < nodes.length; i++) connections[nodes[i].name] = { main: [[{ node: nodes[i + 1].name, type: 'main', index: 0 }]] };
	return { name: `queue: ${name}`, nodes, connections, settings: { executionOrder: 'v1' } };
}

/** POSTs JSON to a production webhook on the webhook processor. */
async function callWebhook(ctx, webhookPath, body) {
	const res = await fetch(`${ctx.cluster.webhookBase}/webhook/${webhookPath}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body ?? {}),
		signal: AbortSignal.timeout(300_000),
	});
	const text = await res.text();
	let parsed = text;
	try {
		parsed = JSON.parse(text);
	} catch {
		// not JSON
	}
	return { status: res.status, body: parsed, text };
}

/**
 * The executions of a workflow as n8n's REST API lists them (pages of 100 by `cursor`/`nextCursor`; the e2e helper's
 * `lastId` is refused by 2.41). Only for comparison: with executions starting out of id order, as two workers make
 * them, this listing can repeat rows, so the test counts in PostgreSQL and reads each execution by id.
 */
async function listedExecutions(ctx, workflowId) {
	const filter = encodeURIComponent(JSON.stringify({ workflowId }));
	const all = [];
	let cursor;
	for (;;) {
		const data = await ctx.main.request('GET', `/rest/executions?filter=${filter}&limit=100${cursor ? `&cursor=${cursor}` : ''}`);
		const page = data.results ?? data;
		all.push(...page);
		cursor = data.nextCursor;
		if (!cursor || !page.length) return all;
	}
}

const FINISHED = ['success', 'error', 'crashed', 'canceled'];

/** Every execution of a workflow in n8n's PostgreSQL, newest first: [{ id, status, mode }]. */
function executionRows(ctx, workflowId) {
	return ctx.pg
		.query(`select id || ' ' || status || ' ' || mode from execution_entity where "workflowId" = '${String(workflowId).replace(/'/g, '')}' order by id desc`)
		.split('\n')
		.filter(Boolean)
		.map((line) => {
			const [id, status, mode] = line.split(' ');
			return { id, status, mode };
		});
}

/** Waits (polling PostgreSQL) until a workflow has at least `count` finished executions; returns all its rows. */
async function finishedExecutions(ctx, workflowId, count, { timeoutMs = 60_000 } = {}) {
	let rows = [];
	const done = () => rows.filter((r) => FINISHED.includes(r.status)).length;
	await until(
		`${count} finished executions of workflow ${workflowId}`,
		() => {
			rows = executionRows(ctx, workflowId);
			return done() >= count || undefined;
		},
		{ timeoutMs, every: 250, progress: () => `${done()} of ${count} finished` },
	);
	return rows;
}

/** The worker that ran each execution (from the workers' logs); throws when one ran on no worker. */
function workersOf(ctx, executionIds) {
	const byWorker = executionsByWorker(ctx.cluster.workers);
	return executionIds.map((id) => {
		const names = [...byWorker].filter(([, ids]) => ids.includes(String(id))).map(([name]) => name);
		if (names.length !== 1) throw new Error(`execution ${id} was started by ${names.length ? names.join(' and ') : 'no worker'}`);
		return names[0];
	});
}

/** The items a node output in an execution (its first run, first output), or undefined when it did not run. */
const outputOf = (execution, nodeName) => {
	const runs = execution.data?.resultData?.runData?.[nodeName];
	return runs ? (runs[0]?.data?.main?.[0] ?? []).map((item) => item.json) : undefined;
};

/** The id of the event the execution's Stora Trigger output (whatever the trigger node is called). */
const eventIdOf = (execution) => {
	const trigger = execution.workflowData?.nodes?.find((n) => n.type === TRIGGER_TYPE)?.name ?? 'Stora Trigger';
	return outputOf(execution, trigger)?.[0]?.id;
};

/** For a failure message: when and where executions ran, which event each was for, and the deliveries of those events. */
async function describeExecutions(ctx, ids) {
	const lines = [];
	for (const id of ids.slice(0, 10)) {
		const row = ctx.pg.query(`select status, mode, "createdAt", "startedAt", "stoppedAt" from execution_entity where id = ${Number(id)}`);
		const execution = await ctx.main.execution(id).catch(() => undefined);
		const eventId = execution ? eventIdOf(execution) : undefined;
		const deliveries = ctx.sandbox.core.webhooks.deliveries.filter((d) => d.event_id === eventId).map((d) => `attempt ${d.attempt} ${d.status ?? d.error} at ${d.at}`);
		lines.push(`execution ${id} [${row}] on ${workerOf(ctx.cluster.workers, id) ?? 'no worker'}: event ${eventId}; deliveries: ${deliveries.join('; ') || 'none'}`);
	}
	return lines.join('\n');
}

const sign = (secret, timestamp, body) => createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex');

/**
 * Delivers an event already delivered once again, as Stora's retry does: the same event (same id) in the same
 * envelope, signed again with the endpoint's secret and a fresh timestamp, with a new X-Stora-Request-Id; to the
 * endpoint's URL, or the same path on another webhook processor (`base`). Resolves to the answer's status and body.
 */
async function redeliver(endpoint, secret, event, base) {
	const body = JSON.stringify({ event: { ...event, api_version: endpoint.api_version ?? '2025-09' } });
	const t = Math.floor(Date.now() / 1000);
	const url = base ? `${base}${new URL(endpoint.url).pathname}` : endpoint.url;
	const res = await fetch(url, {
		method: 'POST',
		headers: {
			'content-type': 'application/json',
			'user-agent': 'Stora-Webhooks/1.0',
			'x-stora-request-id': randomUUID(),
			'x-stora-signature': `t=${t},v1=${sign(secret, t, body)}`,
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

// ------------------------------------------------------------------------------------------------ main

async function main() {
	const work = fs.mkdtempSync(path.join(os.tmpdir(), 'stora-queue-'));
	cleanups.push(() => fs.rmSync(work, { recursive: true, force: true }));

	const { pgBin, redisServer } = await timed('PostgreSQL and Redis binaries (apt-get when missing)', () => ensureServices());
	const installTimings = await timed('n8n install (cached when unchanged)', () => ensureN8n());
	for (const [k, v] of Object.entries(installTimings)) timings.push([`  n8n install: ${k}`, v]);
	await timed('sandbox compile (tsc)', () => buildSandbox());
	const { tarball } = await timed('package build + npm pack', () => packPackage(path.join(work, 'pack')));

	const pg = await timed('PostgreSQL start (initdb, server, database)', () => startPostgres(pgBin));
	cleanups.push(() => pg.stop());
	log(`PostgreSQL ${pg.host}:${pg.port} (pid ${pg.pid})`);
	const redis = await timed('Redis start', () => startRedis(redisServer));
	cleanups.push(() => redis.stop());
	log(`Redis ${redis.host}:${redis.port} (pid ${redis.pid})`);

	const userFolder = path.join(work, 'n8n');
	const pkg = await timed('package install into the shared user folder (.n8n/nodes)', () => installPackage(userFolder, tarball));
	log(`installed ${pkg.name}@${pkg.version} into <user folder>/.n8n/nodes`);

	const sandbox = await timed('sandbox start', () => startSandbox({ seed: 'demo', rateLimit: RATE_LIMIT }));
	cleanups.push(() => sandbox.close());
	log(`sandbox at ${sandbox.url}, rate limit ${RATE_LIMIT.perSecond}/s and ${RATE_LIMIT.perMinute}/min per token`);

	const procs = [];
	cleanups.push(async () => {
		// The webhook processor first (nothing new comes in), then the workers, then main.
		for (const proc of [...procs].reverse()) {
			await proc.stop();
			log(`stopped n8n ${proc.name} (pid ${proc.pid})`);
		}
	});
	const cluster = await timed(`n8n ${N8N_VERSION} queue mode start (main, then 2 workers + webhook processor)`, () =>
		startCluster({ userFolder, pg, redis, workers: 2, webhooks: 2, onStarted: (proc) => procs.push(proc), log }),
	);
	const main = cluster.main;
	const ctx = { main, cluster, sandbox, pg, redis, workflows: [] };
	const secrets = new Set([pg.password, redis.password, cluster.env.N8N_ENCRYPTION_KEY]);
	const reset = async (seed = 'demo') => {
		collectSecrets(sandbox, secrets);
		await sandbox.control.reset(seed);
	};

	await check('every process runs in queue mode on PostgreSQL and Redis, and loads the packed package', async () => {
		const nodeTypes = (await main.request('GET', '/types/nodes.json')).map((t) => t.name);
		for (const type of [NODE_TYPE, TRIGGER_TYPE]) assert(nodeTypes.includes(type), `main did not register ${type}`);
		const tables = Number(pg.query("select count(*) from information_schema.tables where table_name in ('execution_entity', 'workflow_entity', 'credentials_entity')"));
		assert(tables === 3, `n8n's tables are not in PostgreSQL (${tables} of 3)`);
		for (const proc of cluster.all) {
			const text = fs.readFileSync(proc.logFile, 'utf8');
			assert(!/error.*n8n-nodes-stora|n8n-nodes-stora.*(error|failed)/i.test(text), `n8n ${proc.name} logged an error about the package`);
		}
		for (const worker of cluster.workers) {
			const text = fs.readFileSync(worker.logFile, 'utf8');
			assert(/n8n worker is now ready|Worker .*ready/i.test(text) || (await fetch(`${worker.base}/healthz/readiness`)).ok, `${worker.name} not ready`);
		}
		const queueMode = await main.request('GET', '/rest/settings');
		assert(queueMode.executionMode === 'queue', `main reports execution mode ${queueMode.executionMode}`);
	});

	ctx.token = await main.createCredential('Stora sandbox (token)', 'storaApi', { baseUrl: sandbox.url, accessToken: sandbox.token });

	// ---------------------------------------------------------------------------------------- Stora Trigger
	/** The one webhook endpoint a just-published Stora Trigger registered: on the webhook processor, for `eventTypes`, with a secret. */
	const registeredEndpoint = async (eventTypes) => {
		const endpoints = await sandbox.control.state('webhook_endpoints');
		assert(endpoints.length === 1, `${endpoints.length} endpoints after publishing`);
		const [endpoint] = endpoints;
		assert(endpoint.url.startsWith(`${cluster.webhookBase}/webhook/`), `endpoint URL ${endpoint.url} is not on the webhook processor (${cluster.webhookBase})`);
		assert(JSON.stringify(endpoint.event_types) === JSON.stringify(eventTypes), `event types ${JSON.stringify(endpoint.event_types)}`);
		assert(sandbox.core.webhookSecrets.get(endpoint.id), 'the sandbox holds no secret for the endpoint');
		return endpoint;
	};

	let trigger;
	await check('Stora Trigger: publishing on main registers one endpoint in Stora for the webhook processor\'s URL', async () => {
		await reset();
		const workflow = await main.createWorkflow(
			chain('Stora Trigger → Done', [
				{ ...storaNode('Stora Trigger', { events: ['contact.created'] }, ctx.token, 0), type: TRIGGER_TYPE, webhookId: randomUUID() },
				{ id: randomUUID(), name: 'Done', type: 'n8n-nodes-base.noOp', typeVersion: 1, position: position(1), parameters: {} },
			]),
		);
		ctx.workflows.push(workflow);
		await sandbox.control.clearRequests();
		await main.activate(workflow);
		const endpoint = await registeredEndpoint(['contact.created']);
		const registrations = (await sandbox.control.requests()).filter((r) => r.path === '/2025-09/webhook_endpoints' && r.method === 'POST');
		assert(registrations.length === 1 && registrations[0].status < 300, `registrations: ${JSON.stringify(registrations.map((r) => r.status))}`);
		const secret = sandbox.core.webhookSecrets.get(endpoint.id);
		trigger = { workflow, endpoint, secret, events: [] };
	});

	if (trigger) {
		await check(`${DELIVERIES} signed deliveries to the webhook processor start exactly ${DELIVERIES} executions on the workers (none lost, none twice)`, async () => {
			const contacts = await sandbox.control.state('contacts');
			await sandbox.control.clearDeliveries();
			const started = Date.now();
			for (let sent = 0; sent < DELIVERIES; sent += BURST) {
				const size = Math.min(BURST, DELIVERIES - sent);
				const emitted = await Promise.all(
					Array.from({ length: size }, (_, i) => sandbox.control.emit('contact.created', contacts[(sent + i) % contacts.length].id)),
				);
				trigger.events.push(...emitted);
				// The sandbox delivers each event at once; wait until this burst has been answered before the next.
				await until(`deliveries ${sent + 1}-${sent + size} answered`, () => sandbox.core.webhooks.deliveries.length >= sent + size || undefined, { timeoutMs: 60_000, every: 50 });
				if ((sent + size) % 100 === 0 || sent + size === DELIVERIES) log(`  ${sent + size} of ${DELIVERIES} deliveries answered (${seconds(Date.now() - started)})`);
			}
			const deliveredMs = Date.now() - started;
			const deliveries = await sandbox.control.deliveries();
			const statuses = countBy(deliveries.map((d) => `${d.status ?? d.error} (attempt ${d.attempt})`));
			assert(deliveries.length === DELIVERIES && statuses.get('200 (attempt 1)') === DELIVERIES, `deliveries: ${describeCounts(statuses)}`);
			assert(deliveries.every((d) => d.url === trigger.endpoint.url), 'a delivery went elsewhere than the endpoint');

			const summaries = await finishedExecutions(ctx, trigger.workflow.id, DELIVERIES, { timeoutMs: 300_000 });
			const doneMs = Date.now() - started;
			assert(summaries.length === DELIVERIES, `${summaries.length} executions for ${DELIVERIES} deliveries`);
			const statusCounts = countBy(summaries.map((e) => `${e.status}/${e.mode}`));
			assert(statusCounts.get('success/webhook') === DELIVERIES, `executions: ${describeCounts(statusCounts)}`);
			const executions = await pool(summaries, 6, (s) => main.execution(s.id));
			const eventIds = executions.map(eventIdOf);
			const seen = countBy(eventIds);
			const lost = trigger.events.filter((e) => !seen.has(e.id));
			const twice = [...seen].filter(([, n]) => n > 1);
			const foreign = eventIds.filter((id) => !trigger.events.some((e) => e.id === id));
			if (lost.length || twice.length || foreign.length) {
				const suspects = executions.filter((e) => twice.some(([id]) => id === eventIdOf(e)) || foreign.includes(eventIdOf(e))).map((e) => e.id);
				throw new Error(`${lost.length} events lost, ${twice.length} twice, ${foreign.length} unknown\n${await describeExecutions(ctx, suspects)}`);
			}
			const workers = countBy(workersOf(ctx, summaries.map((s) => s.id)));
			assert(workers.size === cluster.workers.length, `only ${describeCounts(workers)} ran executions`);
			figure(
				`${DELIVERIES} deliveries (bursts of ${BURST}) all answered 200 in ${seconds(deliveredMs)}; ${DELIVERIES} executions, each event once, all finished ${seconds(doneMs)} after the first; per worker: ${describeCounts(workers)}`,
			);
			const listed = await listedExecutions(ctx, trigger.workflow.id);
			figure(`n8n's REST execution list for the same workflow: ${listed.length} rows, ${new Set(listed.map((e) => e.id)).size} distinct (PostgreSQL: ${summaries.length})`);
		});

		await check('a redelivered event (same event id, signed again) is answered 200 duplicate by the webhook processor that took it, and starts one more execution only on a second processor (memory per process)', async () => {
			// The Stora Trigger remembers accepted event ids per process: a redelivery to the processor that took the
			// event starts nothing; one to another processor behind the same URL starts a second execution, which
			// the deal-lost-task example (next check) drops with Remove Duplicates on the event id.
			assert(trigger.events.length, 'no event was delivered before');
			const before = executionRows(ctx, trigger.workflow.id).length;
			const [event] = trigger.events;
			const same = await redeliver(trigger.endpoint, trigger.secret, event);
			assert(same.status === 200 && same.body?.duplicate === true && same.body?.event_id === event.id, `redelivery to the same processor answered ${same.status} ${JSON.stringify(same.body)}`);
			const other = await redeliver(trigger.endpoint, trigger.secret, event, cluster.webhookBases[1]);
			assert(other.status === 200 && other.body?.duplicate !== true, `redelivery to the second processor answered ${other.status} ${JSON.stringify(other.body)}`);
			const summaries = await finishedExecutions(ctx, trigger.workflow.id, before + 1);
			const newest = await main.execution(summaries[0].id);
			const id = eventIdOf(newest);
			if (summaries.length !== before + 1 || id !== event.id) {
				throw new Error(`${summaries.length - before} new executions (expected 1, for event ${event.id}):\n${await describeExecutions(ctx, summaries.slice(0, summaries.length - before).map((e) => e.id))}`);
			}
			// The same redelivery again at the second processor is now a duplicate there too.
			const again = await redeliver(trigger.endpoint, trigger.secret, event, cluster.webhookBases[1]);
			assert(again.status === 200 && again.body?.duplicate === true, `second redelivery to the second processor answered ${again.status} ${JSON.stringify(again.body)}`);
			trigger.redelivered = 1;
			figure(`event ${event.id.slice(0, 8)}… redelivered 3 times → 200 duplicate at the processor that took it, 1 more execution from the second processor (${workerOf(cluster.workers, summaries[0].id)} ran it), then 200 duplicate there too`);
		});

		await main.deactivate(trigger.workflow);
	}

	// Issue 38: the webhook processor stores the execution (then queues it) before it answers Stora.
	for (const mode of ['fresh', 'first']) {
		await check(`no event lost (retries signed with the ${mode} timestamp): the webhook processor cannot store the execution and answers 500; Stora's retry starts it once on a worker with its data; a replay starts none`, async () => {
			await reset();
			const figures = await atLeastOnce({ n8n: main, sandbox, credential: ctx.token, mode, refusal: postgresRefusal(pg) });
			figure(`first attempt ${figures.first}, retry ${figures.retry}, ${figures.executions} execution, replay ${figures.replay} duplicate`);
		});
	}
	await sandbox.control.configure({ retry_timestamp: 'fresh' });
	await check("no event lost while Redis does not answer the webhook processor past Stora's timeout: after Redis is back and Stora retries, one execution of the event", async () => {
		await reset();
		// SIGSTOP: Redis keeps its connections open and answers nothing, as a stalled or unreachable Redis does.
		const stall = { on: () => process.kill(redis.pid, 'SIGSTOP'), off: () => process.kill(redis.pid, 'SIGCONT') };
		const figures = await noEventLostWhileStalled({ n8n: main, sandbox, credential: ctx.token, stall });
		figure(`first attempt ${figures.first}, retry ${figures.retry}, ${figures.executions} execution`);
	});

	let dedupe;
	await check('the deal-lost-task example dedupes a redelivered event (same event id, signed again) that a second webhook processor accepts: 2 executions, 1 win-back task, the second stops at "Skip redelivered events"', async () => {
		await reset();
		const { workflow: example } = loadExamples().find(({ file }) => file === 'deal-lost-task.json');
		const workflow = await main.createWorkflow(withCredentials(example, { storaApi: ctx.token }));
		ctx.workflows.push(workflow);
		await main.activate(workflow);
		const endpoint = await registeredEndpoint(['deal.lost']);
		const secret = sandbox.core.webhookSecrets.get(endpoint.id);
		dedupe = { workflow, executions: 0 };

		const deal = (await sandbox.control.state('deals')).find((d) => d.status === 'lost');
		assert(deal, 'the demo seed has no lost deal');
		const contactId = deal.contact.id;
		const tasksOf = async () => (await sandbox.control.state('tasks')).filter((task) => task.resource?.id === contactId);
		const tasksBefore = (await tasksOf()).map((task) => task.id);
		await sandbox.control.clearDeliveries();

		const started = Date.now();
		const event = await sandbox.control.emit('deal.lost', deal.id);
		await until('the deal.lost delivery answered', () => sandbox.core.webhooks.deliveries.length >= 1 || undefined, { timeoutMs: 60_000, every: 50 });
		const deliveries = await sandbox.control.deliveries();
		assert(
			deliveries.length === 1 && deliveries[0].status === 200 && deliveries[0].event_id === event.id && deliveries[0].url === endpoint.url,
			`deliveries: ${JSON.stringify(deliveries.map((d) => [d.event_id, d.status ?? d.error, d.attempt]))}`,
		);
		dedupe.executions = 1;
		await finishedExecutions(ctx, workflow.id, 1);
		// To the second webhook processor: the first one would answer 200 duplicate from its own memory.
		const { status } = await redeliver(endpoint, secret, event, cluster.webhookBases[1]);
		assert(status === 200, `redelivery answered ${status}`);
		dedupe.executions = 2;
		const rows = await finishedExecutions(ctx, workflow.id, 2);
		const ms = Date.now() - started;
		assert(rows.length === 2, `${rows.length} executions for 2 deliveries of one event:\n${await describeExecutions(ctx, rows.map((r) => r.id))}`);
		assert(rows.every((r) => r.status === 'success' && r.mode === 'webhook'), `executions: ${describeCounts(countBy(rows.map((r) => `${r.status}/${r.mode}`)))}`);

		const [first, second] = await Promise.all([...rows].reverse().map((r) => main.execution(r.id)));
		const delivered = [first, second].map((execution) => outputOf(execution, 'Deal lost')?.[0]);
		assert(
			delivered.every((item) => item?.id === event.id && item?.data?.deal?.id === deal.id),
			`the trigger output events ${delivered.map((item) => `${item?.id} (deal ${item?.data?.deal?.id})`).join(' and ')}, expected ${event.id} (deal ${deal.id}) twice`,
		);
		assert(delivered[0].request_id !== delivered[1].request_id, 'both deliveries carried the same X-Stora-Request-Id');
		const kept = [first, second].map((execution) => outputOf(execution, 'Skip redelivered events')?.length);
		assert(kept[0] === 1, `first execution: "Skip redelivered events" output ${kept[0]} items, expected 1`);
		const task = outputOf(first, 'Win-back task');
		assert(task?.length === 1 && /^task_/.test(task[0].id) && task[0].metadata?.lost_deal === deal.id, `first execution: "Win-back task" output ${JSON.stringify(task)?.slice(0, 300)}`);
		assert(kept[1] === 0, `second execution: "Skip redelivered events" output ${kept[1]} items, expected 0`);
		const secondLast = second.data?.resultData?.lastNodeExecuted;
		assert(outputOf(second, 'Win-back task') === undefined, `second execution ran "Win-back task" (last node ${secondLast})`);

		// Remove Duplicates keeps the seen keys (MD5, base64) in n8n's database, which both workers share.
		const stored = pg.query(`select value from processed_data where "workflowId" = '${String(workflow.id).replace(/'/g, '')}'`).split('\n').filter(Boolean);
		const hash = createHash('md5').update(event.id).digest('base64');
		assert(
			stored.length === 1 && isDeepStrictEqual(JSON.parse(stored[0]), { mode: 'entries', data: [hash] }),
			`n8n's processed_data rows for the workflow: ${JSON.stringify(stored)}, expected one holding the event id's key ${hash}`,
		);

		const created = (await tasksOf()).filter((t) => !tasksBefore.includes(t.id));
		assert(
			created.length === 1 && created[0].id === task[0].id && created[0].metadata?.lost_deal === deal.id,
			`${created.length} new tasks on contact ${contactId}: ${JSON.stringify(created.map((t) => [t.id, t.metadata]))}`,
		);
		const workers = workersOf(ctx, [...rows].reverse().map((r) => r.id));
		figure(
			`deal-lost-task example: event ${event.id.slice(0, 8)}… delivered twice → 2 executions (${workers.join(', ')}), 1 win-back task; the second stopped at "${secondLast}" with 0 items (the event's key in n8n's PostgreSQL), in ${seconds(ms)}`,
		);

		await main.deactivate(workflow);
		const left = await sandbox.control.state('webhook_endpoints');
		assert(!left.some((e) => e.id === endpoint.id), 'the endpoint is still registered after unpublishing');
	});

	await check('forged deliveries to the webhook processor are answered 4xx and start nothing; genuine ones start one each', async () => {
		await reset();
		const workflow = await main.createWorkflow(
			chain('forged deliveries', [
				{ ...storaNode('Stora Trigger', { events: ['contact.created'] }, ctx.token, 0), type: TRIGGER_TYPE, webhookId: randomUUID() },
				{ id: randomUUID(), name: 'Done', type: 'n8n-nodes-base.noOp', typeVersion: 1, position: position(1), parameters: {} },
			]),
		);
		ctx.workflows.push(workflow);
		const result = await forgedDeliveries({ n8n: main, sandbox, workflow });
		const [endpoint] = await sandbox.control.state('webhook_endpoints').catch(() => []);
		assert(!endpoint, 'the endpoint is still registered after unpublishing');
		const summaries = executionRows(ctx, workflow.id);
		const workers = countBy(workersOf(ctx, summaries.map((s) => s.id)));
		figure(`${result.forged} forged deliveries of ${result.kinds} kinds all refused; ${result.genuine} genuine → ${result.executions} executions (${describeCounts(workers)})`);
	});

	// ---------------------------------------------------------------------------------------- actions on workers
	await check('Return All on the workers is exact: 4 concurrent runs each return every site once, as stored, in the API\'s order', async () => {
		await reset();
		await sandbox.control.addSites(230);
		const expected = await sandbox.control.state('sites');
		const workflow = await main.createWorkflow(
			chain('Return All', [webhookNode('queue-return-all'), storaNode('Stora', { resource: 'site', operation: 'getAll', returnAll: true }, ctx.token)]),
		);
		ctx.workflows.push(workflow);
		await main.activate(workflow);
		await sandbox.control.clearRequests();
		const responses = await Promise.all(Array.from({ length: 4 }, () => callWebhook(ctx, 'queue-return-all', {})));
		const byId = new Map(expected.map((s) => [s.id, s]));
		for (const [i, response] of responses.entries()) {
			assert(response.status === 200 && Array.isArray(response.body), `run ${i + 1}: HTTP ${response.status} ${response.text.slice(0, 300)}`);
			const ids = response.body.map((s) => s.id);
			assert(ids.length === expected.length && new Set(ids).size === ids.length, `run ${i + 1}: ${ids.length} sites (${new Set(ids).size} distinct), the sandbox has ${expected.length}`);
			const wrong = response.body.filter((s) => !isDeepStrictEqual(byId.get(s.id), s));
			assert(!wrong.length, `run ${i + 1}: ${wrong.length} sites differ from the sandbox's, e.g. ${String(JSON.stringify(wrong[0])).slice(0, 300)}`);
		}
		const summaries = await finishedExecutions(ctx, workflow.id, 4);
		assert(summaries.every((e) => e.status === 'success'), `executions: ${describeCounts(countBy(summaries.map((e) => e.status)))}`);
		const workers = countBy(workersOf(ctx, summaries.map((s) => s.id)));
		const pages = (await sandbox.control.requests()).filter((r) => r.path === '/2025-09/sites');
		// Without a sort the records come back in the API's default order, newest first (ties in stored order).
		const apiOrder = [...expected].sort((a, b) => b.created_at.localeCompare(a.created_at)).map((s) => s.id).join();
		for (const [i, response] of responses.entries()) assert(response.body.map((s) => s.id).join() === apiOrder, `run ${i + 1}: not in the API's default order (created_at descending)`);
		figure(`Return All: 4 × ${expected.length} sites, exact and in the API's order; ${pages.length} page requests (${describeCounts(countBy(pages.map((r) => r.status)))}); per worker: ${describeCounts(workers)}`);
		await main.deactivate(workflow);
	});

	const EXECUTIONS = 20;
	/**
	 * WRITES Contact → Create items in EXECUTIONS concurrent executions on both workers with the credential `token`:
	 * each contact created exactly once, every 429 retried, every execution succeeds. Returns how many 429s the sandbox
	 * answered.
	 */
	const contactWrites = async (token, label) => {
		await reset();
		const before = await sandbox.control.state('contacts');
		const workflow = await main.createWorkflow(
			chain('Contact → Create', [
				webhookNode('queue-contacts'),
				{ id: randomUUID(), name: 'Split Out', type: 'n8n-nodes-base.splitOut', typeVersion: 1, position: position(1), parameters: { fieldToSplitOut: 'body.contacts', options: {} } },
				storaNode('Stora', { resource: 'contact', operation: 'create', email: '={{ $json.email }}', additionalFields: { fullName: '={{ $json.name }}' } }, token, 2),
			]),
		);
		ctx.workflows.push(workflow);
		await main.activate(workflow);
		await sandbox.control.clearRequests();
		const run = randomId();
		const emails = Array.from({ length: WRITES }, (_, i) => `queue-${run}-${i}@example.com`);
		const perExecution = Math.ceil(WRITES / EXECUTIONS);
		const batches = Array.from({ length: Math.ceil(WRITES / perExecution) }, (_, b) => emails.slice(b * perExecution, (b + 1) * perExecution));
		const started = Date.now();
		const responses = await Promise.all(
			batches.map((batch) => callWebhook(ctx, 'queue-contacts', { contacts: batch.map((email, i) => ({ email, name: `Queue Test ${i}` })) })),
		);
		const ms = Date.now() - started;
		for (const [b, response] of responses.entries()) {
			assert(response.status === 200 && Array.isArray(response.body), `execution ${b + 1}: HTTP ${response.status} ${response.text.slice(0, 300)}`);
			assert(
				response.body.length === batches[b].length && response.body.every((c, i) => c.email === batches[b][i] && /^con_/.test(c.id)),
				`execution ${b + 1}: ${response.text.slice(0, 300)}`,
			);
		}
		const after = await sandbox.control.state('contacts');
		const created = after.filter((c) => emails.includes(c.email));
		const perEmail = countBy(created.map((c) => c.email));
		assert(created.length === WRITES && perEmail.size === WRITES, `${created.length} contacts with the run's emails in the sandbox (${perEmail.size} distinct), expected ${WRITES}`);
		assert(after.length === before.length + WRITES, `the sandbox has ${after.length - before.length} new contacts, expected ${WRITES}`);
		const requests = (await sandbox.control.requests()).filter((r) => r.method === 'POST' && r.path === '/2025-09/contacts');
		const statuses = countBy(requests.map((r) => r.status));
		assert(statuses.get(201) === WRITES, `POST /contacts answers: ${describeCounts(statuses)}`);
		const replays = requests.length - WRITES - (statuses.get(429) ?? 0);
		const keys = new Set(requests.filter((r) => r.status === 201).map((r) => r.headers['idempotency-key']));
		assert(keys.size === WRITES, `${keys.size} distinct Idempotency-Keys on ${WRITES} creates`);
		// The busiest second the sandbox accepted, across both workers.
		const perSecond = countBy(requests.filter((r) => r.status === 201).map((r) => r.at.slice(0, 19)));
		const busiest = Math.max(...perSecond.values());
		const accepted = requests.filter((r) => r.status === 201).map((r) => Date.parse(r.at));
		const spanS = (Math.max(...accepted) - Math.min(...accepted)) / 1000;
		assert(busiest <= RATE_LIMIT.perSecond, `${busiest} creates accepted in one second`);
		const summaries = await finishedExecutions(ctx, workflow.id, batches.length);
		assert(summaries.length === batches.length && summaries.every((e) => e.status === 'success'), `executions: ${describeCounts(countBy(summaries.map((e) => e.status)))}`);
		const workers = countBy(workersOf(ctx, summaries.map((s) => s.id)));
		assert(workers.size === cluster.workers.length, `only ${describeCounts(workers)} ran the executions`);
		figure(
			`${label}: ${WRITES} creates in ${batches.length} executions (per worker: ${describeCounts(workers)}) in ${seconds(ms)}: ${WRITES} contacts, 0 duplicates; the sandbox answered ${statuses.get(429) ?? 0} × 429 (all retried)${replays ? `, ${replays} other retries` : ''}; at most ${busiest} creates accepted in one second, ${(WRITES / Math.max(spanS, 1)).toFixed(1)}/s on average over ${spanS.toFixed(1)} s`,
		);
		await main.deactivate(workflow);
		return statuses.get(429) ?? 0;
	};

	await check(`${WRITES} Contact → Create items in ${EXECUTIONS} concurrent executions on both workers under ${RATE_LIMIT.perSecond}/s: each contact created exactly once, every 429 retried, every execution succeeds`, async () => {
		await contactWrites(ctx.token, 'documented Rate Limit');
	});

	await check(`the same with the credential's Rate Limit set to half the account's limit per worker: no 429 at all`, async () => {
		const half = await main.createCredential('Stora sandbox (token, half the limit)', 'storaApi', {
			baseUrl: sandbox.url,
			accessToken: sandbox.token,
			rateLimit: 'custom',
			requestsPerSecond: Math.floor(RATE_LIMIT.perSecond / cluster.workers.length),
			requestsPerMinute: Math.floor(RATE_LIMIT.perMinute / cluster.workers.length),
		});
		const limited = await contactWrites(half, `Rate Limit 1/${cluster.workers.length} of the account's per worker`);
		assert(limited === 0, `the sandbox answered ${limited} × 429`);
	});

	// ---------------------------------------------------------------------------------------- OAuth2 on workers
	const callback = `${cluster.mainBase}/rest/oauth2-credential/callback`;
	await check('OAuth2 client credentials on the workers: a token is fetched on first use and shared, and fetched again after it expires', async () => {
		await reset();
		const client = await sandbox.control.oauthClient([callback]);
		const credential = await main.createCredential('Stora sandbox (client credentials)', 'storaOAuth2Api', {
			grantType: 'clientCredentials',
			baseUrl: sandbox.url,
			clientId: client.client_id,
			clientSecret: client.client_secret,
		});
		const workflow = await main.createWorkflow(
			chain('client credentials', [webhookNode('queue-oauth2-cc'), storaNode('Stora', { resource: 'site', operation: 'getAll', returnAll: false, limit: 1 }, credential)]),
		);
		ctx.workflows.push(workflow);
		await main.activate(workflow);
		const shapes = [];
		const runOnce = async (label) => {
			await sandbox.control.clearRequests();
			const response = await callWebhook(ctx, 'queue-oauth2-cc', {});
			assert(response.status === 200 && Array.isArray(response.body) && response.body.length === 1, `${label}: HTTP ${response.status} ${response.text.slice(0, 300)}`);
			const [latest] = executionRows(ctx, workflow.id);
			const requests = (await sandbox.control.requests()).map((r) => `${r.method} ${r.path} ${r.status}${r.path === '/oauth2/token' ? ` ${r.body?.grant_type}` : ''}`);
			shapes.push(`${label} on ${workerOf(cluster.workers, latest.id)}: ${requests.join(', ')}`);
			return requests;
		};
		const tokens = () => [...sandbox.core.auth.tokens.values()].filter((t) => t.clientId === client.client_id);
		let requests = await runOnce('run 1');
		assert(requests.join() === 'POST /oauth2/token 200 client_credentials,GET /2025-09/sites 200', `run 1: ${requests.join(', ')}`);
		for (const n of [2, 3]) {
			requests = await runOnce(`run ${n}`);
			assert(requests.join() === 'GET /2025-09/sites 200', `run ${n} (the stored token should be reused): ${requests.join(', ')}`);
		}
		assert(tokens().length === 1, `${tokens().length} tokens issued for 3 runs`);
		await sandbox.control.expireTokens(tokens()[0].token);
		requests = await runOnce('after expiry');
		assert(
			requests.join() === 'GET /2025-09/sites 401,POST /oauth2/token 200 client_credentials,GET /2025-09/sites 200',
			`after expiry: ${requests.join(', ')}`,
		);
		requests = await runOnce('next run');
		assert(requests.join() === 'GET /2025-09/sites 200', `the run after the refresh: ${requests.join(', ')}`);
		const workers = new Set(shapes.map((s) => /on (worker-\d+)/.exec(s)?.[1]));
		assert(workers.size === cluster.workers.length, `all runs on ${[...workers].join(', ')}`);
		figure(`client credentials: ${shapes.join('; ')}`);
		await main.deactivate(workflow);
	});

	await check('OAuth2 authorization code: n8n stores the first token pair; after each expiry a worker refreshes with the refresh token the previous worker stored (rotation)', async () => {
		await reset();
		const client = await sandbox.control.oauthClient([callback]);
		const credential = await main.createCredential('Stora sandbox (authorization code)', 'storaOAuth2Api', authorizationCodeCredential(sandbox, client));
		await sandbox.control.clearRequests();
		await connectOAuth2(main, credential, sandbox);
		const codeRequests = (await sandbox.control.requests()).filter((r) => r.path === '/oauth2/token');
		assert(
			codeRequests.length === 1 && codeRequests[0].status === 200 && codeRequests[0].body?.grant_type === 'authorization_code' && /^[A-Za-z0-9._~-]{43,128}$/.test(codeRequests[0].body?.code_verifier ?? ''),
			`token requests of the connection: ${JSON.stringify(codeRequests.map((r) => [r.status, r.body?.grant_type]))}`,
		);

		const workflow = await main.createWorkflow(
			chain('authorization code', [webhookNode('queue-oauth2-code'), storaNode('Stora', { resource: 'site', operation: 'getAll', returnAll: false, limit: 2 }, credential)]),
		);
		ctx.workflows.push(workflow);
		await main.activate(workflow);
		const refreshTokens = () => [...sandbox.core.auth.refreshTokens.values()].filter((t) => t.clientId === client.client_id);
		const accessTokens = () => [...sandbox.core.auth.tokens.values()].filter((t) => t.clientId === client.client_id);

		await sandbox.control.clearRequests();
		let response = await callWebhook(ctx, 'queue-oauth2-code', {});
		assert(response.status === 200 && response.body?.length === 2, `first run: HTTP ${response.status} ${response.text.slice(0, 300)}`);
		const rounds = [];
		// Refresh until a worker has used a refresh token that the other worker obtained (at least 3 rounds, at most 8).
		for (let round = 1; round <= 8; round++) {
			const presented = refreshTokens().find((t) => !t.revoked);
			const [current] = accessTokens().slice(-1);
			await sandbox.control.expireTokens(current.token);
			await sandbox.control.clearRequests();
			response = await callWebhook(ctx, 'queue-oauth2-code', {});
			assert(response.status === 200 && response.body?.length === 2, `round ${round}: HTTP ${response.status} ${response.text.slice(0, 300)}`);
			const requests = await sandbox.control.requests();
			const shape = requests.map((r) => `${r.method} ${r.path} ${r.status}`).join(', ');
			assert(
				shape === 'GET /2025-09/sites 401, POST /oauth2/token 200, GET /2025-09/sites 200' &&
					requests[1].body?.grant_type === 'refresh_token' &&
					requests[1].body?.refresh_token === presented.token,
				`round ${round}: ${shape} (n8n must present the refresh token issued last)`,
			);
			assert(presented.revoked, `round ${round}: the presented refresh token was not revoked`);
			const [latest] = executionRows(ctx, workflow.id);
			rounds.push(workerOf(cluster.workers, latest.id));
			const handedOver = rounds.some((w, i) => i > 0 && w !== rounds[i - 1]);
			if (round >= 3 && handedOver) break;
		}
		const handovers = rounds.filter((w, i) => i > 0 && w !== rounds[i - 1]).length;
		assert(handovers > 0, `every refresh ran on ${rounds[0]}: no worker used a refresh token another worker stored`);
		assert(refreshTokens().filter((t) => !t.revoked).length === 1, 'expected exactly one live refresh token');
		figure(`authorization code: ${rounds.length} refreshes in a row by ${rounds.join(' → ')}, each presenting the refresh token issued last (${handovers} handovers between workers)`);
		await main.deactivate(workflow);
	});

	// ---------------------------------------------------------------------------------------- the whole run
	await check('at the end: no execution failed or ran twice, every one ran on exactly one worker, and no secret is in any n8n log', async () => {
		// The Stora Trigger workflows still have exactly the executions their deliveries started (none late, none extra).
		const counted = [];
		if (trigger?.events.length) counted.push(['the trigger workflow', trigger.workflow, trigger.events.length + (trigger.redelivered ?? 0)]);
		if (dedupe?.executions) counted.push(['the deal-lost-task example', dedupe.workflow, dedupe.executions]);
		for (const [label, workflow, expected] of counted) {
			const count = executionRows(ctx, workflow.id).length;
			if (count !== expected) {
				const ids = pg.query(`select id from execution_entity where "workflowId" = '${workflow.id}' order by id desc limit ${Math.max(1, count - expected)}`).split('\n');
				throw new Error(`${label} now has ${count} executions, expected ${expected}; the newest:\n${await describeExecutions(ctx, ids)}`);
			}
		}
		const rows = pg
			.query("select status || '/' || mode || '/' || coalesce(\"stoppedAt\"::text, 'running') from execution_entity")
			.split('\n')
			.filter(Boolean);
		const statuses = countBy(rows.map((r) => r.split('/')[0]));
		assert(rows.length && statuses.get('success') === rows.length, `executions in PostgreSQL: ${describeCounts(statuses)}`);
		const ids = pg.query('select id from execution_entity').split('\n').filter(Boolean);
		const workers = countBy(workersOf(ctx, ids));
		collectSecrets(sandbox, secrets);
		const searched = [...secrets].filter((s) => typeof s === 'string' && s.length >= 16);
		for (const proc of cluster.all) {
			const text = fs.readFileSync(proc.logFile, 'utf8');
			const found = searched.filter((s) => text.includes(s)).length;
			assert(!found, `${found} secret(s) in the log of n8n ${proc.name}`);
		}
		figure(`${rows.length} executions in PostgreSQL, all success, each started by one worker (${describeCounts(workers)}); ${searched.length} secrets not in any of the ${cluster.all.length} n8n logs`);
	});

	if (args.keep) {
		log(`--keep: main ${cluster.mainBase} (owner@example.com / Passw0rd!Stora), webhooks ${cluster.webhookBase}, sandbox ${sandbox.url}; Ctrl-C stops everything`);
		await new Promise(() => {});
	}
}

await runSuite(main);
