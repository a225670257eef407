/**
 * What every operation inherits from the shared transport: error mapping, local validation, Continue On Fail,
 * retries on 429 / 5xx / dropped connections, the shared rate-limit budget and Return All's exactness.
 */
import { runStora, tokenCredentials } from '../helpers/n8n';
import { useSandboxForNode } from '../helpers/sandboxFixture';
import { rateLimits } from '../../nodes/Stora/transport/rateLimit/instance';

describe('Stora node: shared behaviour', () => {
	const fixture = useSandboxForNode();
	const client = () => fixture.client;
	const credentials = () => fixture.credentials();
	const getSites = { resource: 'site', operation: 'getAll', returnAll: false, limit: 3 };

	describe('errors', () => {
		it("shows the API's message and code, every detail with its field, and the request id", async () => {
			await client().fault({ method: 'GET', path: '/2025-09/sites' }, [
				{
					status: 422,
					body: {
						error: {
							code: 'invalid_url_param',
							type: 'invalid_request_error',
							message: 'A query parameter is invalid',
							links: [],
							details: [
								{ message: 'must be before created_before', pointer: '/created_after' },
								{ message: 'Try a smaller window', pointer: 'hint' },
								{ message: 'Something general', pointer: null },
							],
							request_id: 'req_abc123',
						},
					},
				},
			]);
			const result = await runStora({ credentials: credentials(), parameters: getSites });
			expect(result.error?.message).toBe('A query parameter is invalid [invalid_url_param]');
			expect(result.error?.description).toBe(
				[
					// Each line a sentence: n8n's error panel joins them into one paragraph.
					'Field /created_after: must be before created_before.',
					'Try a smaller window (hint).',
					'Something general.',
					'Request ID: req_abc123 (quote it to Stora support).',
					'Operation: site → getAll (GET /sites).',
				].join('\n'),
			);
			expect((result.error as { httpCode?: string }).httpCode).toBe('422');
		});

		it('says what happened when the answer is an HTML error page', async () => {
			await client().fault({ method: 'GET', path: '/2025-09/sites' }, [{ html: true }, { html: true }, { html: true }]);
			const result = await runStora({ credentials: credentials(), parameters: getSites });
			expect(result.error?.message).toBe('Stora answered with HTTP 502 and no error details');
			expect((await client().requests()).length).toBe(3);
		});

		it('reports an invalid token as the API does, without echoing the token', async () => {
			const result = await runStora({
				credentials: tokenCredentials(fixture.sandbox.url, 'tok_not_a_real_token'),
				parameters: getSites,
			});
			expect(result.error?.message).toMatch(/\[invalid_token\]$/);
			// What to do, as the credential test says it.
			expect(String(result.error?.description)).toContain('generate a new access token in BackOffice → Settings → Public API');
			expect(JSON.stringify(result.error)).not.toContain('tok_not_a_real_token');
		});

		it('keeps item pairing with Continue On Fail: the failing item gets its error, the others their data', async () => {
			const [site] = await client().state('sites');
			const result = await runStora({
				credentials: credentials(),
				continueOnFail: true,
				items: [{ id: site.id }, { id: 'site_missing0000' }, { id: site.id }],
				parameters: {
					resource: 'site',
					operation: 'get',
					siteId: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
				},
			});
			expect(result.error).toBeUndefined();
			expect(result.items).toHaveLength(3);
			expect(result.items[0].json.id).toBe(site.id);
			expect(result.items[1].json).toMatchObject({ error: expect.stringContaining('[resource_not_found]') });
			expect(result.items[2].json.id).toBe(site.id);
			expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		});
	});

	describe('missing scopes', () => {
		it('says which scope the operation needs when Stora answers 403', async () => {
			const token = await client().token(['public.site:read']);
			const result = await runStora({
				credentials: tokenCredentials(fixture.sandbox.url, token),
				parameters: { resource: 'contact', operation: 'getAll', limit: 1 },
			});
			expect((result.error as { httpCode?: string }).httpCode).toBe('403');
			expect(result.error?.description).toContain('This operation needs the scope public.contact:read.');
			expect(result.error?.description).not.toContain(token);
		});
	});

	describe('local validation', () => {
		it('refuses to start with a typed ID of the wrong prefix (n8n checks the locator pattern)', async () => {
			const result = await runStora({
				credentials: credentials(),
				parameters: { resource: 'site', operation: 'get', siteId: { __rl: true, mode: 'id', value: 'con_123' } },
			});
			expect(result.error?.message).toContain('has issues');
			expect(await client().requests()).toHaveLength(0);
		});

		it('rejects an ID of the wrong prefix coming from an expression before any request, naming the parameter', async () => {
			const result = await runStora({
				credentials: credentials(),
				items: [{ id: 'con_123' }],
				parameters: { resource: 'site', operation: 'get', siteId: { __rl: true, mode: 'id', value: '={{ $json.id }}' } },
			});
			expect(result.error?.message).toBe('Site: "con_123" is not a site ID');
			expect(result.error?.description).toContain('starts with "site_"');
			// A check of the node's own, not an answer of the API's: n8n's RoutingNode gives whatever stops a run as an
			// error without an HTTP code, so the description says where it came from.
			expect((result.error as { httpCode?: string | null }).httpCode ?? 'none').toBe('none');
			expect(result.error?.description).toContain('Checked in n8n before sending: nothing was sent to Stora.');
			expect(await client().requests()).toHaveLength(0);
		});

		it('with Continue On Fail, gives the failed check as the item\'s error, linked to its input item', async () => {
			const [site] = await client().state('sites');
			const result = await runStora({
				credentials: credentials(),
				continueOnFail: true,
				items: [{ id: site.id }, { id: 'con_123' }, { id: site.id }],
				parameters: { resource: 'site', operation: 'get', siteId: { __rl: true, mode: 'id', value: '={{ $json.id }}' } },
			});
			expect(result.error).toBeUndefined();
			expect(result.items.map((item) => item.json.id ?? item.json.error)).toEqual([site.id, 'Site: "con_123" is not a site ID', site.id]);
			expect(result.items[1].json.message).toContain('starts with "site_"');
			expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
			expect(await client().requests()).toHaveLength(2);
		});

		it('never asks for more than 100 records per page', async () => {
			const result = await runStora({
				credentials: credentials(),
				parameters: { resource: 'site', operation: 'getAll', returnAll: false, limit: 500 },
			});
			expect(result.error?.message).toMatch(/Limit/);
			expect(await client().requests()).toHaveLength(0);
		});
	});

	describe('retries', () => {
		it('waits for Retry-After on 429 and retries', async () => {
			await client().fault({ method: 'GET', path: '/2025-09/sites' }, [
				{ status: 429, headers: { 'Retry-After': '0' }, body: { error: { code: 'too_many_requests', message: 'Slow down' } } },
				{ status: 429, headers: { 'Retry-After': '0' }, body: { error: { code: 'too_many_requests', message: 'Slow down' } } },
			]);
			const result = await runStora({ credentials: credentials(), parameters: getSites });
			expect(result.error).toBeUndefined();
			expect(result.items).toHaveLength(3);
			expect((await client().requests()).map((request) => request.status)).toEqual([429, 429, 200]);
		});

		it('keeps retrying 429s while they stop within the waiting bound, however many there are', async () => {
			const tooMany = { status: 429, headers: { 'Retry-After': '0' }, body: { error: { code: 'too_many_requests', message: 'Too many requests' } } };
			await client().fault({ method: 'GET', path: '/2025-09/sites' }, Array(8).fill(tooMany));
			const result = await runStora({ credentials: credentials(), parameters: getSites });
			expect(result.error).toBeUndefined();
			expect(result.items).toHaveLength(3);
			expect((await client().requests()).map((request) => request.status)).toEqual([...Array(8).fill(429), 200]);
		});

		it('gives up on 429 once the total waiting bound is spent, with a message about rate limits', async () => {
			rateLimits.configure({ maxRetryWaitMs: 1500 });
			const tooMany = { status: 429, headers: { 'Retry-After': '1' }, body: { error: { code: 'too_many_requests', message: 'Too many requests' } } };
			await client().fault({ method: 'GET', path: '/2025-09/sites' }, Array(20).fill(tooMany));
			const result = await runStora({ credentials: credentials(), parameters: getSites });
			expect(result.error?.message).toBe('Too many requests [too_many_requests]');
			expect(result.error?.description).toContain('10 per second');
			// What to do points at settings the node shows.
			expect(result.error?.description).toContain('Settings → Request Options → Batching');
			// Each wait is a second: the bound lets one or two retries through, never the twenty queued 429s.
			const statuses = (await client().requests()).map((request) => request.status);
			expect(statuses.length).toBeGreaterThanOrEqual(2);
			expect(statuses.length).toBeLessThanOrEqual(3);
			expect(new Set(statuses)).toEqual(new Set([429]));
		});

		it('retries a dropped connection and a 500 on a read', async () => {
			await client().fault({ method: 'GET', path: '/2025-09/sites' }, [{ reset: true }, { status: 500 }]);
			const result = await runStora({ credentials: credentials(), parameters: getSites });
			expect(result.error).toBeUndefined();
			expect(result.items).toHaveLength(3);
		});
	});
});
