/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- test under test/, never published */
/**
 * `npm run probe` is safe by default on a production account: before its first request it says what it
 * will do (requests, time, share of the budget, the deliberate wrong token); its default pace is a third of the
 * documented budget (3/s, 20/min), held on a clock the test drives (no waiting on this machine's speed) and, on the
 * sandbox, read back from the request log as a lower bound; `http://` goes to loopback addresses only.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { startSandbox, type StartedSandbox } from '../../sandbox/index';
import { control, freePort, ROOT, runProbe } from './probeRun';
import { addVariety } from './variety';
import { table } from './expectations';

/** The times at which `count` requests are let through by the probe's pacer at `pace`, on a simulated clock. */
function pacedTimes(pace: { perSecond: number; perMinute: number }, count: number): number[] {
	const url = pathToFileURL(path.join(ROOT, 'scripts/probe/http.mjs')).href;
	const script = `
		const { createPacer } = await import(${JSON.stringify(url)});
		let now = 1_000_000;
		const clock = { now: () => now, sleep: async (ms) => { now += ms; } };
		const pacer = createPacer(${JSON.stringify(pace)}, clock);
		const times = [];
		for (let i = 0; i < ${count}; i++) { await pacer.acquire(); times.push(now); now += 50; pacer.release(); }
		process.stdout.write(JSON.stringify(times));`;
	return JSON.parse(
		execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }),
	) as number[];
}

/** The most requests in any window of `ms` starting at a request. */
const busiest = (times: number[], ms: number) =>
	Math.max(
		...times.map((start) => times.filter((time) => time >= start && time < start + ms).length),
	);

describe('npm run probe: pace and announcement', () => {
	let sandbox: StartedSandbox;
	beforeAll(async () => {
		sandbox = await startSandbox({ seed: 'demo', allowHttpWebhooks: true });
		await addVariety(
			sandbox.url,
			sandbox.token,
			table.map((list) => list.path),
		);
	});
	afterAll(async () => await sandbox.close());
	beforeEach(async () => await control(sandbox, 'DELETE', '/requests'));

	it('paces at most 3 a second and 20 a minute by default: a third of the documented budget', () => {
		const times = pacedTimes({ perSecond: 3, perMinute: 20 }, 70);
		expect(busiest(times, 1_000)).toBe(3);
		expect(busiest(times, 60_000)).toBe(20);
		// 70 requests at 20 a minute: more than three minutes of the simulated clock.
		expect(times[69] - times[0]).toBeGreaterThan(3 * 60_000);
	});

	it('says before its first request what it will do, and --plan stops there; the time it names is what the pace takes', async () => {
		const run = await runProbe(sandbox.url, sandbox.token, ['--plan', '--lists', 'contacts,deals']);
		expect(run.code).toBe(0);
		expect((await control(sandbox, 'GET', '/requests')).requests).toEqual([]);
		expect(run.stderr).toMatch(/reads only \(GET\): nothing on the account changes/);
		const said =
			/At most (\d+) requests while no other client writes \(up to (\d+) where other clients' writes make each parameter be read again once; a 429 is asked again up to 3 times\), at 3\/s and 20\/min: about (\d+) min (\d+) s, 33% of the documented budget \(10\/s, 60\/min per account\)/.exec(
				run.stderr,
			)!;
		expect(said).not.toBeNull();
		expect(run.stderr).toContain('One request is sent with a made-up token on purpose');
		expect(run.jsonText).toBe('');
		// The pacer itself, on a simulated clock (50 ms an answer), takes that long for that many requests.
		const [requests, minutes, seconds] = [Number(said[1]), Number(said[3]), Number(said[4])];
		const times = pacedTimes({ perSecond: 3, perMinute: 20 }, requests);
		const took = (times[times.length - 1] - times[0]) / 1000;
		expect(Math.abs(took - (minutes * 60 + seconds))).toBeLessThan((minutes * 60 + seconds) * 0.01);
	});

	it('announces before the first request on a real run, and makes no more requests than it said (all lists, --write)', async () => {
		const port = await freePort();
		const run = await runProbe(sandbox.url, sandbox.token, [
			'--pace',
			'1000/100000',
			'--write',
			'--yes',
			'--webhook-url',
			`http://127.0.0.1:${port}/hooks`,
			'--listen',
			String(port),
			'--webhook-wait',
			'5',
		]);
		expect(run.code).toBe(0);
		const lines = run.stderr.split('\n');
		expect(lines[0]).toMatch(/^npm run probe: .*, 24 list\(s\), reads and writes\.$/);
		const announced = Number(
			/^At most (\d+) requests while no other client writes/.exec(lines[1])![1],
		);
		expect(lines[2]).toContain('One request is sent with a made-up token on purpose');
		const requests = (await control(sandbox, 'GET', '/requests')).requests;
		// The report's count is the sandbox's, within what was announced and near it.
		expect(run.json.probe.requests).toBe(requests.length);
		expect(requests.length).toBeLessThanOrEqual(announced);
		expect(requests.length).toBeGreaterThanOrEqual(announced * 0.9);
		expect(run.md).toContain(`- Requests: ${requests.length} (0 answered 429)`);
		// The one request with a made-up token: the only 401.
		expect(requests.filter((request) => request.status === 401)).toHaveLength(1);
		expect(requests.filter((request) => request.method !== 'GET').length).toBeGreaterThan(0);
		// Only the documented API: its versioned routes and the token's info, no route of the sandbox's own.
		const elsewhere = (requests as Array<{ method: string; path: string }>).filter(
			(request) => !request.path.startsWith('/2025-09/') && request.path !== '/oauth2/token/info',
		);
		expect(elsewhere.map((request) => `${request.method} ${request.path}`)).toEqual([]);
		// The sandbox's control plane is not in its request log: no probe file may name it.
		const probeFiles = readdirSync(path.join(ROOT, 'scripts/probe')).filter((file) =>
			file.endsWith('.mjs'),
		);
		expect(
			probeFiles.filter((file) =>
				readFileSync(path.join(ROOT, 'scripts/probe', file), 'utf8').includes('__sandbox'),
			),
		).toEqual([]);
	}, 90_000);

	it('holds a pace over real requests: the sandbox received no more than it allows in any second', async () => {
		const run = await runProbe(sandbox.url, sandbox.token, [
			'--pace',
			'4/600',
			'--lists',
			'contract_templates',
		]);
		expect(run.code).toBe(0);
		const times = (
			(await control(sandbox, 'GET', '/requests')).requests as Array<{ at: string }>
		).map((request) => Date.parse(request.at));
		expect(times.length).toBeGreaterThan(10);
		// A lower bound from the sandbox's own log, whatever this machine's speed: the 5th after any request is a second later.
		for (let index = 0; index + 4 < times.length; index++)
			expect(times[index + 4] - times[index]).toBeGreaterThanOrEqual(1_000);
		expect(run.json.probe.pacing).toMatchObject({ per_second: 4, per_minute: 600 });
	}, 60_000);

	it('refuses http:// except to a loopback address, a pace above the documented budget remotely, and --yes without --write', async () => {
		for (const [base, args, message] of [
			[
				'http://public-api.stora.co',
				[],
				'STORA_BASE_URL must start with https:// (http:// only for a loopback address',
			],
			['http://10.0.0.5:8080', [], 'the token would travel in clear text'],
			[
				'https://public-api.stora.co',
				['--pace', '20/60'],
				'--pace above the documented 10/60 is only for a local sandbox.',
			],
			['https://public-api.stora.co', ['--pace', 'fast'], '--pace takes <per second>/<per minute>'],
			['https://public-api.stora.co', ['--yes'], '--yes goes with --write'],
		] as const) {
			const run = await runProbe(base, 'not-a-real-token', [...args]);
			expect([base, run.code]).toEqual([base, 1]);
			expect(run.stderr).toContain(message);
			expect(run.stderr).not.toContain('not-a-real-token');
		}
		const loopback = await runProbe(`http://127.0.0.2:${sandbox.port}`, 'a-token', ['--plan']);
		expect(loopback.code).toBe(0);
	}, 60_000);
});
