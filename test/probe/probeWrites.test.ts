/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test under test/, never published */
/**
 * Issue 36: `npm run probe -- --write` on the sandbox: a contact created, replayed with its Idempotency-Key and
 * deleted again; with --webhook-url and --listen a temporary endpoint whose delivery the probe receives itself, so it
 * settles the signature's `t` unit and `v1` encoding, under each encoding the sandbox can sign with. Nothing is left.
 */
import { createServer } from 'node:net';

import { startSandbox, type StartedSandbox } from '../../sandbox/index';
import { control, leaks, runProbe } from './probeRun';

const FAST = ['--rate', '1000/100000', '--lists', 'contract_templates'];

async function freePort(): Promise<number> {
	const server = createServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as { port: number };
	await new Promise<void>((resolve) => server.close(() => resolve()));
	return port;
}

describe('npm run probe --write', () => {
	let sandbox: StartedSandbox;
	beforeAll(async () => {
		sandbox = await startSandbox({ seed: 'demo', allowHttpWebhooks: true });
	});
	afterAll(async () => await sandbox.close());

	const leftBehind = async () => {
		const contacts = (await control(sandbox, 'GET', '/state/contacts')).contacts.filter((contact) => String(contact.email).startsWith('stora-probe-'));
		const endpoints = (await control(sandbox, 'GET', '/state/endpoints')).endpoints;
		return [...contacts.map((contact) => contact.id), ...endpoints.map((endpoint) => endpoint.id)];
	};

	it.each([
		['seconds', 'hex'],
		['milliseconds', 'hex'],
		['seconds', 'base64'],
		['milliseconds', 'base64'],
	] as const)('settles t in %s and v1 as %s from the delivery it receives', async (unit, encoding) => {
		await control(sandbox, 'POST', '/config', { signature_timestamp: unit, signature_encoding: encoding });
		const port = await freePort();
		const run = await runProbe(sandbox.url, sandbox.token, [...FAST, '--write', '--webhook-url', `http://127.0.0.1:${port}/hooks`, '--listen', String(port), '--webhook-wait', '10']);
		expect(run.code).toBe(0);
		expect(run.point('webhook signature t').verdict).toBe(unit);
		expect(run.point('webhook signature v1').verdict).toBe(encoding);
		expect(run.point('webhook signature t').where).toContain('nodes/Stora/helpers/signature.ts');
		expect(run.point('webhook event types (the 13 confirmed)').verdict).toBe('accepted');
		// The sandbox knows only the 13 confirmed types.
		expect(run.point('webhook event type deal.won').verdict).toBe('refused');
		expect(run.point('DELETE /2025-09/webhook_endpoints/{id}').verdict).toBe('exists');
		expect(run.point('idempotency replay').verdict).toBe('replayed');
		expect(run.point('idempotency key of 255 characters').verdict).toBe('accepted');
		expect(run.point('POST /2025-09/contacts status').verdict).toBe('201');
		expect(run.json.probe.leftovers).toEqual([]);
		expect(await leftBehind()).toEqual([]);
		expect(leaks(run, sandbox.token)).toEqual([]);
		// The endpoint's secret is never written either.
		expect(run.jsonText).not.toMatch(/[0-9a-f]{64}/);
	}, 60_000);

	it('without --webhook-url does the contact writes only, and says why the webhook points stay open', async () => {
		const run = await runProbe(sandbox.url, sandbox.token, [...FAST, '--write']);
		expect(run.code).toBe(0);
		expect(run.point('idempotency replay').verdict).toBe('replayed');
		expect(run.point('webhook signature v1')).toMatchObject({ verdict: 'unknown', evidence: 'not probed: needs --webhook-url and --listen' });
		expect(await leftBehind()).toEqual([]);
	}, 60_000);

	it('without --write changes nothing: only reads', async () => {
		await fetch(`${sandbox.url}/__sandbox/requests`, { method: 'DELETE' });
		const run = await runProbe(sandbox.url, sandbox.token, FAST);
		expect(run.point('idempotency replay')).toMatchObject({ verdict: 'unknown', evidence: 'not probed: needs --write (on a test operator)' });
		const requests = (await control(sandbox, 'GET', '/requests')).requests;
		expect(requests.length).toBe(run.json.probe.requests);
		expect(requests.filter((request) => request.method !== 'GET')).toEqual([]);
	}, 60_000);
});
