/**
 * `npm run probe -- --write` on the sandbox: a contact created, replayed with its Idempotency-Key and
 * deleted again; with --webhook-url and --listen a temporary endpoint whose delivery the probe receives itself, so it
 * settles the signature's `t` unit and `v1` encoding, under each encoding the sandbox can sign with. Nothing is left.
 * It writes only after --yes or a yes typed on a terminal (any other answer, or none, and nothing at all is
 * sent); a create whose answer was lost is found again by its Idempotency-Key or this run's tag and removed, and what
 * it could not remove is listed with its ID (or its tag) and how to remove it.
 */
import { startSandbox, type StartedSandbox } from '../../sandbox/index';
import { control, freePort, leaks, runProbe } from './probeRun';

const FAST = ['--pace', '1000/100000', '--lists', 'contract_templates'];
const WRITE = ['--write', '--yes'];

describe('npm run probe --write', () => {
	let sandbox: StartedSandbox;
	beforeAll(async () => {
		sandbox = await startSandbox({ seed: 'demo', allowHttpWebhooks: true });
	});
	afterAll(async () => await sandbox.close());

	const leftBehind = async () => {
		const contacts = (await control(sandbox, 'GET', '/state/contacts')).contacts.filter((contact) =>
			String(contact.email).startsWith('stora-probe-'),
		);
		const endpoints = (await control(sandbox, 'GET', '/state/endpoints')).endpoints;
		return [...contacts.map((contact) => contact.id), ...endpoints.map((endpoint) => endpoint.id)];
	};

	it.each([
		['seconds', 'hex'],
		['milliseconds', 'hex'],
		['seconds', 'base64'],
		['milliseconds', 'base64'],
	] as const)(
		'settles t in %s and v1 as %s from the delivery it receives',
		async (unit, encoding) => {
			await control(sandbox, 'POST', '/config', {
				signature_timestamp: unit,
				signature_encoding: encoding,
			});
			await control(sandbox, 'DELETE', '/requests');
			const port = await freePort();
			const run = await runProbe(sandbox.url, sandbox.token, [
				...FAST,
				...WRITE,
				'--webhook-url',
				`http://127.0.0.1:${port}/hooks`,
				'--listen',
				String(port),
				'--webhook-wait',
				'10',
			]);
			expect(run.code).toBe(0);
			expect(run.point('webhook signature t').verdict).toBe(unit);
			expect(run.point('webhook signature v1').verdict).toBe(encoding);
			expect(run.point('webhook signature t').where).toContain('nodes/StoraTrigger/signature.ts');
			// Subscribed to the event the probe causes, and no other: the account's real events never reach the tunnel.
			expect(run.point('webhook event type contact.created').verdict).toBe('accepted');
			expect(run.point('webhook event types (the 13 confirmed)').verdict).toBe('unknown');
			expect(run.point('webhook event type deal.won').evidence).toContain(
				"would send the account's real events",
			);
			const created = (await control(sandbox, 'GET', '/requests')).requests.filter(
				(request) => request.method === 'POST' && request.path === '/2025-09/webhook_endpoints',
			);
			expect(
				created.map((request) => (request.body as { event_types: string[] }).event_types),
			).toEqual([['contact.created']]);
			expect(run.point('DELETE /2025-09/webhook_endpoints/{id}').verdict).toBe('exists');
			expect(run.point('idempotency replay').verdict).toBe('replayed');
			expect(run.point('idempotency key of 255 characters').verdict).toBe('accepted');
			expect(run.point('POST /2025-09/contacts status').verdict).toBe('201');
			expect(run.json.probe.leftovers).toEqual([]);
			expect(await leftBehind()).toEqual([]);
			expect(leaks(run, sandbox.token)).toEqual([]);
			// The endpoint's secret is never written either.
			expect(run.jsonText).not.toMatch(/[0-9a-f]{64}/);
		},
		60_000,
	);

	it('without --webhook-url does the contact writes only, and says why the webhook points stay open', async () => {
		const run = await runProbe(sandbox.url, sandbox.token, [...FAST, ...WRITE]);
		expect(run.code).toBe(0);
		expect(run.point('idempotency replay').verdict).toBe('replayed');
		expect(run.point('webhook signature v1')).toMatchObject({
			verdict: 'unknown',
			evidence: 'not probed: needs --webhook-url and --listen',
		});
		expect(await leftBehind()).toEqual([]);
	}, 60_000);

	it('with --write but no --yes (and no terminal to ask on) sends nothing, after saying what it would write', async () => {
		await fetch(`${sandbox.url}/__sandbox/requests`, { method: 'DELETE' });
		const run = await runProbe(sandbox.url, sandbox.token, [
			...FAST,
			'--write',
			'--webhook-url',
			'http://127.0.0.1:9/hooks',
			'--listen',
			'0',
		]);
		expect(run.code).toBe(1);
		expect(run.stderr).toContain(
			'fires contact.created (once, or twice if the key is not replayed) at EVERY webhook endpoint on the account',
		);
		expect(run.stderr).toContain('subscribed to contact.created only');
		expect(run.stderr).toContain(
			'add --yes to go ahead, or run it on a terminal to be asked (nothing was sent)',
		);
		expect((await control(sandbox, 'GET', '/requests')).requests).toEqual([]);
	}, 60_000);

	it.each<[string, string | null, boolean]>([
		['yes', 'yes', true],
		['n', 'n', false],
		['nothing (Enter)', '', false],
		['nothing (Ctrl-D, the end of input)', null, false],
	])(
		'on a terminal, asks after saying what it will write, and writes only on a typed yes (typed: %s)',
		async (_typed, answer, goes) => {
			await control(sandbox, 'DELETE', '/requests');
			const run = await runProbe(
				sandbox.url,
				sandbox.token,
				[...FAST, '--write'],
				{},
				{ terminal: true, answer },
			);
			const said = run.stdout.indexOf(
				'fires contact.created (once, or twice if the key is not replayed) at EVERY webhook endpoint on the account',
			);
			expect(said).toBeGreaterThan(-1);
			expect(run.stdout.indexOf('Go ahead with these writes? Type yes: ')).toBeGreaterThan(said);
			const requests = (await control(sandbox, 'GET', '/requests')).requests;
			if (goes) {
				expect(run.code).toBe(0);
				expect(run.point('idempotency replay').verdict).toBe('replayed');
				expect(requests.filter((request) => request.method === 'POST').length).toBeGreaterThan(0);
				expect(await leftBehind()).toEqual([]);
			} else {
				expect(run.code).toBe(1);
				expect(run.stdout).toContain('Not confirmed: nothing was sent.');
				// Nothing at all: not even the reads.
				expect(requests).toEqual([]);
				expect(run.jsonText).toBe('');
			}
			expect(leaks(run, sandbox.token)).toEqual([]);
		},
		60_000,
	);

	it('takes no answer from a pipe: only a terminal, or --yes, lets it write', async () => {
		await control(sandbox, 'DELETE', '/requests');
		const run = await runProbe(
			sandbox.url,
			sandbox.token,
			[...FAST, '--write'],
			{},
			{ terminal: false, answer: 'yes\n' },
		);
		expect(run.code).toBe(1);
		expect(run.stderr).toContain(
			'add --yes to go ahead, or run it on a terminal to be asked (nothing was sent)',
		);
		expect((await control(sandbox, 'GET', '/requests')).requests).toEqual([]);
	}, 60_000);

	it.each<[string, number, string, Record<string, string>]>([
		['contacts', 1, 'its Idempotency-Key (the same request again)', {}],
		['webhook_endpoints', 1, 'its Idempotency-Key (the same request again)', {}],
		['contacts', 2, "this run's tag on the list", {}],
		['webhook_endpoints', 2, "this run's tag on the list", {}],
		[
			'contacts',
			2,
			"this run's tag on the list, checked on each record where the list ignores the metadata filter",
			{ 'metadata[]': 'ignore' },
		],
	])(
		'removes what it made when the answer to its POST /%s was lost %i time(s), found by %s',
		async (path, losses, _how, readings) => {
			await control(sandbox, 'DELETE', '/faults');
			await control(sandbox, 'DELETE', '/requests');
			await control(sandbox, 'POST', '/config', {
				param_readings: { [`/2025-09/${path}`]: readings },
			});
			await control(sandbox, 'POST', '/faults', {
				match: { method: 'POST', path: `/2025-09/${path}` },
				responses: Array.from({ length: losses }, () => ({ reset_after: true })),
			});
			const port = await freePort();
			const run = await runProbe(sandbox.url, sandbox.token, [
				...FAST,
				...WRITE,
				'--webhook-url',
				`http://127.0.0.1:${port}/hooks`,
				'--listen',
				String(port),
				'--webhook-wait',
				'5',
			]);
			await control(sandbox, 'DELETE', '/faults');
			await control(sandbox, 'POST', '/config', { param_readings: {} });
			expect(run.code).toBe(0);
			const requests = (await control(sandbox, 'GET', '/requests')).requests as Array<{
				method: string;
				path: string;
				query: Record<string, string>;
				headers: Record<string, string>;
				fault?: string;
			}>;
			// A lost create is sent again once with the same Idempotency-Key (a contact's key once more, for the replay point).
			const posts = requests.filter(
				(request) => request.method === 'POST' && request.path === `/2025-09/${path}`,
			);
			expect(posts.map((request) => request.fault ?? 'answered')).toEqual([
				...Array.from({ length: losses }, () => 'reset_after'),
				...(losses === 1 ? ['answered'] : []),
				...(path === 'contacts' ? ['answered'] : []),
			]);
			expect(new Set(posts.map((request) => request.headers['idempotency-key'])).size).toBe(1);
			if (losses === 2) {
				// Both answers lost: found by this run's tag on the list.
				const lookedUp = requests.filter(
					(request) =>
						request.method === 'GET' &&
						request.path === `/2025-09/${path}` &&
						request.query['metadata[stora_probe]']?.startsWith('run-'),
				);
				expect(lookedUp.length).toBeGreaterThan(0);
				if (path === 'contacts')
					expect(run.point('POST /2025-09/contacts status').evidence).toContain(
						'the contact was found by its tag',
					);
			}
			expect(run.json.probe.leftovers).toEqual([]);
			expect(await leftBehind()).toEqual([]);
			expect(run.point('idempotency replay').verdict).toBe('replayed');
		},
		60_000,
	);

	it('lists a record it could not find again by its tag, naming the tag and how to remove it', async () => {
		await control(sandbox, 'POST', '/faults', {
			match: { method: 'POST', path: '/2025-09/contacts' },
			responses: [{ reset_after: true }, { reset_after: true }],
		});
		await control(sandbox, 'POST', '/faults', {
			match: { method: 'GET', path: '/2025-09/contacts' },
			responses: [{ status: 500 }, { status: 500 }],
		});
		const run = await runProbe(sandbox.url, sandbox.token, [...FAST, ...WRITE]);
		await control(sandbox, 'DELETE', '/faults');
		expect(run.code).toBe(0);
		const left = (await control(sandbox, 'GET', '/state/contacts')).contacts.filter((contact) =>
			String(contact.email).startsWith('stora-probe-'),
		);
		expect(left).toHaveLength(1);
		const tag = String((left[0].metadata as Record<string, unknown>).stora_probe);
		expect(run.json.probe.leftovers).toEqual([
			`maybe a contact tagged metadata stora_probe=${tag} (its answer was lost and the tag was not found on the list): find it in BackOffice and delete it, or DELETE /2025-09/contacts/{id}`,
		]);
		expect(run.md).toContain(`stora_probe=${tag}`);
		await control(sandbox, 'DELETE', `/state/contacts/${String(left[0].id)}`);
	}, 60_000);

	it('lists what it could not remove with its ID and how to remove it', async () => {
		await control(sandbox, 'POST', '/faults', {
			match: { method: 'DELETE' },
			responses: [{ status: 500 }, { status: 500 }, { status: 500 }, { status: 500 }],
		});
		const run = await runProbe(sandbox.url, sandbox.token, [...FAST, ...WRITE]);
		await control(sandbox, 'DELETE', '/faults');
		const leftovers = run.json.probe.leftovers as string[];
		expect(leftovers.length).toBeGreaterThan(0);
		for (const item of leftovers)
			expect(item).toMatch(
				/^contact con_\w+ \(DELETE answered 500 .*\): DELETE \/2025-09\/contacts\/con_\w+, or delete it in BackOffice$/,
			);
		expect(run.md).toContain('Left on the account (remove by hand)');
		for (const id of await leftBehind())
			await control(sandbox, 'DELETE', `/state/contacts/${String(id)}`);
	}, 60_000);

	it('without --write changes nothing: only reads', async () => {
		await fetch(`${sandbox.url}/__sandbox/requests`, { method: 'DELETE' });
		const run = await runProbe(sandbox.url, sandbox.token, FAST);
		expect(run.point('idempotency replay')).toMatchObject({
			verdict: 'unknown',
			evidence: 'not probed: needs --write (on a test operator)',
		});
		const requests = (await control(sandbox, 'GET', '/requests')).requests;
		expect(requests.length).toBe(run.json.probe.requests);
		expect(requests.filter((request) => request.method !== 'GET')).toEqual([]);
	}, 60_000);
});
