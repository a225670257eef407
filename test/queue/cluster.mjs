// n8n 2.41.1 in queue mode: one main (editor, REST, publishes workflows and registers trigger endpoints), workers that
// run the executions, and a webhook processor that takes production webhook calls and queues them in Redis. All of
// them share PostgreSQL, Redis, the encryption key and one user folder, into which the packed package is installed
// as n8n installs community packages. Every process gets its own free loopback ports and is stopped by its PID.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

import { HOST_DIR, N8n, childEnv, freePort, n8nTestSettings, node24 } from '../realN8n/n8n.mjs';
import { until } from '../realN8n/wait.mjs';

/**
 * The environment every process shares (the "Running at scale" settings), without the per-process ports.
 * `webhookBase` is where Stora must deliver: the webhook processor.
 */
export function sharedEnv({ userFolder, pg, redis, encryptionKey, mainBase, webhookBase }) {
	return {
		N8N_USER_FOLDER: userFolder,
		N8N_ENCRYPTION_KEY: encryptionKey,
		EXECUTIONS_MODE: 'queue',
		DB_TYPE: 'postgresdb',
		DB_POSTGRESDB_HOST: pg.host,
		DB_POSTGRESDB_PORT: String(pg.port),
		DB_POSTGRESDB_DATABASE: pg.database,
		DB_POSTGRESDB_USER: pg.user,
		DB_POSTGRESDB_PASSWORD: pg.password,
		QUEUE_BULL_REDIS_HOST: redis.host,
		QUEUE_BULL_REDIS_PORT: String(redis.port),
		QUEUE_BULL_REDIS_PASSWORD: redis.password,
		// The public URLs: the editor (OAuth2 callback) on main, production webhooks (what the Stora Trigger registers)
		// on the webhook processor.
		N8N_EDITOR_BASE_URL: `${mainBase}/`,
		WEBHOOK_URL: `${webhookBase}/`,
		// Manual executions go to the workers too (n8n 3 makes this the only behaviour).
		OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
		...n8nTestSettings(userFolder),
	};
}

function spawnN8n(name, args, { userFolder, env, port }) {
	const logFile = path.join(userFolder, `${name}.log`);
	const out = fs.openSync(logFile, 'a');
	const child = spawn(node24(), [path.join(HOST_DIR, 'node_modules/n8n/bin/n8n'), ...args], {
		cwd: userFolder,
		detached: true, // own process group, so its task runner can be stopped with it
		stdio: ['ignore', out, out],
		env: childEnv({
			PATH: `${path.dirname(node24())}:${path.join(HOST_DIR, 'node_modules/.bin')}:${process.env.PATH}`,
			...env,
		}),
	});
	fs.closeSync(out);
	const proc = new N8n({
		base: port ? `http://127.0.0.1:${port}` : undefined,
		port,
		userFolder,
		child,
		logFile,
		ownsFolder: false,
	});
	proc.name = name;
	return proc;
}

/** Polls `url` until it answers 200, or the process exits, or the deadline passes. */
async function waitHealthy(proc, url, timeoutMs = 240_000) {
	await until(
		async () => {
			if (proc.exited)
				throw new Error(
					`n8n ${proc.name} exited (${proc.exitCode}) before it was ready:\n${proc.logTail()}`,
				);
			try {
				const res = await fetch(url, { signal: AbortSignal.timeout(5000) });
				await res.arrayBuffer();
				return res.status === 200;
			} catch {
				return false; // not listening yet
			}
		},
		() => `n8n ${proc.name} to be ready:\n${proc.logTail()}`,
		{ timeoutMs, every: 250 },
	);
}

/**
 * Starts main (migrations run here, so it comes first), then the workers and the webhook processor together.
 * `onStarted(proc)` is called for each process as soon as it is spawned (so a failure or Ctrl-C can stop it).
 * Resolves to { main, webhook, workers, all, env, timings }.
 */
export async function startCluster({
	userFolder,
	pg,
	redis,
	workers = 2,
	webhooks = 1,
	onStarted,
	log,
}) {
	fs.mkdirSync(path.join(userFolder, 'tmp'), { recursive: true });
	const mainPort = await freePort();
	const webhookPort = await freePort();
	const mainBase = `http://127.0.0.1:${mainPort}`;
	const webhookBase = `http://127.0.0.1:${webhookPort}`;
	const encryptionKey = randomBytes(24).toString('base64url');
	const env = sharedEnv({ userFolder, pg, redis, encryptionKey, mainBase, webhookBase });
	const timings = {};

	let started = Date.now();
	const main = spawnN8n('main', ['start'], {
		userFolder,
		port: mainPort,
		env: {
			...env,
			N8N_PORT: String(mainPort),
			N8N_RUNNERS_BROKER_PORT: String(await freePort()),
			// Production webhooks are the webhook processor's job; main answers only the editor and REST.
			N8N_DISABLE_PRODUCTION_MAIN_PROCESS: 'true',
		},
	});
	onStarted?.(main);
	await main.waitReady(240_000);
	await main.setupOwner();
	timings.main = Date.now() - started;
	log?.(`main ready in ${(timings.main / 1000).toFixed(1)} s (pid ${main.pid}, ${mainBase})`);

	started = Date.now();
	const workerProcs = [];
	for (let i = 1; i <= workers; i++) {
		const worker = await spawnWorker(`worker-${i}`, { userFolder, env });
		onStarted?.(worker);
		workerProcs.push(worker);
	}
	// The first webhook processor is the public URL; more stand for the others behind the same load balancer.
	const webhookProcs = [];
	for (let i = 1; i <= webhooks; i++) {
		const port = i === 1 ? webhookPort : await freePort();
		const proc = spawnN8n(i === 1 ? 'webhook' : `webhook-${i}`, ['webhook'], {
			userFolder,
			port,
			env: { ...env, N8N_PORT: String(port), N8N_RUNNERS_BROKER_PORT: String(await freePort()) },
		});
		onStarted?.(proc);
		webhookProcs.push(proc);
	}
	const webhookBases = webhookProcs.map((proc) => proc.base);
	await Promise.all([
		...workerProcs.map((w) => waitHealthy(w, `${w.base}/healthz/readiness`)),
		...webhookProcs.map((proc) => waitHealthy(proc, `${proc.base}/healthz/readiness`)),
	]);
	timings.workersAndWebhook = Date.now() - started;
	log?.(
		`${workers} workers (pids ${workerProcs.map((w) => w.pid).join(', ')}) and ${webhooks} webhook processor(s) (pids ${webhookProcs.map((w) => w.pid).join(', ')}, ${webhookBases.join(', ')}) ready in ${(timings.workersAndWebhook / 1000).toFixed(1)} s`,
	);
	const [webhook] = webhookProcs;
	const cluster = {
		main,
		webhook,
		webhooks: webhookProcs,
		workers: workerProcs,
		all: [main, ...workerProcs, ...webhookProcs],
		env,
		timings,
		mainBase,
		webhookBase,
		webhookBases,
	};
	/**
	 * Starts one more worker (`extraEnv` on top of the shared environment, `args` after `worker`) and waits until it is
	 * ready; it joins `workers` (so the checks' counts and logs cover it) and is stopped at the end like the others.
	 */
	cluster.addWorker = async (name, { extraEnv = {}, args = [] } = {}) => {
		const worker = await spawnWorker(name, { userFolder, env: { ...env, ...extraEnv }, args });
		onStarted?.(worker);
		workerProcs.push(worker);
		cluster.all.push(worker);
		await waitHealthy(worker, `${worker.base}/healthz/readiness`);
		log?.(`n8n ${name} ready (pid ${worker.pid})`);
		return worker;
	};
	return cluster;
}

/** A worker on its own health-check and task-runner ports, health checks on (readiness is awaited there). */
async function spawnWorker(name, { userFolder, env, args = [] }) {
	const healthPort = await freePort();
	return spawnN8n(name, ['worker', ...args], {
		userFolder,
		port: healthPort,
		env: {
			...env,
			N8N_RUNNERS_BROKER_PORT: String(await freePort()),
			QUEUE_HEALTH_CHECK_ACTIVE: 'true',
			QUEUE_HEALTH_CHECK_PORT: String(healthPort),
			N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
		},
	});
}

/** Execution ids each worker logged as started ("Worker started execution <id> (job <n>)"), by worker name. */
export function executionsByWorker(workers) {
	const byWorker = new Map();
	for (const worker of workers) {
		const text = fs.existsSync(worker.logFile) ? fs.readFileSync(worker.logFile, 'utf8') : '';
		byWorker.set(
			worker.name,
			[...text.matchAll(/Worker started execution (\d+)/g)].map((m) => m[1]),
		);
	}
	return byWorker;
}

/** Which worker ran execution `id` (undefined when none logged it). */
export function workerOf(workers, id) {
	for (const [name, ids] of executionsByWorker(workers)) if (ids.includes(String(id))) return name;
	return undefined;
}
