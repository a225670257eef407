/**
 * With the documented limits (10 requests a second, 60 a minute) enforced by the sandbox, a probe run of
 * more than a minute's allowance is never answered 429, and the report counts its requests. Slow by nature (about a
 * minute): the second minute's requests must wait for the first minute's to age out.
 */
import { startSandbox, type StartedSandbox } from '../../sandbox/index';
import { runProbe } from './probeRun';

describe('npm run probe: documented rate limits', () => {
	let sandbox: StartedSandbox;
	beforeAll(async () => {
		sandbox = await startSandbox({ seed: 'demo', rateLimit: 'default' });
	});
	afterAll(async () => await sandbox.close());

	it('stays under 10/s and 60/min over more than 60 requests, and counts them', async () => {
		const started = Date.now();
		// At the whole documented budget (the default is a third of it): the limits must still never be met.
		const run = await runProbe(sandbox.url, sandbox.token, [
			'--pace',
			'10/60',
			'--lists',
			'invoices,units',
		]);
		const took = Date.now() - started;
		expect(run.code).toBe(0);
		const log = (await (await fetch(`${sandbox.url}/__sandbox/requests`)).json()) as {
			requests: Array<{ status: number }>;
		};
		expect(log.requests.filter((request) => request.status === 429)).toEqual([]);
		expect(run.json.probe).toMatchObject({
			rate_limited: 0,
			pacing: { per_second: 10, per_minute: 60, budget_share: 1 },
		});
		expect(run.json.probe.requests).toBe(log.requests.length);
		expect(run.json.probe.requests).toBeGreaterThan(60);
		expect(run.md).toContain(
			`Requests: ${log.requests.length} (0 answered 429), paced at 10/s and 60/min`,
		);
		// The 61st request waited for the first minute to pass.
		expect(took).toBeGreaterThan(55_000);
	}, 240_000);
});
