// Case 4 (a list of 150,000 records: time, peak memory and CPU, each side in an n8n process of its own) and case 6
// (n8n's start with and without the package), run together because both start n8n processes of their own.
import { sleep, startN8n } from '../../realN8n/n8n.mjs';
import { bareCsvLoop } from '../bare.mjs';
import {
	alternated,
	cpuPer1000,
	credentialsFor,
	doing,
	median,
	publish,
	row,
	runOnce,
	runsText,
	say,
	sec,
	summary,
	using,
} from '../harness.mjs';
import { memory, resetPeak, sampleRss } from '../proc.mjs';
import { startLargeListProcess } from '../sandbox.mjs';
import * as wf from '../workflows.mjs';
import { GOALS, NO_RATE_LIMIT, ratios, typical } from './common.mjs';

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
		? wf.storaReturnAll(`bench-c4-warm-${side}`, creds.stora, {
				resource: 'site',
				returnAll: false,
				limit: 100,
			})
		: wf.httpReturnAll(`bench-c4-warm-${side}`, creds.bearer, list.url, {
				list: 'sites',
				splitOut: false,
				maxPages: 1,
			});
	await runOnce(n8n, await publish(n8n, warm), { first, last });
	const measured = await publish(
		n8n,
		stora
			? wf.storaReturnAll(`bench-c4-${side}`, creds.stora, {
					resource: 'site',
					outputFormat: 'csv',
				})
			: wf.httpReturnAll(`bench-c4-${side}`, creds.bearer, list.url, {
					list: 'sites',
					splitOut: false,
				}),
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
	await using(
		list,
		(l) => l.stop(),
		async () => {
			for (const [k, order] of alternated(cfg.reps).entries()) {
				result.starts[k] = { with: [], without: [] };
				const plan = [...(starts ? [null] : []), ...order];
				for (const side of plan) {
					const kind = side ? 'with' : 'without';
					const label = side === 'S' ? 'Stora node' : 'HTTP Request node';
					doing(
						`case ${footprints && side ? 4 : 6}, run ${k + 1}: n8n start ${kind} the package${side && footprints ? `, then ${label}, ${cfg.bigList} records` : ''}`,
					);
					const n8n = await startN8n(side ? { tarball } : {});
					await using(
						n8n,
						(n) => n.stop(),
						async () => {
							result.starts[k][kind].push(n8n.timings.ready);
							if (!side || !footprints) return;
							const run = await footprint(n8n, list, side === 'S' ? 'stora' : 'http', cfg);
							(side === 'S' ? result.stora : result.http)[k] = run;
							say(
								`case 4, ${label}: ${run.ok ? sec(run.ms) : run.failure}, CPU ${sec(run.cpuMs)}, peak RSS +${(run.growthKb / 1024).toFixed(0)} MiB over ${(run.baselineKb / 1024).toFixed(0)} MiB`,
							);
						},
					);
				}
				if (footprints) {
					doing(`case 4, run ${k + 1}: bare fetch loop, ${cfg.bigList} records as CSV`);
					const bare = await bareCsvLoop(list.url, 'tok_bench');
					if (bare.items !== cfg.bigList) throw new Error(`bare CSV loop: ${bare.items} records`);
					result.bare[k] = bare;
				}
			}
		},
	);
	if (footprints) bigListRows(result, cfg);
	if (starts) {
		const withMs = result.starts.flatMap((rep) => rep.with);
		const without = result.starts.flatMap((rep) => rep.without);
		row(
			'6a',
			'n8n start until REST answers, fresh user folder: with the package / without (info)',
			{
				stora: sec(typical(withMs)),
				other: sec(typical(without)),
				// Per repetition: its starts with the package (two) against its start without.
				ratio: summary(result.starts.map((rep) => median(rep.with) / rep.without[0])),
				note: `starts: without ${runsText(without)}; with ${runsText(withMs)}`,
			},
		);
	}
}

function bigListRows({ stora, http, bare }, cfg) {
	const n = cfg.bigList;
	const storaMs = stora.map((r) => r.ms);
	const bareMs = bare.map((r) => r.ms);
	const per1000Kb = (r) => (r.ok ? (r.growthKb / n) * 1000 : NaN);
	const mib = (kb) => `${(kb / 1024).toFixed(1)} MiB`;
	const failed = (runs) =>
		runs.some((r) => !r.ok)
			? `; failed: ${runs
					.filter((r) => !r.ok)
					.map((r) => r.failure)
					.join('; ')}`
			: '';
	row(
		'4a',
		`Return All of ${n.toLocaleString('en')} records as one CSV file, no rate limit, ${cfg.bigLatencyMs} ms latency: Stora node / bare fetch loop`,
		{
			stora: sec(typical(storaMs)),
			other: `bare loop ${sec(typical(bareMs))}`,
			ratio: summary(ratios(storaMs, bareMs)),
			goal: GOALS['4a'],
			note: `runs: Stora ${runsText(storaMs)}; bare loop ${runsText(bareMs)} (${bare[0].requests} requests each)${failed(stora)}`,
		},
	);
	row(
		'4b',
		'  same: peak memory (RSS growth of the n8n process) per 1,000 records, Stora / HTTP Request',
		{
			stora: mib(typical(stora.map(per1000Kb))),
			other: mib(typical(http.map(per1000Kb))),
			ratio: summary(ratios(stora.map(per1000Kb), http.map(per1000Kb))),
			goal: GOALS['4b'],
			note:
				`peak over the RSS before the run (${stora.every((r) => r.exact) && http.every((r) => r.exact) ? "kernel's peak mark, reset before the run" : 'sampled every 50 ms'}), own n8n per run: ` +
				`Stora +${stora.map((r) => (r.growthKb / 1024).toFixed(0)).join(', ')} MiB, HTTP Request +${http.map((r) => (r.growthKb / 1024).toFixed(0)).join(', ')} MiB${failed(http)}`,
		},
	);
	row('4c', '  same: CPU per 1,000 records, Stora / HTTP Request', {
		stora: `${typical(stora.map((r) => cpuPer1000(r, n))).toFixed(0)} ms`,
		other: `${typical(http.map((r) => cpuPer1000(r, n))).toFixed(0)} ms`,
		ratio: summary(
			ratios(
				stora.map((r) => (r.ok ? r.cpuMs : NaN)),
				http.map((r) => (r.ok ? r.cpuMs : NaN)),
			),
		),
		goal: GOALS['4c'],
		note: `n8n and its task runner: Stora ${stora.map((r) => sec(r.cpuMs)).join(', ')}, HTTP Request ${http.map((r) => sec(r.cpuMs)).join(', ')} of CPU`,
	});
	row('4i', '  same: HTTP Request node (JSON pages) / bare fetch loop (info)', {
		stora: '',
		other: `HTTP Request ${sec(typical(http.map((r) => r.ms)))}`,
		ratio: summary(
			ratios(
				http.map((r) => r.ms),
				bareMs,
			),
		),
		note: `runs: ${runsText(http.map((r) => r.ms))}`,
	});
}
