// The cases of `npm run bench`, each both ways (the Stora node, and what a user builds from n8n's own nodes or the
// bench's bare fetch loop), every side at least `cfg.reps` times in alternating order. Each writes its rows; what they
// measure and why: test/bench/README.md.
import { createHmac, randomUUID } from 'node:crypto';

import { sleep, startN8n } from '../realN8n/n8n.mjs';
import { startSandbox } from '../realN8n/sandbox.mjs';
import { bareCsvLoop, bareLoop } from './bare.mjs';
import {
	alternated,
	cpuPer1000,
	credentialsFor,
	doing,
	floorMs,
	limitedForUser,
	median,
	publish,
	row,
	runOnce,
	runsText,
	say,
	sec,
	summary,
	untilMinuteStarts,
	using,
	wire,
} from './harness.mjs';
import { memory, resetPeak, sampleRss } from './proc.mjs';
import { seedContacts, seedOrders, startLargeListProcess, startSandboxProcess } from './sandbox.mjs';
import * as wf from './workflows.mjs';

// A goal: how a row's median must compare with a value.
const atMost = (value) => ({ op: '<=', value });
const atLeast = (value) => ({ op: '>=', value });
const exactly = (value) => ({ op: '==', value });
const below = (value) => ({ op: '<', value });
/** Every goal, by row: a row's median must meet it. */
export const GOALS = {
	'1a': atMost(1.03),
	'1b': atMost(0.7),
	'1c': exactly(0),
	'2a': atMost(1.1),
	'2b': atMost(0.3),
	'3a': atMost(1.05),
	'3c': atMost(1.0),
	'4a': atMost(1.1),
	'4b': atMost(1.0),
	'4c': atMost(1.2),
	'5a': atLeast(0.9),
	'6b': below(300),
};

export const DOCUMENTED = { perSecond: 10, perMinute: 60 };
export const UPDATE_LIMITS = { perSecond: 10, perMinute: 600 };

/** The Stora credential's Rate Limit as the README tells a user to set it for a plan (0: no limit of that kind). */
const rateLimit = (perSecond, perMinute) => ({ rateLimit: 'custom', requestsPerSecond: perSecond, requestsPerMinute: perMinute });
const NO_RATE_LIMIT = rateLimit(0, 0);
/**
 * Case 2's sequential walk: a plan of 24 requests a second and no minute limit. Under it Return All's parallel windows
 * do not pay off for a list of 10 pages or more (windows.ts: the budget would need more than 30 ms a request for the
 * pages left), so the node walks the list one page after the other; and one page after the other at 50 ms latency,
 * 24 requests span more than a second, so the budget never makes the walk wait. What is left is the node's own work.
 */
const SEQUENTIAL_PLAN = rateLimit(24, 0);

/** The median of the repetitions that produced a value. */
const typical = (values) => summary(values).median;
const ratios = (a, b) => a.map((x, k) => x / b[k]);

/**
 * The HTTP Request node's spacing, found as a careful user finds it: the smallest candidate first, the next one when a
 * run fails (a 429 stops the node). Runs at a setting that later failed are done again at the one kept.
 */
class Spacing {
	constructor(candidates) {
		this.candidates = candidates;
		this.index = 0;
		this.log = [];
	}

	get current() {
		return this.candidates[this.index];
	}

	/** Runs `attempt(setting)` until a setting holds or none is left; returns the last run (with its `setting`). */
	async run(attempt) {
		for (;;) {
			const setting = this.current;
			const run = await attempt(setting);
			run.setting = setting;
			if (run.ok) return run;
			this.log.push(`${setting} ms failed (${run.failure})`);
			say(`HTTP Request node at ${setting} ms failed: ${run.failure}`);
			if (this.index + 1 >= this.candidates.length) return run;
			this.index++;
		}
	}

	text(unit = 'ms') {
		const tried = this.candidates.slice(0, this.index + 1).join(', ');
		return `candidates tried: ${tried} ${unit}${this.log.length ? ` (${this.log.join('; ')})` : ''}; kept: ${this.current} ${unit}`;
	}
}

/** Runs `sides[S|R](k)` in the alternating order; returns the runs of each side by repetition. */
async function repeat(reps, sides) {
	const out = { S: [], R: [] };
	for (const [k, order] of alternated(reps).entries()) {
		for (const side of order) out[side][k] = await sides[side](k);
	}
	return out;
}

/**
 * Both sides of a rate-limited case in the alternating order, the HTTP Request node's spacing found on the way; HTTP
 * runs at a setting the spacing later left behind are done again at the one kept (after the others).
 */
async function bothSides(reps, spacing, storaRun, httpAttempt) {
	const httpRun = async (k) => await spacing.run(httpAttempt(k));
	const { S: stora, R: http } = await repeat(reps, { S: storaRun, R: httpRun });
	for (const [k, run] of http.entries()) {
		if (run.setting !== spacing.current) http[k] = await httpRun(k);
	}
	return { stora, http };
}

/** Runs a published workflow with the sandbox's request log cleared first; the run carries what the sandbox saw. */
async function onTheWire(n8n, sandbox, flow, label, options) {
	doing(label);
	await sandbox.control.clearRequests();
	const run = await runOnce(n8n, flow, options);
	run.wire = await wire(sandbox.control);
	run.user429 = limitedForUser(run);
	return run;
}

// ------------------------------------------------------------------------------------------------ case 1

export async function documentedLimitsCase(n8n, cfg) {
	const sandbox = await startSandboxProcess({ rateLimit: DOCUMENTED, latencyMs: cfg.latencyMs });
	await using(sandbox, (s) => s.stop(), async () => {
		await seedOrders(sandbox.control, cfg.orders);
		const pages = Math.ceil(cfg.orders / 100);
		const floor = floorMs(pages, DOCUMENTED, cfg.latencyMs, { sequential: true });
		const spacing = new Spacing(wf.HTTP_SETTINGS.returnAllIntervalsMs);

		const storaRun = async (k) => {
			const creds = await credentialsFor(n8n, sandbox, `case 1 Stora ${k + 1}`);
			const flow = await publish(n8n, wf.storaReturnAll(`bench-c1-stora-${k}`, creds.stora));
			// Just after a minute boundary the sandbox's fixed windows allow exactly what the documented sliding "60 per
			// minute" allows, so the floor is the real one for the run (a quick run does not wait).
			if (!cfg.quick) await untilMinuteStarts('case 1');
			const label = `case 1, run ${k + 1}: Stora node, Return All of ${cfg.orders} orders at 10/s and 60/min (floor ${sec(floor)})`;
			return await onTheWire(n8n, sandbox, flow, label, { first: 'Stora', last: 'Stora', items: cfg.orders });
		};
		const httpAttempt = (k) => async (intervalMs) => {
			const creds = await credentialsFor(n8n, sandbox, `case 1 HTTP ${k + 1} ${intervalMs}`);
			const flow = await publish(n8n, wf.httpReturnAll(`bench-c1-http-${k}-${intervalMs}`, creds.bearer, sandbox.url, { intervalMs }));
			const label = `case 1, run ${k + 1}: HTTP Request node, Return All of ${cfg.orders} orders, ${intervalMs} ms between pages`;
			return await onTheWire(n8n, sandbox, flow, label, { first: 'HTTP Request', last: 'Split Out', items: cfg.orders });
		};
		const { stora, http } = await bothSides(cfg.reps, spacing, storaRun, httpAttempt);

		const storaMs = stora.map((r) => r.ms);
		const httpMs = http.map((r) => r.ms);
		row('1a', `Return All of ${cfg.orders.toLocaleString('en')} orders at 10/s, 60/min, ${cfg.latencyMs} ms latency: Stora node / floor`, {
			stora: sec(typical(storaMs)),
			other: `floor ${sec(floor)}`,
			ratio: summary(storaMs.map((ms) => ms / floor)),
			goal: GOALS['1a'],
			note:
				`runs: ${runsText(storaMs)}; ${stora[0].wire.requests} requests each` +
				`${stora.some((r) => !r.ok) ? `; failed: ${stora.filter((r) => !r.ok).map((r) => r.failure).join('; ')}` : ''}` +
				`; floor: ${pages} pages, 60 in any minute, 10 in any second, one after the other`,
		});
		row('1b', '  same: Stora node / HTTP Request node', {
			stora: sec(typical(storaMs)),
			other: `HTTP Request ${sec(typical(httpMs))}`,
			ratio: summary(ratios(storaMs, httpMs)),
			goal: GOALS['1b'],
			note: `HTTP Request runs: ${runsText(httpMs)}; Interval Between Requests ${spacing.text()}; 429 answers: ${http.map((r) => r.wire.limited).join(', ')}`,
		});
		const user429 = stora.reduce((n, r) => n + r.user429, 0);
		row('1c', '  same: 429s that reached the user (Stora node, read from its executions)', {
			stora: `${user429} in ${stora.length} runs`,
			other: `429 answers on the wire: ${stora.map((r) => r.wire.limited).join(', ')} (retried by the node)`,
			ratio: user429,
			goal: GOALS['1c'],
		});
		row('1i', '  same: CPU per 1,000 orders, Stora / HTTP Request (info)', {
			stora: `${typical(stora.map((r) => cpuPer1000(r, cfg.orders))).toFixed(0)} ms`,
			other: `${typical(http.map((r) => cpuPer1000(r, cfg.orders))).toFixed(0)} ms`,
			ratio: summary(ratios(stora.map((r) => r.cpuMs), http.map((r) => r.cpuMs))),
		});
	});
}

// ------------------------------------------------------------------------------------------------ case 2

export async function unlimitedCase(n8n, cfg) {
	const sandbox = await startSandboxProcess({ rateLimit: 'off', latencyMs: cfg.latencyMs });
	await using(sandbox, (s) => s.stop(), async () => {
		await seedOrders(sandbox.control, cfg.orders);
		const token = await sandbox.control.token('all');
		const runs = { sequential: [], windows: [], bare: [], http: [] };
		/** Whether the run fetched `created_before` windows, from the sandbox's request log. */
		const usedWindows = async () => (await sandbox.control.requests()).some((r) => r.query?.created_before !== undefined);
		const stora = async (kind, k) => {
			const creds = await credentialsFor(n8n, sandbox, `case 2 ${kind} ${k + 1}`, kind === 'sequential' ? SEQUENTIAL_PLAN : NO_RATE_LIMIT);
			const flow = await publish(n8n, wf.storaReturnAll(`bench-c2-${kind}-${k}`, creds.stora));
			doing(`case 2, run ${k + 1}: Stora node (${kind === 'sequential' ? 'sequential walk' : 'parallel windows'}), Return All of ${cfg.orders} orders, no rate limit`);
			await sandbox.control.clearRequests();
			const run = await runOnce(n8n, flow, { first: 'Stora', last: 'Stora', items: cfg.orders });
			run.requests = (await sandbox.control.requests()).filter((r) => r.path.startsWith('/2025-09/')).length;
			const windows = await usedWindows();
			if (run.ok && windows !== (kind === 'windows')) {
				run.ok = false;
				run.failure = kind === 'windows' ? 'the node did not fetch in parallel windows' : 'the node fetched in parallel windows';
				run.ms = NaN;
			}
			runs[kind][k] = run;
		};
		const bare = async (k) => {
			doing(`case 2, run ${k + 1}: bare fetch loop`);
			const r = await bareLoop(sandbox.url, token);
			if (r.items !== cfg.orders) throw new Error(`bare loop: ${r.items} items`);
			runs.bare[k] = r;
		};
		const http = async (k) => {
			doing(`case 2, run ${k + 1}: HTTP Request node, Return All of ${cfg.orders} orders, no interval`);
			const creds = await credentialsFor(n8n, sandbox, `case 2 HTTP ${k + 1}`);
			const flow = await publish(n8n, wf.httpReturnAll(`bench-c2-http-${k}`, creds.bearer, sandbox.url));
			runs.http[k] = await runOnce(n8n, flow, { first: 'HTTP Request', last: 'Split Out', items: cfg.orders });
		};
		for (const [k, order] of alternated(cfg.reps).entries()) {
			const steps = [() => stora('sequential', k), () => stora('windows', k), () => bare(k), () => http(k)];
			for (const step of order[0] === 'S' ? steps : steps.reverse()) await step();
		}
		const bareMs = runs.bare.map((r) => r.ms);
		const ms = (kind) => runs[kind].map((r) => r.ms);
		const failures = (kind) => runs[kind].filter((r) => !r.ok).map((r) => r.failure);
		const failed = (kind) => (failures(kind).length ? `; failed: ${[...new Set(failures(kind))].join('; ')}` : '');
		row('2a', `Return All of ${cfg.orders.toLocaleString('en')} orders, no rate limit, ${cfg.latencyMs} ms latency, sequential walk: Stora node / bare fetch loop`, {
			stora: sec(typical(ms('sequential'))),
			other: `bare loop ${sec(typical(bareMs))}`,
			ratio: summary(ratios(ms('sequential'), bareMs)),
			goal: GOALS['2a'],
			note:
				`runs: Stora ${runsText(ms('sequential'))}; bare loop ${runsText(bareMs)}${failed('sequential')}. ` +
				`The Stora credential's Rate Limit: Custom, 24 per second, 0 per minute, under which parallel windows do not pay off; ` +
				`${runs.sequential[0].requests} requests each`,
		});
		row('2b', '  same, parallel windows (Rate Limit: Custom, 0 and 0): Stora node / bare fetch loop', {
			stora: sec(typical(ms('windows'))),
			other: `bare loop ${sec(typical(bareMs))}`,
			ratio: summary(ratios(ms('windows'), bareMs)),
			goal: GOALS['2b'],
			note: `runs: ${runsText(ms('windows'))}${failed('windows')}; ${runs.windows[0].requests} requests (16 created_at windows, 8 at a time, and the ranks that cut them)`,
		});
		row('2i', '  same, HTTP Request node (pagination, no interval) / bare fetch loop (info)', {
			stora: '',
			other: `HTTP Request ${sec(typical(ms('http')))}`,
			ratio: summary(ratios(ms('http'), bareMs)),
			note: `runs: ${runsText(ms('http'))}${failed('http')}`,
		});
	});
}

// ------------------------------------------------------------------------------------------------ case 3

export async function updatesCase(n8n, cfg) {
	const sandbox = await startSandboxProcess({ rateLimit: UPDATE_LIMITS, latencyMs: cfg.latencyMs });
	await using(sandbox, (s) => s.stop(), async () => {
		const ids = await seedContacts(sandbox.control, cfg.updates);
		const body = { contacts: ids.map((id) => ({ id })) };
		const floor = floorMs(cfg.updates, UPDATE_LIMITS, cfg.latencyMs, { sequential: false });
		const heldFloor = floorMs(cfg.updates, UPDATE_LIMITS, cfg.latencyMs, { sequential: false, heldUntilAnswer: true });
		const spacing = new Spacing(wf.HTTP_SETTINGS.updateBatchIntervalsMs);

		const storaRun = async (k) => {
			// A 600/min plan: the credential's Rate Limit says so, as the README tells a user to set it.
			const creds = await credentialsFor(n8n, sandbox, `case 3 Stora ${k + 1}`, rateLimit(UPDATE_LIMITS.perSecond, UPDATE_LIMITS.perMinute));
			const flow = await publish(n8n, wf.storaUpdates(`bench-c3-stora-${k}`, creds.stora));
			const label = `case 3, run ${k + 1}: Stora node, ${cfg.updates} Contact → Update at 10/s and 600/min (floor ${sec(floor)})`;
			return await onTheWire(n8n, sandbox, flow, label, { body, first: 'Stora', last: 'Stora', items: cfg.updates });
		};
		const httpAttempt = (k) => async (batchIntervalMs) => {
			const creds = await credentialsFor(n8n, sandbox, `case 3 HTTP ${k + 1} ${batchIntervalMs}`);
			const flow = await publish(n8n, wf.httpUpdates(`bench-c3-http-${k}-${batchIntervalMs}`, creds.bearer, sandbox.url, { batchIntervalMs }));
			const label = `case 3, run ${k + 1}: HTTP Request node, ${cfg.updates} PATCHes, batches of ${wf.HTTP_SETTINGS.updateBatchSize} every ${batchIntervalMs} ms`;
			return await onTheWire(n8n, sandbox, flow, label, { body, first: 'HTTP Request', last: 'HTTP Request', items: cfg.updates });
		};
		const { stora, http } = await bothSides(cfg.reps, spacing, storaRun, httpAttempt);

		const storaMs = stora.map((r) => r.ms);
		const httpMs = http.map((r) => r.ms);
		const cpu = (runs) => runs.map((r) => (r.ok ? cpuPer1000(r, cfg.updates) : NaN));
		// 3a divides by the floor the design can reach: the node's budget holds a request's place in a window from its
		// sending until its answer (Stora does not document where in the round trip it counts a request), which costs
		// one round trip per window. The bare-window floor is 3s, for information.
		row('3a', `${cfg.updates.toLocaleString('en')} Contact → Update at 10/s, 600/min, ${cfg.latencyMs} ms latency: Stora node / floor with each place held until its answer`, {
			stora: sec(typical(storaMs)),
			other: `floor ${sec(heldFloor)}`,
			ratio: summary(storaMs.map((ms) => ms / heldFloor)),
			goal: GOALS['3a'],
			note:
				`runs: ${runsText(storaMs)}; the credential's Rate Limit: Custom, 10 per second, 600 per minute; ` +
				`429 answers (retried): ${stora.map((r) => r.wire.limited).join(', ')}; reached the user: ${stora.reduce((n, r) => n + r.user429, 0)}; ` +
				`first request ${stora.map((r) => sec(r.wire.firstAt - r.startTime)).join(', ')} after the node started`,
		});
		row('3s', '  same: Stora node / the floor of bare windows, no round trip held (info)', {
			stora: sec(typical(storaMs)),
			other: `floor ${sec(floor)}`,
			ratio: summary(storaMs.map((ms) => ms / floor)),
			note: 'a schedule that counts a request only when it is sent could reach it, at the risk of a 429 wherever Stora counts later',
		});
		row('3b', '  same: Stora node / HTTP Request node (batching) (info)', {
			stora: sec(typical(storaMs)),
			other: `HTTP Request ${sec(typical(httpMs))}`,
			ratio: summary(ratios(storaMs, httpMs)),
			note:
				`HTTP Request runs: ${runsText(httpMs)}; batches of ${wf.HTTP_SETTINGS.updateBatchSize}, Batch Interval ${spacing.text()}; ` +
				"information, not a goal: n8n's RoutingNode builds every item's request before the first leaves, the HTTP Request node does not",
		});
		row('3c', '  same: CPU per 1,000 updates, Stora / HTTP Request', {
			stora: `${typical(cpu(stora)).toFixed(0)} ms`,
			other: `${typical(cpu(http)).toFixed(0)} ms`,
			ratio: summary(ratios(cpu(stora), cpu(http))),
			goal: GOALS['3c'],
			note: `n8n and its task runner, from the webhook call until the execution was saved; Stora ${cpu(stora).map((v) => v.toFixed(0)).join(', ')} ms, HTTP Request ${cpu(http).map((v) => v.toFixed(0)).join(', ')} ms`,
		});
		row('3i', '  same: HTTP Request node / floor (info)', {
			stora: '',
			other: `HTTP Request ${sec(typical(httpMs))}`,
			ratio: summary(httpMs.map((ms) => ms / floor)),
		});
	});
}

// ------------------------------------------------------------------------------------------------ case 4 + 6

/**
 * One side of case 4 in an n8n process of its own: warm up with one small run of the same node (first use loads code
 * and credentials), let the heap settle, reset the kernel's peak-RSS mark, export the whole list, read time, CPU and
 * peak RSS. The Stora node exports it as one CSV file (Output Format CSV: a JSON Return All stops at 100,000 records);
 * the HTTP Request node pages through it as JSON, one item per page (split into 150,000 items, n8n would run out of
 * stack handing them on).
 */
async function footprint(n8n, list, side, cfg) {
	const creds = await credentialsFor(n8n, list, `case 4 ${side}`, NO_RATE_LIMIT);
	const stora = side === 'stora';
	const [first, last] = stora ? ['Stora', 'Stora'] : ['HTTP Request', 'HTTP Request'];
	const warm = stora
		? wf.storaReturnAll(`bench-c4-warm-${side}`, creds.stora, { resource: 'site', returnAll: false, limit: 100 })
		: wf.httpReturnAll(`bench-c4-warm-${side}`, creds.bearer, list.url, { list: 'sites', splitOut: false, maxPages: 1 });
	await runOnce(n8n, await publish(n8n, warm), { first, last });
	const measured = await publish(
		n8n,
		stora
			? wf.storaReturnAll(`bench-c4-${side}`, creds.stora, { resource: 'site', outputFormat: 'csv' })
			: wf.httpReturnAll(`bench-c4-${side}`, creds.bearer, list.url, { list: 'sites', splitOut: false }),
	);
	await sleep(2000);
	const baseline = memory(n8n.pid).rssKb;
	const exact = resetPeak(n8n.pid);
	const sampler = sampleRss(n8n.pid, 50);
	const run = await runOnce(n8n, measured, {
		first,
		last,
		items: stora ? 1 : Math.ceil(cfg.bigList / 100),
		onFinished: () => {
			const sampled = sampler.stop();
			return { peakKb: exact ? Math.max(memory(n8n.pid).hwmKb, sampled) : sampled, exact };
		},
	});
	return { ...run, baselineKb: baseline, growthKb: run.extra.peakKb - baseline, exact };
}

/**
 * Case 4 (a list of `cfg.bigList` records, no rate limit) in n8n processes of their own, one per side and repetition,
 * and case 6 (n8n's start with and without the package), alternating: without, S, R, bare loop; without, R, S, ...
 */
export async function bigListAndStarts(tarball, cfg, { footprints, starts }) {
	const result = { starts: [], stora: [], http: [], bare: [] };
	const list = await startLargeListProcess({ size: cfg.bigList, latencyMs: cfg.bigLatencyMs });
	await using(list, (l) => l.stop(), async () => {
		for (const [k, order] of alternated(cfg.reps).entries()) {
			result.starts[k] = { with: [], without: [] };
			const plan = [...(starts ? [null] : []), ...order];
			for (const side of plan) {
				const kind = side ? 'with' : 'without';
				const label = side === 'S' ? 'Stora node' : 'HTTP Request node';
				doing(`case ${footprints && side ? 4 : 6}, run ${k + 1}: n8n start ${kind} the package${side && footprints ? `, then ${label}, ${cfg.bigList} records` : ''}`);
				const n8n = await startN8n(side ? { tarball } : {});
				await using(n8n, (n) => n.stop(), async () => {
					result.starts[k][kind].push(n8n.timings.ready);
					if (!side || !footprints) return;
					const run = await footprint(n8n, list, side === 'S' ? 'stora' : 'http', cfg);
					(side === 'S' ? result.stora : result.http)[k] = run;
					say(`case 4, ${label}: ${run.ok ? sec(run.ms) : run.failure}, CPU ${sec(run.cpuMs)}, peak RSS +${(run.growthKb / 1024).toFixed(0)} MiB over ${(run.baselineKb / 1024).toFixed(0)} MiB`);
				});
			}
			if (footprints) {
				doing(`case 4, run ${k + 1}: bare fetch loop, ${cfg.bigList} records as CSV`);
				const bare = await bareCsvLoop(list.url, 'tok_bench');
				if (bare.items !== cfg.bigList) throw new Error(`bare CSV loop: ${bare.items} records`);
				result.bare[k] = bare;
			}
		}
	});
	if (footprints) bigListRows(result, cfg);
	if (starts) {
		const withMs = result.starts.flatMap((rep) => rep.with);
		const without = result.starts.flatMap((rep) => rep.without);
		row('6a', 'n8n start until REST answers, fresh user folder: with the package / without (info)', {
			stora: sec(typical(withMs)),
			other: sec(typical(without)),
			// Per repetition: its starts with the package (two) against its start without.
			ratio: summary(result.starts.map((rep) => median(rep.with) / rep.without[0])),
			note: `starts: without ${runsText(without)}; with ${runsText(withMs)}`,
		});
	}
}

function bigListRows({ stora, http, bare }, cfg) {
	const n = cfg.bigList;
	const storaMs = stora.map((r) => r.ms);
	const bareMs = bare.map((r) => r.ms);
	const per1000Kb = (r) => (r.ok ? (r.growthKb / n) * 1000 : NaN);
	const mib = (kb) => `${(kb / 1024).toFixed(1)} MiB`;
	const failed = (runs) => (runs.some((r) => !r.ok) ? `; failed: ${runs.filter((r) => !r.ok).map((r) => r.failure).join('; ')}` : '');
	row('4a', `Return All of ${n.toLocaleString('en')} records as one CSV file, no rate limit, ${cfg.bigLatencyMs} ms latency: Stora node / bare fetch loop`, {
		stora: sec(typical(storaMs)),
		other: `bare loop ${sec(typical(bareMs))}`,
		ratio: summary(ratios(storaMs, bareMs)),
		goal: GOALS['4a'],
		note: `runs: Stora ${runsText(storaMs)}; bare loop ${runsText(bareMs)} (${bare[0].requests} requests each)${failed(stora)}`,
	});
	row('4b', '  same: peak memory (RSS growth of the n8n process) per 1,000 records, Stora / HTTP Request', {
		stora: mib(typical(stora.map(per1000Kb))),
		other: mib(typical(http.map(per1000Kb))),
		ratio: summary(ratios(stora.map(per1000Kb), http.map(per1000Kb))),
		goal: GOALS['4b'],
		note:
			`peak over the RSS before the run (${stora.every((r) => r.exact) && http.every((r) => r.exact) ? "kernel's peak mark, reset before the run" : 'sampled every 50 ms'}), own n8n per run: ` +
			`Stora +${stora.map((r) => (r.growthKb / 1024).toFixed(0)).join(', ')} MiB, HTTP Request +${http.map((r) => (r.growthKb / 1024).toFixed(0)).join(', ')} MiB${failed(http)}`,
	});
	row('4c', '  same: CPU per 1,000 records, Stora / HTTP Request', {
		stora: `${typical(stora.map((r) => cpuPer1000(r, n))).toFixed(0)} ms`,
		other: `${typical(http.map((r) => cpuPer1000(r, n))).toFixed(0)} ms`,
		ratio: summary(ratios(stora.map((r) => (r.ok ? r.cpuMs : NaN)), http.map((r) => (r.ok ? r.cpuMs : NaN)))),
		goal: GOALS['4c'],
		note: `n8n and its task runner: Stora ${stora.map((r) => sec(r.cpuMs)).join(', ')}, HTTP Request ${http.map((r) => sec(r.cpuMs)).join(', ')} of CPU`,
	});
	row('4i', '  same: HTTP Request node (JSON pages) / bare fetch loop (info)', {
		stora: '',
		other: `HTTP Request ${sec(typical(http.map((r) => r.ms)))}`,
		ratio: summary(ratios(http.map((r) => r.ms), bareMs)),
		note: `runs: ${runsText(http.map((r) => r.ms))}`,
	});
}

// ------------------------------------------------------------------------------------------------ case 5

const DELIVERY_CONCURRENCY = 4;
// Short rounds alternating in a balanced order, so a change in the shared machine's load hits both sides alike.
const ROUNDS = ['stora', 'plain', 'plain', 'stora', 'plain', 'stora', 'stora', 'plain'];

function signedDelivery(secret, contactId) {
	const body = JSON.stringify({
		id: `evt_bench${randomUUID().replace(/-/g, '').slice(0, 16)}`,
		type: 'contact.created',
		created_at: new Date().toISOString(),
		data: { contact: { id: contactId } },
	});
	const t = Math.floor(Date.now() / 1000);
	const v1 = createHmac('sha256', secret).update(`${t}.`).update(body).digest('hex');
	return { body, signature: `t=${t},v1=${v1}` };
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
			const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-stora-signature': signature }, body, signal: AbortSignal.timeout(60_000) });
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
		n8n.request('GET', `/rest/executions?filter=${encodeURIComponent(JSON.stringify({ workflowId, status }))}&limit=${limit}`);
	const deadline = Date.now() + 180_000;
	for (;;) {
		const ok = await list(['success'], 100);
		const failed = (await list(['error', 'crashed', 'canceled'], 1)).count;
		if (ok.count + failed >= total) {
			return { lastStop: Math.max(...ok.results.map((e) => Date.parse(e.stoppedAt))), failed };
		}
		if (Date.now() > deadline) throw new Error(`${ok.count + failed} of ${total} executions finished after 180 s`);
		await sleep(200);
	}
}

/** Deliveries per second to the Stora Trigger and to the Webhook node in `n8n`, in alternating rounds. */
async function triggerRates(n8n, cfg, label) {
	const sandbox = await startSandbox({ seed: 'demo', allowHttpWebhooks: true });
	return await using(sandbox, (s) => s.close(), async () => {
		const credential = await n8n.createCredential('bench trigger (Stora)', 'storaApi', { baseUrl: sandbox.url, accessToken: sandbox.token });
		const stora = await publish(n8n, wf.storaTrigger(credential));
		const plain = await publish(n8n, wf.plainWebhook('bench-plain-webhook'));
		try {
			const [endpoint] = await sandbox.control.state('webhook_endpoints');
			// The sandbox runs in this process: the secret it signs with (the API returns it only on create).
			const secret = sandbox.core.webhookSecrets.get(endpoint?.id);
			if (!endpoint?.url || !secret) throw new Error('publishing the Stora Trigger registered no endpoint with a secret');
			const [contact] = await sandbox.control.state('contacts');
			const targets = {
				stora: { url: endpoint.url, workflow: stora, count: 0 },
				plain: { url: `${n8n.base}/webhook/bench-plain-webhook`, workflow: plain, count: 0 },
			};
			const make = () => signedDelivery(secret, contact.id);
			// Warm-up, not measured.
			for (const target of Object.values(targets)) {
				const { statuses } = await deliver(target.url, 10, 2, make);
				target.count += 10;
				if (statuses.some((s) => s !== 200)) throw new Error(`warm-up delivery answered ${statuses.find((s) => s !== 200)}`);
				await executionsDone(n8n, target.workflow.id, target.count);
			}
			const rates = { stora: [], plain: [] };
			for (const side of ROUNDS) {
				const target = targets[side];
				doing(`${label}: ${cfg.deliveries} signed deliveries to ${side === 'stora' ? 'Stora Trigger' : 'the Webhook node'}, ${DELIVERY_CONCURRENCY} at a time`);
				const { started, statuses } = await deliver(target.url, cfg.deliveries, DELIVERY_CONCURRENCY, make);
				target.count += cfg.deliveries;
				const bad = statuses.filter((s) => s !== 200);
				if (bad.length) throw new Error(`${bad.length} of ${cfg.deliveries} deliveries to ${side} answered ${bad[0]}`);
				const { lastStop, failed } = await executionsDone(n8n, target.workflow.id, target.count);
				if (failed) throw new Error(`${failed} executions of ${side} failed`);
				rates[side].push(cfg.deliveries / ((lastStop - started) / 1000));
				say(`${label}, ${side}: ${rates[side].at(-1).toFixed(1)} deliveries/s (answered and executed)`);
			}
			return rates;
		} finally {
			await n8n.deactivate(stora).catch(() => {});
			await n8n.deactivate(plain).catch(() => {});
		}
	});
}

/** The rates as a row: Stora Trigger / Webhook node, one ratio per pair of rounds. */
function triggerRow(id, what, rates, cfg, goal, reason = '') {
	row(id, what, {
		stora: `${median(rates.stora).toFixed(1)}/s`,
		other: `${median(rates.plain).toFixed(1)}/s`,
		ratio: summary(ratios(rates.stora, rates.plain)),
		goal,
		note:
			`${reason}${ROUNDS.length / 2} rounds of ${cfg.deliveries} deliveries per side (order ${ROUNDS.map((r) => (r === 'stora' ? 'S' : 'W')).join('')}), ` +
			`${DELIVERY_CONCURRENCY} at a time, each from the first send until the last execution stopped; per round: ` +
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
	await using(n8n, (n) => n.stop(), async () => {
		triggerRow('5a', 'Trigger: signed deliveries per second, Stora Trigger / Webhook node, n8n with N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true', await triggerRates(n8n, cfg, 'case 5'), cfg, GOALS['5a']);
	});
}

export async function defaultTriggerCase(n8n, cfg) {
	const reason =
		"n8n 2.41 as it comes builds an expression isolate for every delivery to any trigger but its own Webhook node (webhookPhaseNeedsIsolate in n8n's live-webhooks.js), before the one every execution gets; ";
	triggerRow('5d', '  same, n8n with its default settings (info)', await triggerRates(n8n, cfg, 'case 5d'), cfg, undefined, reason);
}
