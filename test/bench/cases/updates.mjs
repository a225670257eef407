// Case 3: Contact → Update under 10/s and 600/min: the Stora node against the floor with each place held until its
// answer, and against the HTTP Request node's batching; CPU per 1,000 updates.
import {
	cpuPer1000,
	credentialsFor,
	floorMs,
	publish,
	row,
	runName,
	runsText,
	sec,
	summary,
	using,
} from '../harness.mjs';
import { seedContacts, startSandboxProcess } from '../sandbox.mjs';
import * as wf from '../workflows.mjs';
import {
	bothSides,
	GOALS,
	onTheWire,
	rateLimit,
	ratios,
	Spacing,
	typical,
	UPDATE_LIMITS,
} from './common.mjs';

export async function updatesCase(n8n, cfg) {
	const sandbox = await startSandboxProcess({ rateLimit: UPDATE_LIMITS, latencyMs: cfg.latencyMs });
	await using(
		sandbox,
		(s) => s.stop(),
		async () => {
			const ids = await seedContacts(sandbox.control, cfg.updates);
			const body = { contacts: ids.map((id) => ({ id })) };
			const floor = floorMs(cfg.updates, UPDATE_LIMITS, cfg.latencyMs, { sequential: false });
			const heldFloor = floorMs(cfg.updates, UPDATE_LIMITS, cfg.latencyMs, {
				sequential: false,
				heldUntilAnswer: true,
			});
			const spacing = new Spacing(wf.HTTP_SETTINGS.updateBatchIntervalsMs);

			const storaRun = async (k) => {
				// A 600/min plan: the credential's Rate Limit says so, as the README tells a user to set it.
				const creds = await credentialsFor(
					n8n,
					sandbox,
					`case 3 Stora ${k + 1}`,
					rateLimit(UPDATE_LIMITS.perSecond, UPDATE_LIMITS.perMinute),
				);
				const flow = await publish(n8n, wf.storaUpdates(`bench-c3-stora-${k}`, creds.stora));
				const label = `case 3, ${runName(k, cfg.closeReps)}: Stora node, ${cfg.updates} Contact → Update at 10/s and 600/min (floor ${sec(floor)})`;
				return await onTheWire(n8n, sandbox, flow, label, {
					body,
					first: 'Stora',
					last: 'Stora',
					items: cfg.updates,
				});
			};
			const httpAttempt = (k) => async (batchIntervalMs) => {
				const creds = await credentialsFor(n8n, sandbox, `case 3 HTTP ${k + 1} ${batchIntervalMs}`);
				const flow = await publish(
					n8n,
					wf.httpUpdates(`bench-c3-http-${k}-${batchIntervalMs}`, creds.bearer, sandbox.url, {
						batchIntervalMs,
					}),
				);
				const label = `case 3, ${runName(k, cfg.closeReps)}: HTTP Request node, ${cfg.updates} PATCHes, batches of ${wf.HTTP_SETTINGS.updateBatchSize} every ${batchIntervalMs} ms`;
				return await onTheWire(n8n, sandbox, flow, label, {
					body,
					first: 'HTTP Request',
					last: 'HTTP Request',
					items: cfg.updates,
				});
			};
			// One run of each side first, not measured, as cases 2 and 3d do: in a run of cases 3 and 3d alone, the first of
			// five was the Stora side's costliest by far (its CPU per 1,000 updates 0.815 of HTTP Request's, the others 0.6).
			await storaRun(cfg.closeReps);
			await httpAttempt(cfg.closeReps)(spacing.current);
			const { stora, http } = await bothSides(cfg.closeReps, spacing, storaRun, httpAttempt);

			const storaMs = stora.map((r) => r.ms);
			const httpMs = http.map((r) => r.ms);
			const cpu = (runs) => runs.map((r) => (r.ok ? cpuPer1000(r, cfg.updates) : NaN));
			// 3a divides by the floor the design can reach: the node's budget holds a request's place in a window from its
			// sending until its answer (Stora does not document where in the round trip it counts a request), which costs
			// one round trip per window. The bare-window floor is 3s, for information.
			row(
				'3a',
				`${cfg.updates.toLocaleString('en')} Contact → Update at 10/s, 600/min, ${cfg.latencyMs} ms latency: Stora node / floor with each place held until its answer`,
				{
					stora: sec(typical(storaMs)),
					other: `floor ${sec(heldFloor)}`,
					ratio: summary(storaMs.map((ms) => ms / heldFloor)),
					goal: GOALS['3a'],
					note:
						`runs: ${runsText(storaMs)}; the credential's Rate Limit: Custom, 10 per second, 600 per minute; ` +
						`429 answers (retried): ${stora.map((r) => r.wire.limited).join(', ')}; reached the user: ${stora.reduce((n, r) => n + r.user429, 0)}; ` +
						`first request ${stora.map((r) => sec(r.wire.firstAt - r.startTime)).join(', ')} after the node started`,
				},
			);
			const firstMs = stora.map((r) => (r.ok ? r.wire.firstAt - r.startTime : NaN));
			row('3f', '  same: the first update sent after the Stora node started, seconds', {
				stora: sec(typical(firstMs)),
				other: '',
				ratio: summary(firstMs.map((ms) => ms / 1000)),
				goal: GOALS['3f'],
				note: `from the node's start in n8n's run data to the first PATCH the sandbox logged: ${firstMs.map((ms) => sec(ms)).join(', ')}`,
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
					'information, not a goal: both are bound by the same 10 per second; 3a and 3f are the goals',
			});
			row('3c', '  same: CPU per 1,000 updates, Stora / HTTP Request', {
				stora: `${typical(cpu(stora)).toFixed(0)} ms`,
				other: `${typical(cpu(http)).toFixed(0)} ms`,
				ratio: summary(ratios(cpu(stora), cpu(http))),
				goal: GOALS['3c'],
				note: `n8n and its task runner, from the webhook call until the execution was saved; Stora ${cpu(
					stora,
				)
					.map((v) => v.toFixed(0))
					.join(', ')} ms, HTTP Request ${cpu(http)
					.map((v) => v.toFixed(0))
					.join(', ')} ms`,
			});
			row('3i', '  same: HTTP Request node / floor (info)', {
				stora: '',
				other: `HTTP Request ${sec(typical(httpMs))}`,
				ratio: summary(httpMs.map((ms) => ms / floor)),
			});
		},
	);
}
