/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test under test/, never published */
/**
 * transport/errors.ts: an error answer as n8n shows it. The API's message and code, every detail with its field, the
 * request ID; an answer without Stora's envelope (an HTML page, an address that is not the API) says what to check;
 * under Continue On Fail the failed item carries its error, linked to its input item.
 */
import { createServer } from 'node:http';

import { runStora, tokenCredentials } from '../../helpers/n8n';
import { useSandboxForNode } from '../../helpers/sandboxFixture';

describe('Stora node: error answers', () => {
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
			await client().fault({ method: 'GET', path: '/2025-09/sites' }, [
				{ html: true },
				{ html: true },
				{ html: true },
			]);
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
			expect(String(result.error?.description)).toContain(
				'generate a new access token in BackOffice → Settings → Public API',
			);
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
			expect(result.items[1].json).toMatchObject({
				error: expect.stringContaining('[resource_not_found]'),
			});
			expect(result.items[2].json.id).toBe(site.id);
			expect(result.items.map((item) => item.pairedItem)).toEqual([
				{ item: 0 },
				{ item: 1 },
				{ item: 2 },
			]);
		});
	});
});

describe('a Base URL that is not the API', () => {
	it("says to check the Base URL when the address answers 404 without Stora's error format", async () => {
		const server = createServer((_request, response) =>
			response.writeHead(404, { 'Content-Type': 'text/html' }).end('<h1>Not Found</h1>'),
		);
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		const { port } = server.address() as { port: number };
		try {
			const result = await runStora({
				credentials: tokenCredentials(`http://127.0.0.1:${port}/some/path`, 'tok_abc'),
				parameters: { resource: 'site', operation: 'getAll', limit: 1 },
			});
			expect(result.error?.message).toBe('Stora answered with HTTP 404 and no error details');
			expect(String((result.error as { description?: string }).description)).toContain(
				"check the credential's Base URL",
			);
		} finally {
			await new Promise<void>((resolve) => server.close(() => resolve()));
		}
	});
});
