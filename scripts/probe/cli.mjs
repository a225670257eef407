#!/usr/bin/env node
/**
 * `npm run probe`: asks the real Stora API the questions its docs leave open and reports, point by point, which
 * reading holds and where in the node's code that reading lives (docs/probe.md). A development script: not in the
 * published package. The base URL and the access token come from the environment (STORA_BASE_URL,
 * STORA_ACCESS_TOKEN); the token is never printed nor written, and is redacted from anything the server echoes.
 *
 *   npm run probe -- [--out <folder>] [--lists contacts,deals] [--sample 10] [--pace 3/20] [--plan]
 *                    [--write [--yes] [--webhook-url <public url> --listen <[host:]port>] [--webhook-wait 30]]
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { probeErrors, probeTokenInfo, probeUnauthorized, rateLimitPoints } from './errors.mjs';
import { fieldPoints } from './fields.mjs';
import { createClient, StopError } from './http.mjs';
import { LISTS, parametersOf } from './lists.mjs';
import { probeList, probeMetadataKeyLength, probeOverlockAlias } from './listVerdicts.mjs';
import { scopePoints, skippedWritePoints, UNREACHABLE, whereOfParameter } from './points.mjs';
import { startReceiver } from './receiver.mjs';
import { redact, writeReport } from './report.mjs';
import { announce, confirmWrites, estimate } from './plan.mjs';
import { probeWrites } from './writes.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
/** The documented default limits (auth-errors-limits.md §4): the probe never goes faster against a remote API. */
export const DOCUMENTED_RATE = { perSecond: 10, perMinute: 60 };
/** The default pace: a third of the documented budget, which the account's other clients share while it runs. */
export const DEFAULT_PACE = { perSecond: 3, perMinute: 20 };
/** Loopback hosts: the only ones the token may travel to over http:// (a local sandbox). */
const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/;

const USAGE = `Usage: STORA_BASE_URL=https://public-api.stora.co STORA_ACCESS_TOKEN=... npm run probe -- [options]
  --out <folder>          where probe-report.md and probe-report.json go (default: the current folder)
  --lists <a,b,...>       only these lists (e.g. contacts,deals,deals/stages); default: every list the node reads
  --sample <n>            records asked per list (2-100, default 10)
  --pace <s>/<m>          requests per second / per minute (default 3/20, a third of the documented 10/60, which
                          the account's other clients share; above 10/60 only locally)
  --plan                  say what the run would do (requests, time, share of the budget) and stop: no request
  --write                 also the writes (a contact created and deleted, an Idempotency-Key replay): a test operator only
  --yes                   with --write: go ahead without asking (otherwise it asks on a terminal, and stops elsewhere)
  --webhook-url <url>     with --write: a public URL reaching --listen, for a temporary webhook endpoint
  --listen <[host:]port>  with --webhook-url: where the probe receives the test delivery
  --webhook-wait <s>      how long to wait for the delivery (default 30)`;

class UsageError extends Error {}

/** The options, or a UsageError naming what is wrong. */
export function parseOptions(argv, env) {
	const { values } = parseArgs({
		args: argv,
		options: {
			out: { type: 'string', default: '.' },
			lists: { type: 'string' },
			sample: { type: 'string', default: '10' },
			pace: { type: 'string' },
			rate: { type: 'string' },
			plan: { type: 'boolean', default: false },
			write: { type: 'boolean', default: false },
			yes: { type: 'boolean', default: false },
			'webhook-url': { type: 'string' },
			listen: { type: 'string' },
			'webhook-wait': { type: 'string', default: '30' },
			help: { type: 'boolean', default: false },
		},
		strict: true,
	});
	if (values.help) return { help: true };
	const rawBase = String(env.STORA_BASE_URL ?? '').trim();
	const token = String(env.STORA_ACCESS_TOKEN ?? '').trim();
	if (!rawBase || !token)
		throw new UsageError('Set STORA_BASE_URL and STORA_ACCESS_TOKEN in the environment.');
	let base;
	try {
		base = new URL(rawBase);
	} catch {
		throw new UsageError('STORA_BASE_URL is not a URL (e.g. https://public-api.stora.co).');
	}
	const local = LOOPBACK.test(base.hostname);
	if (base.protocol !== 'https:' && !(base.protocol === 'http:' && local)) {
		throw new UsageError(
			'STORA_BASE_URL must start with https:// (http:// only for a loopback address, e.g. a local sandbox): the token would travel in clear text.',
		);
	}
	base.username = '';
	base.password = '';
	const baseUrl = `${base.origin}${base.pathname}`.replace(/\/+$/, '').replace(/\/2025-09$/, '');

	const sampleSize = Number(values.sample);
	if (!Number.isInteger(sampleSize) || sampleSize < 2 || sampleSize > 100)
		throw new UsageError('--sample takes a whole number from 2 to 100.');
	let rate = DEFAULT_PACE;
	const pace = values.pace ?? values.rate;
	if (pace !== undefined) {
		const match = /^(\d+)\/(\d+)$/.exec(pace);
		if (!match || Number(match[1]) < 1 || Number(match[2]) < 1)
			throw new UsageError('--pace takes <per second>/<per minute>, e.g. 2/12.');
		rate = { perSecond: Number(match[1]), perMinute: Number(match[2]) };
		if (
			!local &&
			(rate.perSecond > DOCUMENTED_RATE.perSecond || rate.perMinute > DOCUMENTED_RATE.perMinute)
		) {
			throw new UsageError('--pace above the documented 10/60 is only for a local sandbox.');
		}
	}
	let lists = LISTS;
	if (values.lists !== undefined) {
		const wanted = values.lists
			.split(',')
			.map((name) => name.trim().replace(/^\/?(2025-09\/)?/, ''))
			.filter(Boolean);
		const unknown = wanted.filter((name) => !LISTS.some((list) => list.path === name));
		if (unknown.length)
			throw new UsageError(
				`--lists: no list ${unknown.join(', ')} (known: ${LISTS.map((list) => list.path).join(', ')}).`,
			);
		lists = LISTS.filter((list) => wanted.includes(list.path));
	}
	const webhookUrl = values['webhook-url'];
	if ((webhookUrl === undefined) !== (values.listen === undefined))
		throw new UsageError('--webhook-url and --listen go together.');
	if (webhookUrl !== undefined && !values.write)
		throw new UsageError('--webhook-url needs --write (it registers an endpoint).');
	if (values.yes && !values.write)
		throw new UsageError('--yes goes with --write (the read-only run asks nothing).');
	const waitSeconds = Number(values['webhook-wait']);
	if (!Number.isFinite(waitSeconds) || waitSeconds < 1)
		throw new UsageError('--webhook-wait takes seconds (1 or more).');
	return {
		baseUrl,
		token,
		out: path.resolve(values.out),
		lists,
		sampleSize,
		rate,
		plan: values.plan,
		write: values.write,
		yes: values.yes,
		webhookUrl,
		listen: values.listen,
		waitMs: waitSeconds * 1000,
	};
}

const packageVersion = () => {
	try {
		return JSON.parse(readFileSync(path.join(HERE, '../../package.json'), 'utf8')).version;
	} catch {
		return 'unknown';
	}
};

/** Runs the probe; returns the exit code (0 done, 1 usage or writes not confirmed, 2 stopped on an unexpected 401/403). */
export async function main(
	argv,
	env,
	io = { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin },
) {
	let options;
	try {
		options = parseOptions(argv, env);
	} catch (error) {
		io.stderr.write(`${error.message}\n\n${USAGE}\n`);
		return 1;
	}
	if (options.help) {
		io.stdout.write(`${USAGE}\n`);
		return 0;
	}
	const secrets = [options.token];
	const log = (line) => io.stderr.write(`${redact(line, secrets)}\n`);
	// Before the first request: what it will do, how long, what share of the budget; the writes need a yes.
	const plan = await estimate(options);
	log(announce(options, plan));
	if (options.plan) return 0;
	if (options.write && !(await confirmWrites(options, io, log))) return 1;
	const seen = {};
	let answers = 0;
	const client = createClient({
		baseUrl: options.baseUrl,
		token: options.token,
		rate: options.rate,
		onAnswer: (answer) => {
			answers += 1;
			for (const name of [
				'ratelimit-limit',
				'ratelimit-reset',
				'ratelimit-remaining',
				'ratelimit-policy',
				'retry-after',
			]) {
				if (answer.headers[name] === undefined) continue;
				seen[name] ??= { count: 0, sample: answer.headers[name] };
				seen[name].count += 1;
			}
		},
	});
	const run = {
		package_version: packageVersion(),
		started_at: new Date().toISOString(),
		base_url: options.baseUrl,
		write: options.write,
		sample_size: options.sampleSize,
		pacing: {
			per_second: options.rate.perSecond,
			per_minute: options.rate.perMinute,
			budget_share: Math.round((options.rate.perMinute / DOCUMENTED_RATE.perMinute) * 100) / 100,
		},
		estimate: plan,
		lists: options.lists.map((list) => list.path),
	};
	const points = [];
	const done = new Set();
	let receiver;
	let code = 0;
	try {
		const info = await probeTokenInfo(client);
		run.scopes = info.scopes;
		run.scope_form = info.scopeForm;
		points.push(...info.points, ...scopePoints(info.scopes));
		const first =
			options.lists.find((list) => !info.scopes || info.scopes.includes(list.scope)) ??
			options.lists[0];
		points.push(await probeUnauthorized(client, first.path));

		const samples = new Map();
		const knownIds = new Set();
		for (const list of options.lists) {
			const {
				points: found,
				sample,
				ids,
			} = await probeList(client, list, {
				sampleSize: options.sampleSize,
				scopes: info.scopes,
				knownIds,
				log,
			});
			for (const id of ids ?? []) knownIds.add(id);
			points.push(...found, ...fieldPoints(list, sample));
			samples.set(list.path, sample);
			done.add(list.path);
		}
		const readable = options.lists.find((list) => samples.get(list.path)?.length);
		const sampleId = readable ? String(samples.get(readable.path)[0].id) : '';
		points.push(
			...(await probeErrors(
				client,
				readable && { path: readable.path, prefix: sampleId.slice(0, sampleId.indexOf('_') + 1) },
			)),
		);
		if (samples.get('units')) points.push(await probeOverlockAlias(client, options.sampleSize));
		points.push(
			await probeMetadataKeyLength(
				client,
				options.lists.find((list) => list.filters.includes('metadata[]') && samples.get(list.path)),
			),
		);

		if (options.write) {
			if (options.webhookUrl) receiver = await startReceiver(options.listen);
			const writes = await probeWrites(client, {
				scopes: info.scopes,
				webhookUrl: options.webhookUrl,
				receiver,
				waitMs: options.waitMs,
				log,
			});
			points.push(...writes.points);
			run.leftovers = writes.leftovers;
			if (!options.webhookUrl)
				points.push(
					...skippedWritePoints('needs --webhook-url and --listen').filter((entry) =>
						/webhook/.test(entry.id),
					),
				);
		} else {
			points.push(...skippedWritePoints('needs --write (on a test operator)'));
		}
	} catch (error) {
		if (!(error instanceof StopError)) throw error;
		run.stopped = error.message;
		code = 2;
		log(error.message);
		for (const list of options.lists.filter((entry) => !done.has(entry.path))) {
			for (const parameter of parametersOf(list)) {
				points.push({
					id: `GET /2025-09/${list.path}?${parameter}`,
					verdict: 'unknown',
					evidence: 'not reached: the probe stopped',
					where: whereOfParameter(list, parameter),
				});
			}
		}
	} finally {
		await receiver?.close();
	}
	points.push(...rateLimitPoints(seen, answers), ...UNREACHABLE);
	run.finished_at = new Date().toISOString();
	run.requests = client.stats.requests;
	run.rate_limited = client.stats.rateLimited;
	run.statuses = client.stats.byStatus;
	const { md, mdPath, jsonPath } = await writeReport(options.out, run, points, secrets);
	io.stdout.write(`${md}\n`);
	log(`Wrote ${mdPath} and ${jsonPath} (${run.requests} requests).`);
	return code;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
	main(process.argv.slice(2), process.env).then(
		(code) => {
			process.exitCode = code;
		},
		(error) => {
			process.stderr.write(
				`${redact(error?.stack ?? String(error), [String(process.env.STORA_ACCESS_TOKEN ?? '')])}\n`,
			);
			process.exitCode = 1;
		},
	);
}
