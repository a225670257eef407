// Everything the queue-mode checks run against, started in order: PostgreSQL and Redis (apt-get when missing), n8n
// installed (cached in .cache/), the sandbox compiled, this package built, packed and installed into the user folder
// all n8n processes share; the sandbox (rate limited, http webhooks allowed) in this process; main, then the workers
// and the webhook processors. Each start registers its stop in the harness's `cleanups` at once, so a failure or
// Ctrl-C half-way stops what was started.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { ensureN8n, installPackage, N8N_VERSION, packPackage } from '../realN8n/n8n.mjs';
import { buildSandbox, startSandbox } from '../realN8n/sandbox.mjs';
import { startCluster } from './cluster.mjs';
import { ensureServices, startPostgres, startRedis } from './services.mjs';

/** Starts it all; resolves to { main, cluster, sandbox, pg, redis }. */
export async function setUp({ rateLimit: RATE_LIMIT, timed, timings, cleanups, log }) {
	const work = fs.mkdtempSync(path.join(os.tmpdir(), 'stora-queue-'));
	cleanups.push(() => fs.rmSync(work, { recursive: true, force: true }));

	const { pgBin, redisServer } = await timed(
		'PostgreSQL and Redis binaries (apt-get when missing)',
		() => ensureServices(),
	);
	const installTimings = await timed('n8n install (cached when unchanged)', () => ensureN8n());
	for (const [k, v] of Object.entries(installTimings)) timings.push([`  n8n install: ${k}`, v]);
	await timed('sandbox compile (tsc)', () => buildSandbox());
	const { tarball } = await timed('package build + npm pack', () =>
		packPackage(path.join(work, 'pack')),
	);

	const pg = await timed('PostgreSQL start (initdb, server, database)', () => startPostgres(pgBin));
	cleanups.push(() => pg.stop());
	log(`PostgreSQL ${pg.host}:${pg.port} (pid ${pg.pid})`);
	const redis = await timed('Redis start', () => startRedis(redisServer));
	cleanups.push(() => redis.stop());
	log(`Redis ${redis.host}:${redis.port} (pid ${redis.pid})`);

	const userFolder = path.join(work, 'n8n');
	const pkg = await timed('package install into the shared user folder (.n8n/nodes)', () =>
		installPackage(userFolder, tarball),
	);
	log(`installed ${pkg.name}@${pkg.version} into <user folder>/.n8n/nodes`);

	const sandbox = await timed('sandbox start', () =>
		startSandbox({ seed: 'demo', rateLimit: RATE_LIMIT }),
	);
	cleanups.push(() => sandbox.close());
	log(
		`sandbox at ${sandbox.url}, rate limit ${RATE_LIMIT.perSecond}/s and ${RATE_LIMIT.perMinute}/min per token`,
	);

	const procs = [];
	cleanups.push(async () => {
		// The webhook processor first (nothing new comes in), then the workers, then main.
		for (const proc of [...procs].reverse()) {
			await proc.stop();
			log(`stopped n8n ${proc.name} (pid ${proc.pid})`);
		}
	});
	const cluster = await timed(
		`n8n ${N8N_VERSION} queue mode start (main, then 2 workers + webhook processor)`,
		() =>
			startCluster({
				userFolder,
				pg,
				redis,
				workers: 2,
				webhooks: 2,
				onStarted: (proc) => procs.push(proc),
				log,
			}),
	);
	return { main: cluster.main, cluster, sandbox, pg, redis };
}
