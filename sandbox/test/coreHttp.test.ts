/** Formats (CSV/PDF/406), Idempotency-Key, rate limits, faults, latency, token expiry and the files host. */
import { client, SandboxClient } from '../client';
import { manualClock, widgetsModule } from '../core/testing';
import { startSandbox } from '../index';
import { useSandboxWithClients, withSandbox } from './fixture';

describe('sandbox formats', () => {
	const fx = useSandboxWithClients({ modules: [widgetsModule], resetEach: false });

	it('answers a small valid PDF naming the record on routes declaring application/pdf', async () => {
		const widget = fx.sandbox.core.all('widgets')[0];
		const response = await fetch(`${fx.sandbox.url}/2025-09/widgets/${widget.id}`, {
			headers: { Authorization: `Bearer ${fx.sandbox.token}`, Accept: 'application/pdf' },
		});
		expect(response.status).toBe(200);
		expect(response.headers.get('content-type')).toBe('application/pdf');
		const pdf = Buffer.from(await response.arrayBuffer()).toString('latin1');
		expect(pdf.startsWith('%PDF-1.4\n')).toBe(true);
		expect(pdf.trimEnd().endsWith('%%EOF')).toBe(true);
		expect(pdf).toContain(widget.id);
		// the xref offset must point at the xref table
		const startxref = Number(/startxref\n(\d+)\n/.exec(pdf)![1]);
		expect(pdf.slice(startxref, startxref + 4)).toBe('xref');
	});

	it.each([
		['application/json', 200],
		['*/*', 200],
		['application/*', 200],
		['text/csv;q=0.9, application/json', 200],
		['application/xml', 406],
		['application/pdf', 406],
		['text/html', 406],
	])('negotiates Accept: %s on a list route → %i', async (accept, status) => {
		const res = await fx.call('GET', '/2025-09/widgets', { headers: { Accept: accept } });
		expect(res.status).toBe(status);
		if (status === 406) expect(res.body.error.code).toBe('invalid_format');
		else expect(res.headers.get('content-type')).toMatch(/^application\/json/);
	});

	it('answers 406 for CSV on a route that does not declare it', async () => {
		const widget = fx.sandbox.core.all('widgets')[0];
		const res = await fx.call('GET', `/2025-09/widgets/${widget.id}`, {
			headers: { Accept: 'text/csv' },
		});
		expect(res.status).toBe(406);
		expect(res.body.error.code).toBe('invalid_format');
	});

	it('keeps JSON error envelopes even when CSV was negotiated', async () => {
		const res = await fx.call('GET', '/2025-09/widgets?limit=0', {
			headers: { Accept: 'text/csv' },
		});
		expect(res.status).toBe(422);
		expect(res.body.error.code).toBe('invalid_url_param');
	});
});

describe('sandbox Idempotency-Key', () => {
	const time = manualClock();
	const fx = useSandboxWithClients({
		modules: [widgetsModule],
		clock: time.clock,
		resetEach: false,
	});

	it('replays the first response for the same key and creates nothing new', async () => {
		const before = fx.sandbox.core.all('widgets').length;
		const headers = { 'Idempotency-Key': 'key-1' };
		const first = await fx.call('POST', '/2025-09/widgets', { body: { name: 'Once' }, headers });
		const second = await fx.call('POST', '/2025-09/widgets', { body: { name: 'Once' }, headers });
		expect(first.status).toBe(201);
		expect(second.status).toBe(201);
		expect(second.text).toBe(first.text);
		expect(second.headers.get('idempotent-replayed')).toBe('true');
		expect(first.headers.get('idempotent-replayed')).toBeNull();
		expect(fx.sandbox.core.all('widgets').length).toBe(before + 1);
	});

	it('replays error responses too', async () => {
		const headers = { 'Idempotency-Key': 'key-err' };
		const first = await fx.call('POST', '/2025-09/widgets', { body: {}, headers });
		expect(first.status).toBe(422);
		const second = await fx.call('POST', '/2025-09/widgets', { body: { name: 'Fixed' }, headers });
		expect(second.status).toBe(422);
		expect(second.body).toEqual(first.body);
	});

	it('scopes keys per caller and treats a key as new after 24 hours', async () => {
		const headers = { 'Idempotency-Key': 'key-ttl' };
		const first = await fx.call('POST', '/2025-09/widgets', { body: { name: 'Day 1' }, headers });
		const other = fx.sandbox.createToken('all');
		const otherCaller = await fx.call('POST', '/2025-09/widgets', {
			body: { name: 'Other' },
			headers,
			token: other,
		});
		expect(otherCaller.body.widget.id).not.toBe(first.body.widget.id);

		time.advance(24 * 3_600_000 - 1000);
		const sameDay = await fx.call('POST', '/2025-09/widgets', { body: { name: 'Day 1' }, headers });
		expect(sameDay.body.widget.id).toBe(first.body.widget.id);
		time.advance(1000);
		const nextDay = await fx.call('POST', '/2025-09/widgets', { body: { name: 'Day 2' }, headers });
		expect(nextDay.headers.get('idempotent-replayed')).toBeNull();
		expect(nextDay.body.widget.id).not.toBe(first.body.widget.id);
		expect(nextDay.body.widget.name).toBe('Day 2');
	});
});

describe('sandbox rate limits', () => {
	const time = manualClock('2025-06-01T12:00:00.000Z');
	const fx = useSandboxWithClients({
		modules: [widgetsModule],
		clock: time.clock,
		rateLimit: { perSecond: 2, perMinute: 3 },
		resetEach: false,
	});

	it('counts per token per second and per minute, with headers, 429 and Retry-After', async () => {
		const start = Date.parse('2025-06-01T12:00:00.000Z') / 1000;
		const r1 = await fx.call('GET', '/2025-09/widgets');
		expect(r1.status).toBe(200);
		expect(r1.headers.get('ratelimit-limit')).toBe('2');
		expect(r1.headers.get('ratelimit-remaining')).toBe('1');
		expect(r1.headers.get('ratelimit-reset')).toBe(String(start + 1));

		const r2 = await fx.call('GET', '/2025-09/widgets');
		expect(r2.status).toBe(200);
		expect(r2.headers.get('ratelimit-remaining')).toBe('0');

		const r3 = await fx.call('GET', '/2025-09/widgets');
		expect(r3.status).toBe(429);
		expect(r3.body.error.code).toBe('too_many_requests');
		expect(r3.headers.get('retry-after')).toBe('1');
		expect(r3.headers.get('ratelimit-remaining')).toBe('0');

		// another token has its own budget
		expect(
			(await fx.call('GET', '/2025-09/widgets', { token: fx.sandbox.createToken('all') })).status,
		).toBe(200);

		time.advance(1000);
		const r4 = await fx.call('GET', '/2025-09/widgets');
		expect(r4.status).toBe(200);
		// the minute window (3) is now the binding one
		expect(r4.headers.get('ratelimit-limit')).toBe('3');
		expect(r4.headers.get('ratelimit-remaining')).toBe('0');
		expect(r4.headers.get('ratelimit-reset')).toBe(String(start + 60));

		time.advance(1000);
		const r5 = await fx.call('GET', '/2025-09/widgets');
		expect(r5.status).toBe(429);
		expect(r5.headers.get('retry-after')).toBe('58');
		expect(r5.headers.get('ratelimit-reset')).toBe(String(start + 60));

		time.advance(58_000);
		expect((await fx.call('GET', '/2025-09/widgets')).status).toBe(200);
	});

	it('does not rate limit or decorate unauthenticated errors and the control plane', async () => {
		const unauth = await fx.call('GET', '/2025-09/widgets', { token: null });
		expect(unauth.status).toBe(401);
		expect(unauth.headers.get('ratelimit-limit')).toBeNull();
		for (let i = 0; i < 5; i++)
			expect((await fx.call('GET', '/__sandbox/requests')).status).toBe(200);
	});
});

describe('sandbox faults and latency', () => {
	const fx = useSandboxWithClients({ modules: [widgetsModule], resetEach: false });
	afterEach(() => fx.call('DELETE', '/__sandbox/faults'));

	const fault = (match: object, responses: object[]) =>
		fx.call('POST', '/__sandbox/faults', { body: { match, responses } });

	it('consumes queued responses in order, then answers normally', async () => {
		await fault({ method: 'GET', path: '/2025-09/widgets' }, [
			{ status: 503, headers: { 'Retry-After': '2' } },
			{ status: 429, body: { custom: true } },
		]);
		const first = await fx.call('GET', '/2025-09/widgets');
		expect(first.status).toBe(503);
		expect(first.headers.get('retry-after')).toBe('2');
		expect(first.body.error).toMatchObject({ code: 'internal_server_error', type: 'api_error' });
		const second = await fx.call('GET', '/2025-09/widgets');
		expect(second.status).toBe(429);
		expect(second.body).toEqual({ custom: true });
		expect((await fx.call('GET', '/2025-09/widgets')).status).toBe(200);
	});

	it('matches by method and by path prefix with *', async () => {
		await fault({ method: 'POST', path: '/2025-09/wid*' }, [{ status: 500 }]);
		expect((await fx.call('GET', '/2025-09/widgets')).status).toBe(200);
		expect((await fx.call('POST', '/2025-09/widgets', { body: { name: 'x' } })).status).toBe(500);
		expect((await fx.call('POST', '/2025-09/widgets', { body: { name: 'x' } })).status).toBe(201);
	});

	it('resets the connection', async () => {
		await fault({ path: '/2025-09/widgets' }, [{ reset: true }]);
		await expect(
			fetch(`${fx.sandbox.url}/2025-09/widgets`, {
				headers: { Authorization: `Bearer ${fx.sandbox.token}` },
			}),
		).rejects.toThrow();
		expect((await fx.call('GET', '/2025-09/widgets')).status).toBe(200);
	});

	it('processes the request, then drops the connection before the answer', async () => {
		await fault({ method: 'POST', path: '/2025-09/widgets' }, [{ reset_after: true }]);
		const post = fetch(`${fx.sandbox.url}/2025-09/widgets`, {
			method: 'POST',
			headers: { Authorization: `Bearer ${fx.sandbox.token}`, 'Content-Type': 'application/json' },
			body: JSON.stringify({ name: 'lost answer' }),
		});
		await expect(post).rejects.toThrow();
		const logged = (await fx.control.requests())
			.filter((request) => request.method === 'POST')
			.at(-1);
		expect(logged).toMatchObject({ fault: 'reset_after', status: 201 });
		const list = await fx.call('GET', '/2025-09/widgets');
		expect(JSON.stringify(list.body)).toContain('lost answer');
	});

	it('answers 200 with an empty body', async () => {
		await fault({ path: '/2025-09/widgets' }, [{ empty: true }]);
		const response = await fetch(`${fx.sandbox.url}/2025-09/widgets`, {
			headers: { Authorization: `Bearer ${fx.sandbox.token}` },
		});
		expect(response.status).toBe(200);
		expect(await response.text()).toBe('');
	});

	it('answers malformed JSON with 200', async () => {
		await fault({ path: '/2025-09/widgets' }, [{ malformed: true }]);
		const response = await fetch(`${fx.sandbox.url}/2025-09/widgets`, {
			headers: { Authorization: `Bearer ${fx.sandbox.token}` },
		});
		expect(response.status).toBe(200);
		expect(response.headers.get('content-type')).toMatch(/application\/json/);
		await expect(response.json()).rejects.toThrow();
	});

	it('answers a 502 HTML error page', async () => {
		await fault({ path: '/2025-09/widgets' }, [{ html: true }]);
		const res = await fx.call('GET', '/2025-09/widgets');
		expect(res.status).toBe(502);
		expect(res.headers.get('content-type')).toMatch(/^text\/html/);
		expect(res.text).toContain('<html');
	});

	it('delays a response, then answers normally', async () => {
		await fault({ path: '/2025-09/widgets' }, [{ delay_ms: 150 }]);
		const started = Date.now();
		const res = await fx.call('GET', '/2025-09/widgets');
		expect(res.status).toBe(200);
		expect(Date.now() - started).toBeGreaterThanOrEqual(140);
	});

	it('lists, validates and clears faults; never touches the control plane', async () => {
		await fault({ path: '/__sandbox/*' }, [{ status: 500 }]);
		expect((await fx.call('GET', '/__sandbox/faults')).body.faults).toHaveLength(1);
		expect((await fx.call('GET', '/__sandbox/requests')).status).toBe(200);
		expect((await fault({}, [{ nonsense: 1 }])).status).toBe(422);
		await fx.call('DELETE', '/__sandbox/faults');
		expect((await fx.call('GET', '/__sandbox/faults')).body.faults).toEqual([]);
	});

	it('adds the configured latency to every API request', async () => {
		await withSandbox({ modules: [widgetsModule], latencyMs: 120 }, async (slow) => {
			const started = Date.now();
			const res = await client(slow.url, slow.token)('GET', '/2025-09/widgets');
			expect(res.status).toBe(200);
			expect(Date.now() - started).toBeGreaterThanOrEqual(110);
		});
	});

	it('takes a latency at run time: an API call is logged on arrival and held, the control plane answers at once, closing ends the hold', async () => {
		const sandbox = await startSandbox({ modules: [widgetsModule] });
		let held: Promise<number | string> | undefined;
		try {
			const control = new SandboxClient(sandbox.url);
			expect(await control.configure({ latency_ms: 60_000 })).toMatchObject({ latency_ms: 60_000 });
			const get = () =>
				fetch(`${sandbox.url}/2025-09/widgets`, {
					headers: { Authorization: `Bearer ${sandbox.token}` },
				});
			held = get().then(
				(response) => response.status,
				() => 'connection closed',
			);
			// Held for a minute, far past jest's 5 s: the control plane answering at all shows it is not held.
			let log = await control.requests();
			while (log.length === 0) log = await control.requests();
			expect(log).toMatchObject([{ method: 'GET', path: '/2025-09/widgets', status: null }]);
			expect(Number.isNaN(Date.parse(log[0].at))).toBe(false);
			// Back to none: the next call is answered while the first is still held.
			expect(await control.configure({ latency_ms: 0 })).not.toHaveProperty('latency_ms');
			expect((await get()).status).toBe(200);
			expect((await control.requests()).map((entry) => entry.status)).toEqual([null, 200]);
		} finally {
			await sandbox.close();
		}
		expect(await held).toBe('connection closed');
	});

	it('holds every API call for the latency set at run time, and refuses a latency that is not whole milliseconds up to ten minutes', async () => {
		await withSandbox({ modules: [widgetsModule] }, async (sandbox) => {
			const control = new SandboxClient(sandbox.url);
			await control.configure({ latency_ms: 150 });
			const started = Date.now();
			expect((await client(sandbox.url, sandbox.token)('GET', '/2025-09/widgets')).status).toBe(
				200,
			);
			expect(Date.now() - started).toBeGreaterThanOrEqual(140);
			for (const latency of [-1, 1.5, '100', 600_001]) {
				const refused = await client(sandbox.url)('POST', '/__sandbox/config', {
					body: { latency_ms: latency },
				});
				expect(refused.status).toBe(422);
				expect(refused.body.error.details[0].pointer).toBe('/latency_ms');
			}
			expect((await control.modes()).latency_ms).toBe(150);
		});
	});
});

describe('sandbox token expiry', () => {
	const time = manualClock();
	const fx = useSandboxWithClients({
		modules: [widgetsModule],
		clock: time.clock,
		resetEach: false,
	});

	it('expires static tokens with expires_in on the sandbox clock', async () => {
		const issued = await fx.call('POST', '/__sandbox/tokens', {
			body: { scopes: 'all', expires_in: 60 },
		});
		const token = issued.body.access_token;
		expect((await fx.call('GET', '/2025-09/widgets', { token })).status).toBe(200);
		time.advance(60_000);
		const expired = await fx.call('GET', '/2025-09/widgets', { token });
		expect(expired.status).toBe(401);
		expect(expired.body.error.code).toBe('invalid_token');
	});

	it('expires one token or every token but the startup one on demand', async () => {
		const a = fx.sandbox.createToken('all');
		const b = fx.sandbox.createToken('all');
		await fx.call('POST', '/__sandbox/expire-tokens', { body: { access_token: a } });
		expect((await fx.call('GET', '/2025-09/widgets', { token: a })).status).toBe(401);
		expect((await fx.call('GET', '/2025-09/widgets', { token: b })).status).toBe(200);
		await fx.call('POST', '/__sandbox/expire-tokens', { body: {} });
		expect((await fx.call('GET', '/2025-09/widgets', { token: b })).status).toBe(401);
		expect((await fx.call('GET', '/2025-09/widgets')).status).toBe(200);
		await fx.call('POST', '/__sandbox/expire-tokens', { body: { access_token: fx.sandbox.token } });
		expect((await fx.call('GET', '/2025-09/widgets')).status).toBe(401);
		fx.sandbox.reset();
		expect((await fx.call('GET', '/2025-09/widgets')).status).toBe(200);
	});
});

describe('sandbox files host (pre-signed URLs)', () => {
	const time = manualClock();
	const fx = useSandboxWithClients({
		modules: [widgetsModule],
		clock: time.clock,
		resetEach: false,
	});

	it('serves presigned content on another port and rejects an Authorization header with 400', async () => {
		const content = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
		const url = fx.sandbox.core.presign(content, 'image/png', 'site-photo.png');
		expect(url).toMatch(
			/^http:\/\/127\.0\.0\.1:\d+\/[^/]+\/site-photo\.png\?X-Amz-Expires=300&X-Amz-Signature=[0-9a-f]{64}$/,
		);
		expect(new URL(url).port).not.toBe(String(fx.sandbox.port));

		const ok = await fetch(url);
		expect(ok.status).toBe(200);
		expect(ok.headers.get('content-type')).toBe('image/png');
		expect(Buffer.from(await ok.arrayBuffer())).toEqual(content);

		const withAuth = await fetch(url, { headers: { Authorization: `Bearer ${fx.sandbox.token}` } });
		expect(withAuth.status).toBe(400);
		expect(await withAuth.text()).toContain('InvalidArgument');

		const tampered = await fetch(url.replace(/X-Amz-Signature=[0-9a-f]/, 'X-Amz-Signature=z'));
		expect(tampered.status).toBe(403);

		time.advance(300_000);
		expect((await fetch(url)).status).toBe(403);
	});
});
