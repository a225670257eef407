/**
 * What keeps `npm run probe` safe to point at a real account: it stops on the first 401/403 it did not
 * provoke, skips what the token may not read instead of provoking a 403, never writes the token (even when the server
 * echoes it), refuses a pace above the documented limits against a remote API, and reports the rate-limit headers
 * the API sends under each header mode.
 */
import { startSandbox, type StartedSandbox } from '../../sandbox/index';
import { control, leaks, runProbe } from './probeRun';

const V = '/2025-09';
const FAST = ['--pace', '1000/100000'];

describe('npm run probe: safety', () => {
	let sandbox: StartedSandbox;
	beforeAll(async () => {
		sandbox = await startSandbox({ seed: 'demo' });
	});
	afterAll(async () => await sandbox.close());
	beforeEach(async () => {
		await control(sandbox, 'DELETE', '/faults');
		await control(sandbox, 'DELETE', '/requests');
	});

	it('stops on the first 403 it did not expect, reports what it has and exits 2', async () => {
		await control(sandbox, 'POST', '/faults', {
			match: { method: 'GET', path: `${V}/contract_templates` },
			responses: [{ status: 403 }],
		});
		const run = await runProbe(sandbox.url, sandbox.token, [
			...FAST,
			'--lists',
			'contacts,contract_templates,deals',
		]);
		expect(run.code).toBe(2);
		expect(run.json.probe.stopped).toMatch(/GET \/2025-09\/contract_templates answered 403/);
		expect(run.md).toContain('Stopped early');
		expect(run.point(`GET ${V}/contacts?type`).verdict).toBe('honoured');
		expect(run.point(`GET ${V}/deals?status`)).toMatchObject({
			verdict: 'unknown',
			evidence: 'not reached: the probe stopped',
		});
		const requests = (await control(sandbox, 'GET', '/requests')).requests;
		expect(requests.some((request) => String(request.path).startsWith(`${V}/deals`))).toBe(false);
		expect(requests.length).toBe(run.json.probe.requests);
	}, 60_000);

	it('stops at once on a token that no longer works (its own 401 is not the deliberate one)', async () => {
		const expired = sandbox.createToken('all', 0);
		const run = await runProbe(sandbox.url, expired, FAST);
		expect(run.code).toBe(2);
		expect(run.json.probe.stopped).toMatch(/GET \/oauth2\/token\/info answered 401 invalid_token/);
		expect(run.json.probe.requests).toBe(1);
		expect(leaks(run, expired)).toEqual([]);
	}, 60_000);

	it('stops at once when nothing answers at the base URL', async () => {
		const run = await runProbe('http://127.0.0.1:1', 'a-token-for-nowhere', FAST);
		expect(run.code).toBe(2);
		expect(run.json.probe.stopped).toMatch(
			/GET \/oauth2\/token\/info got no answer .*check STORA_BASE_URL/,
		);
		expect(leaks(run, 'a-token-for-nowhere')).toEqual([]);
	}, 60_000);

	it('asks only the lists the token may read: no 403 is ever provoked', async () => {
		const token = sandbox.createToken(['public.deal:read']);
		const run = await runProbe(sandbox.url, token, [...FAST, '--lists', 'deals,tasks']);
		expect(run.code).toBe(0);
		expect(run.point(`GET ${V}/tasks?status`)).toMatchObject({
			verdict: 'unknown',
			evidence: '(not in the docs) not asked: the token lacks public.task:read',
		});
		expect(run.point(`GET ${V}/deals?status`).verdict).toBe('honoured');
		// Expanding needs the related record's read scope: none of the deal's references is readable with this token.
		expect(run.point(`GET ${V}/deals?expand`).verdict).toBe('unknown');
		expect(run.point('scope public.unit:read').verdict).toBe('unknown');
		expect(run.json.probe.scopes).toEqual(['public.deal:read']);
		const requests = (await control(sandbox, 'GET', '/requests')).requests;
		expect(requests.filter((request) => request.status === 403)).toEqual([]);
		expect(requests.filter((request) => request.status === 401)).toHaveLength(1);
	}, 60_000);

	it('never writes the token, even when the server echoes it back', async () => {
		const echo = {
			error: {
				code: 'invalid_endpoint',
				type: 'invalid_request_error',
				message: `No endpoint for Bearer ${sandbox.token} (token ${sandbox.token})`,
				links: [],
				details: [],
				request_id: 'r',
			},
		};
		await control(sandbox, 'POST', '/faults', {
			match: { method: 'GET', path: `${V}/probe_no_such_endpoint` },
			responses: [{ status: 404, body: echo }],
		});
		const run = await runProbe(sandbox.url, sandbox.token, [
			...FAST,
			'--lists',
			'contract_templates',
		]);
		expect(run.code).toBe(0);
		expect(run.point('error 404 invalid_endpoint').evidence).toContain('[redacted]');
		expect(leaks(run, sandbox.token)).toEqual([]);
	}, 60_000);

	it('settles what a 401, 404 and 422 look like', async () => {
		const run = await runProbe(sandbox.url, sandbox.token, [...FAST, '--lists', 'contacts']);
		expect(run.point('error 401 (a token that does not exist)').verdict).toBe('as documented');
		expect(run.point(`error 404 resource_not_found (GET ${V}/contacts/{id})`).verdict).toBe(
			'as documented',
		);
		expect(run.point('error 404 invalid_endpoint').verdict).toBe('as documented');
		expect(run.point('error 422 invalid_url_param').evidence).toContain(
			"a query parameter's pointer is the parameter name",
		);
		// A 401 that is not the documented one is told apart.
		await control(sandbox, 'POST', '/faults', {
			match: { method: 'GET', path: `${V}/contacts` },
			responses: [{ status: 401, body: { error: { code: 'unauthorized' } } }],
		});
		const odd = await runProbe(sandbox.url, sandbox.token, [...FAST, '--lists', 'contacts']);
		expect(odd.point('error 401 (a token that does not exist)').verdict).toBe('differs');
	}, 60_000);

	it('refuses a pace above the documented limits against a remote API, and bad options', async () => {
		for (const [args, message] of [
			[['--pace', '20/60'], '--pace above the documented 10/60 is only for a local sandbox.'],
			[
				['--webhook-url', 'https://example.com/hook', '--listen', '8080'],
				'--webhook-url needs --write',
			],
			[['--lists', 'nothing'], '--lists: no list nothing'],
			[['--sample', '1'], '--sample takes a whole number from 2 to 100.'],
		] as const) {
			const run = await runProbe('https://public-api.stora.co', 'not-a-real-token', [...args]);
			expect(run.code).toBe(1);
			expect(run.stderr).toContain(message);
			expect(run.jsonText).toBe('');
		}
		const missing = await runProbe('', '', []);
		expect(missing.code).toBe(1);
		expect(missing.stderr).toContain('Set STORA_BASE_URL and STORA_ACCESS_TOKEN');
	}, 60_000);
});

describe.each(['full', 'documented'] as const)(
	'npm run probe: rate-limit headers in the %s headers mode',
	(headers) => {
		let sandbox: StartedSandbox;
		beforeAll(async () => {
			sandbox = await startSandbox({
				seed: 'demo',
				headers,
				rateLimit: { perSecond: 1000, perMinute: 100_000 },
			});
		});
		afterAll(async () => await sandbox.close());

		it('reports each header as the sandbox sends it', async () => {
			const run = await runProbe(sandbox.url, sandbox.token, [
				...FAST,
				'--lists',
				'contract_templates',
			]);
			const extra = headers === 'full' ? 'present' : 'absent';
			expect({
				limit: run.point('header RateLimit-Limit').verdict,
				reset: run.point('header RateLimit-Reset').verdict,
				remaining: run.point('header RateLimit-Remaining').verdict,
				policy: run.point('header RateLimit-Policy').verdict,
				form: run.point('header RateLimit-Reset form').verdict,
			}).toEqual({
				limit: 'present',
				reset: 'present',
				remaining: extra,
				policy: extra,
				form: 'Unix time (seconds)',
			});
			expect(run.point('header RateLimit-Policy').where).toContain(
				'nodes/Stora/transport/rateLimit/',
			);
		}, 60_000);
	},
);
