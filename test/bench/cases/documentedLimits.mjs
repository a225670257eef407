// Case 1: Return All under the documented limits (10/s, 60/min): the Stora node against the floor those limits
// allow, and against the HTTP Request node spaced as a careful user spaces it; no 429 may reach the user.
import {
	cpuPer1000,
	credentialsFor,
	floorMs,
	publish,
	row,
	runsText,
	sec,
	summary,
	untilMinuteStarts,
	using,
} from '../harness.mjs';
import { seedOrders, startSandboxProcess } from '../sandbox.mjs';
import * as wf from '../workflows.mjs';
import { bothSides, DOCUMENTED, GOALS, onTheWire, ratios, Spacing, typical } from './common.mjs';

export async function documentedLimitsCase(n8n, cfg) {
	const sandbox = await startSandboxProcess({ rateLimit: DOCUMENTED, latencyMs: cfg.latencyMs });
	await using(
		sandbox,
		(s) => s.stop(),
		async () => {
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
				return await onTheWire(n8n, sandbox, flow, label, {
					first: 'Stora',
					last: 'Stora',
					items: cfg.orders,
				});
			};
			const httpAttempt = (k) => async (intervalMs) => {
				const creds = await credentialsFor(n8n, sandbox, `case 1 HTTP ${k + 1} ${intervalMs}`);
				const flow = await publish(
					n8n,
					wf.httpReturnAll(`bench-c1-http-${k}-${intervalMs}`, creds.bearer, sandbox.url, {
						intervalMs,
					}),
				);
				const label = `case 1, run ${k + 1}: HTTP Request node, Return All of ${cfg.orders} orders, ${intervalMs} ms between pages`;
				return await onTheWire(n8n, sandbox, flow, label, {
					first: 'HTTP Request',
					last: 'Split Out',
					items: cfg.orders,
				});
			};
			const { stora, http } = await bothSides(cfg.reps, spacing, storaRun, httpAttempt);

			const storaMs = stora.map((r) => r.ms);
			const httpMs = http.map((r) => r.ms);
			row(
				'1a',
				`Return All of ${cfg.orders.toLocaleString('en')} orders at 10/s, 60/min, ${cfg.latencyMs} ms latency: Stora node / floor`,
				{
					stora: sec(typical(storaMs)),
					other: `floor ${sec(floor)}`,
					ratio: summary(storaMs.map((ms) => ms / floor)),
					goal: GOALS['1a'],
					note:
						`runs: ${runsText(storaMs)}; ${stora[0].wire.requests} requests each` +
						`${
							stora.some((r) => !r.ok)
								? `; failed: ${stora
										.filter((r) => !r.ok)
										.map((r) => r.failure)
										.join('; ')}`
								: ''
						}` +
						`; floor: ${pages} pages, 60 in any minute, 10 in any second, one after the other`,
				},
			);
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
				ratio: summary(
					ratios(
						stora.map((r) => r.cpuMs),
						http.map((r) => r.cpuMs),
					),
				),
			});
		},
	);
}
