// Case 3d: Contact → Create with no rate limit, so the figure is the work per item and not the waiting between
// requests: CPU per 1,000 creates, the Stora node against the HTTP Request node, and beside them the smallest
// declarative node that sends the same request (test/bench/reference/): what n8n's RoutingNode itself costs per item.
import {
	alternated,
	cpuPer1000,
	credentialsFor,
	publish,
	row,
	runName as repetitionName,
	summary,
	using,
} from '../harness.mjs';
import { startSandboxProcess } from '../sandbox.mjs';
import * as wf from '../workflows.mjs';
import { GOALS, NO_RATE_LIMIT, onTheWire, ratios, typical } from './common.mjs';

/** Executions of 500 creates per side in one repetition, their CPU added. */
const EXECUTIONS = 3;

export async function createsCase(n8n, cfg) {
	const sandbox = await startSandboxProcess({ rateLimit: 'off', latencyMs: cfg.latencyMs });
	await using(
		sandbox,
		(s) => s.stop(),
		async () => {
			const runs = { S: [], R: [], D: [] };
			const runName = (k) => repetitionName(k, cfg.closeReps);
			const body = (side, k) => ({
				contacts: Array.from({ length: cfg.updates }, (_, i) => ({
					email: `bench.${side}${k}.${i}@example.com`,
					full_name: `Bench ${side}${k} ${i}`,
				})),
			});
			// One execution of each side, each published anew (a run deactivates its workflow).
			const sides = {
				S: async (k, e, creds) => {
					const flow = await publish(
						n8n,
						wf.storaCreates(`bench-c3d-stora-${k}-${e}`, creds.stora),
					);
					const label = `case 3d, ${runName(k)}: Stora node, ${cfg.updates} Contact → Create, no rate limit (${e + 1} of ${EXECUTIONS})`;
					return await onTheWire(n8n, sandbox, flow, label, {
						body: body(`s${e}-`, k),
						first: 'Stora',
						last: 'Stora',
						items: cfg.updates,
					});
				},
				R: async (k, e, creds) => {
					const flow = await publish(
						n8n,
						wf.httpCreates(`bench-c3d-http-${k}-${e}`, creds.bearer, sandbox.url),
					);
					const label = `case 3d, ${runName(k)}: HTTP Request node, ${cfg.updates} POSTs, no batching (${e + 1} of ${EXECUTIONS})`;
					return await onTheWire(n8n, sandbox, flow, label, {
						body: body(`r${e}-`, k),
						first: 'HTTP Request',
						last: 'HTTP Request',
						items: cfg.updates,
					});
				},
				D: async (k, e, creds) => {
					const flow = await publish(
						n8n,
						wf.referenceCreates(`bench-c3d-reference-${k}-${e}`, creds.bearer, sandbox.url),
					);
					const label = `case 3d, ${runName(k)}: a minimal declarative node, ${cfg.updates} Contact → Create (${e + 1} of ${EXECUTIONS})`;
					return await onTheWire(n8n, sandbox, flow, label, {
						body: body(`d${e}-`, k),
						first: 'Reference',
						last: 'Reference',
						items: cfg.updates,
					});
				},
			};
			/**
			 * A repetition: the sides' executions take turns (S R S R S R, or R S ... when R goes first), so what drifts
			 * in n8n meanwhile (its heap, its database) falls on both; each side's CPU is the sum over its executions. One
			 * execution's CPU moved by up to a third between executions (HTTP Request 2,800 to 3,880 ms), and with two
			 * executions a side, one pair of five still went over the goal.
			 */
			const repetition = async (k, order, executions) => {
				const creds = {
					S: await credentialsFor(n8n, sandbox, `case 3d Stora ${runName(k)}`, NO_RATE_LIMIT),
					R: await credentialsFor(n8n, sandbox, `case 3d HTTP ${runName(k)}`),
					D: await credentialsFor(n8n, sandbox, `case 3d reference ${runName(k)}`),
				};
				const done = { S: [], R: [], D: [] };
				for (let e = 0; e < executions; e++)
					for (const side of order) done[side].push(await sides[side](k, e, creds[side]));
				for (const side of order) {
					const failed = done[side].find((run) => !run.ok);
					runs[side][k] = failed ?? {
						ok: true,
						cpuMs: done[side].reduce((sum, run) => sum + run.cpuMs, 0),
					};
				}
			};
			// One execution of each side first, not measured: in an earlier run, the first of five was each side's costliest
			// (Stora 8,020 ms against 6,840 to 7,460; HTTP Request 10,020 against 7,220 to 8,800).
			await repetition(cfg.closeReps, ['S', 'R', 'D'], 1);
			// The reference goes last, first and between the other two in turn, so no side always follows the same one.
			const withReference = (order, k) =>
				[
					[...order, 'D'],
					['D', ...order],
					[order[0], 'D', order[1]],
				][k % 3];
			for (const [k, order] of alternated(cfg.closeReps).entries())
				await repetition(k, withReference(order, k), EXECUTIONS);
			const cpu = (list) =>
				list
					.slice(0, cfg.closeReps)
					.map((r) => (r.ok ? cpuPer1000(r, EXECUTIONS * cfg.updates) : NaN));
			row(
				'3d',
				`${cfg.updates.toLocaleString('en')} Contact → Create, no rate limit, ${cfg.latencyMs} ms latency: CPU per 1,000 creates, Stora / HTTP Request`,
				{
					stora: `${typical(cpu(runs.S)).toFixed(0)} ms`,
					other: `${typical(cpu(runs.R)).toFixed(0)} ms`,
					ratio: summary(ratios(cpu(runs.S), cpu(runs.R))),
					goal: GOALS['3d'],
					note: `n8n and its task runner, from the webhook call until the execution was saved; ${EXECUTIONS} executions of ${cfg.updates} a side in each repetition, the sides taking turns; Stora ${cpu(
						runs.S,
					)
						.map((v) => v.toFixed(0))
						.join(', ')} ms, HTTP Request ${cpu(runs.R)
						.map((v) => v.toFixed(0))
						.join(', ')} ms`,
				},
			);
			row(
				'3e',
				'  same: CPU per 1,000 creates, a minimal declarative node (n8n-nodes-starter style, two routed fields) / HTTP Request (info)',
				{
					other: `minimal node ${typical(cpu(runs.D)).toFixed(0)} ms, HTTP Request ${typical(cpu(runs.R)).toFixed(0)} ms`,
					ratio: summary(ratios(cpu(runs.D), cpu(runs.R))),
					note: `what n8n's RoutingNode costs for any declarative node sending this request; information, not a goal; Stora / the minimal node: ${summary(
						ratios(cpu(runs.S), cpu(runs.D)),
					)
						.values.map((v) => v.toFixed(3))
						.join(', ')}; the minimal node ${cpu(runs.D)
						.map((v) => v.toFixed(0))
						.join(', ')} ms`,
				},
			);
		},
	);
}
