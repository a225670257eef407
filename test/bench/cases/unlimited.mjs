// Case 2: Return All with no rate limit: the Stora node's walk against a bare fetch loop (what the network allows),
// the HTTP Request node for information.
import { bareLoop } from '../bare.mjs';
import {
	alternated,
	credentialsFor,
	doing,
	publish,
	row,
	runName as repetitionName,
	runOnce,
	runsText,
	sec,
	summary,
	using,
} from '../harness.mjs';
import { seedOrders, startSandboxProcess } from '../sandbox.mjs';
import * as wf from '../workflows.mjs';
import { GOALS, rateLimit, ratios, typical } from './common.mjs';

/**
 * Case 2's walk: a plan of 24 requests a second and no minute limit. One page after the other at 50 ms latency, 24
 * requests span more than a second, so the budget never makes the walk wait. What is left is the node's own work.
 */
const SEQUENTIAL_PLAN = rateLimit(24, 0);

export async function unlimitedCase(n8n, cfg) {
	const sandbox = await startSandboxProcess({ rateLimit: 'off', latencyMs: cfg.latencyMs });
	await using(
		sandbox,
		(s) => s.stop(),
		async () => {
			await seedOrders(sandbox.control, cfg.orders);
			const token = await sandbox.control.token('all');
			const runs = { sequential: [], bare: [], http: [] };
			const runName = (k) => repetitionName(k, cfg.closeReps);
			const stora = async (kind, k) => {
				const creds = await credentialsFor(
					n8n,
					sandbox,
					`case 2 ${kind} ${k + 1}`,
					SEQUENTIAL_PLAN,
				);
				const flow = await publish(n8n, wf.storaReturnAll(`bench-c2-${kind}-${k}`, creds.stora));
				doing(
					`case 2, ${runName(k)}: Stora node, Return All of ${cfg.orders} orders, no rate limit`,
				);
				await sandbox.control.clearRequests();
				const run = await runOnce(n8n, flow, { first: 'Stora', last: 'Stora', items: cfg.orders });
				run.requests = (await sandbox.control.requests()).filter((r) =>
					r.path.startsWith('/2025-09/'),
				).length;
				runs[kind][k] = run;
			};
			const bare = async (k) => {
				doing(`case 2, ${runName(k)}: bare fetch loop`);
				const r = await bareLoop(sandbox.url, token);
				if (r.items !== cfg.orders) throw new Error(`bare loop: ${r.items} items`);
				runs.bare[k] = r;
			};
			const http = async (k) => {
				doing(
					`case 2, ${runName(k)}: HTTP Request node, Return All of ${cfg.orders} orders, no interval`,
				);
				const creds = await credentialsFor(n8n, sandbox, `case 2 HTTP ${k + 1}`);
				const flow = await publish(
					n8n,
					wf.httpReturnAll(`bench-c2-http-${k}`, creds.bearer, sandbox.url),
				);
				runs.http[k] = await runOnce(n8n, flow, {
					first: 'HTTP Request',
					last: 'Split Out',
					items: cfg.orders,
				});
			};
			const repetition = async (k, order) => {
				const steps = [() => stora('sequential', k), () => bare(k), () => http(k)];
				for (const step of order[0] === 'S' ? steps : steps.reverse()) await step();
			};
			// One repetition first, not measured, as in cases 3d and 4: the first Return All in this n8n (case 5d before it
			// only received deliveries) runs the node's list paths cold. Without it, the first of five was the sequential
			// walk's slowest in the last three full runs (6.0, 5.9 and 6.2 s against 5.7 to 5.9), once over 2a's goal (1.102).
			await repetition(cfg.closeReps, ['S', 'R']);
			for (const [k, order] of alternated(cfg.closeReps).entries()) await repetition(k, order);
			const measured = (kind) => runs[kind].slice(0, cfg.closeReps);
			const bareMs = measured('bare').map((r) => r.ms);
			const ms = (kind) => measured(kind).map((r) => r.ms);
			const failures = (kind) =>
				measured(kind)
					.filter((r) => !r.ok)
					.map((r) => r.failure);
			const failed = (kind) =>
				failures(kind).length ? `; failed: ${[...new Set(failures(kind))].join('; ')}` : '';
			row(
				'2a',
				`Return All of ${cfg.orders.toLocaleString('en')} orders, no rate limit, ${cfg.latencyMs} ms latency, sequential walk: Stora node / bare fetch loop`,
				{
					stora: sec(typical(ms('sequential'))),
					other: `bare loop ${sec(typical(bareMs))}`,
					ratio: summary(ratios(ms('sequential'), bareMs)),
					goal: GOALS['2a'],
					note:
						`runs: Stora ${runsText(ms('sequential'))}; bare loop ${runsText(bareMs)}${failed('sequential')}. ` +
						`The Stora credential's Rate Limit: Custom, 24 per second, 0 per minute; ` +
						`${runs.sequential[0].requests} requests each`,
				},
			);
			row('2i', '  same, HTTP Request node (pagination, no interval) / bare fetch loop (info)', {
				stora: '',
				other: `HTTP Request ${sec(typical(ms('http')))}`,
				ratio: summary(ratios(ms('http'), bareMs)),
				note: `runs: ${runsText(ms('http'))}${failed('http')}`,
			});
		},
	);
}
