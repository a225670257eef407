import { runStora, tokenCredentials } from '../../helpers/n8n';
import { useResourceFixture } from '../../helpers/sandboxFixture';

describe('Stora node: Site', () => {
	const fixture = useResourceFixture();
	const { client, credentials } = fixture;

	it('gets one site by ID with GET /2025-09/sites/{id}', async () => {
		const [site] = await client.state('sites');
		const result = await runStora({
			credentials: credentials(),
			parameters: {
				resource: 'site',
				operation: 'get',
				siteId: { __rl: true, mode: 'id', value: site.id },
			},
		});
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json)).toEqual([site]);
		const requests = await client.requests();
		expect(requests).toHaveLength(1);
		expect(requests[0]).toMatchObject({
			method: 'GET',
			path: `/2025-09/sites/${site.id}`,
			query: {},
		});
		expect(requests[0].headers.authorization).toBe('Bearer ***');
	});

	it('uses the extracted ID when the site was picked from the list', async () => {
		const [, second] = await client.state('sites');
		const result = await runStora({
			credentials: credentials(),
			parameters: {
				resource: 'site',
				operation: 'get',
				siteId: {
					__rl: true,
					mode: 'list',
					value: second.id,
					cachedResultName: String(second.name),
				},
				simplify: true,
			},
		});
		expect(result.items).toHaveLength(1);
		expect(Object.keys(result.items[0].json).sort()).toEqual(
			['address', 'created_at', 'id', 'name', 'opened_at', 'phone', 'updated_at']
				.filter((key) => key in second)
				.sort(),
		);
		expect((await client.requests())[0].path).toBe(`/2025-09/sites/${second.id}`);
	});

	it("builds each item's URL from the locator's value ($parameter gives the extracted ID, expressions resolved)", async () => {
		const [first, second] = await client.state('sites');
		const result = await runStora({
			credentials: credentials(),
			items: [{ id: first.id }, { id: ` ${second.id}` }],
			parameters: {
				resource: 'site',
				operation: 'get',
				siteId: { __rl: true, mode: 'id', value: '={{ $json.id.trim() }}' },
			},
		});
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json.id)).toEqual([first.id, second.id]);
		expect((await client.requests()).map((request) => request.path)).toEqual([
			`/2025-09/sites/${first.id}`,
			`/2025-09/sites/${second.id}`,
		]);
	});

	it('gets many sites up to the limit, sending limit, sort, search and windows as query parameters', async () => {
		const result = await runStora({
			credentials: credentials(),
			parameters: {
				resource: 'site',
				operation: 'getAll',
				returnAll: false,
				limit: 2,
				filters: {
					createdAfter: '2000-01-01T00:00:00.000Z',
					updatedBefore: '2100-01-01T00:00:00.000Z',
				},
				options: { sortBy: 'name', sortDirection: 'ASC' },
			},
		});
		expect(result.error).toBeUndefined();
		const requests = await client.requests();
		expect(requests).toHaveLength(1);
		expect(requests[0].method).toBe('GET');
		expect(requests[0].path).toBe('/2025-09/sites');
		expect(requests[0].query).toEqual({
			limit: '2',
			sort_by: 'name',
			sort_direction: 'ASC',
			created_after: '2000-01-01T00:00:00.000Z',
			updated_before: '2100-01-01T00:00:00.000Z',
		});
		const expected = (await client.state('sites'))
			.map((site) => String(site.name))
			.sort((a, b) => a.localeCompare(b))
			.slice(0, 2);
		expect(result.items.map((item) => item.json.name)).toEqual(expected);
	});

	it('returns all sites across three pages, keeping every filter on every page', async () => {
		await client.addSites(230);
		const all = await client.state('sites');
		const matching = all.filter((site) => String(site.name).includes('Depot'));
		expect(matching.length).toBeGreaterThan(200);

		const result = await runStora({
			credentials: credentials(),
			parameters: {
				resource: 'site',
				operation: 'getAll',
				returnAll: true,
				filters: { search: 'Depot', updatedAfter: '2000-01-01T00:00:00.000Z' },
			},
		});
		expect(result.error).toBeUndefined();
		const ids = result.items.map((item) => item.json.id);
		expect(new Set(ids).size).toBe(ids.length);
		expect(ids.sort()).toEqual(matching.map((site) => site.id).sort());

		const requests = await client.requests();
		expect(requests.length).toBe(3);
		for (const request of requests) {
			expect(request.path).toBe('/2025-09/sites');
			expect(request.query).toMatchObject({
				search: 'Depot',
				updated_after: '2000-01-01T00:00:00.000Z',
				limit: '100',
			});
		}
	});

	it('shows the API error with its code and request id when the site does not exist', async () => {
		const result = await runStora({
			credentials: credentials(),
			parameters: {
				resource: 'site',
				operation: 'get',
				siteId: { __rl: true, mode: 'id', value: 'site_doesnotexist' },
			},
		});
		expect(result.error).toBeDefined();
		expect(result.error?.message).toMatch(/\[resource_not_found\]$/);
		expect(result.error?.description).toMatch(/Request ID: \S+/);
		expect((result.error as { httpCode?: string }).httpCode).toBe('404');
	});

	it('names the missing scope when the token cannot read sites', async () => {
		const limited = await client.token(['public.contact:read']);
		const result = await runStora({
			credentials: tokenCredentials(fixture.sandbox.url, limited),
			parameters: { resource: 'site', operation: 'getAll', returnAll: false, limit: 5 },
		});
		expect(result.error?.message).toContain('[forbidden]');
		expect(result.error?.message).toContain('public.site:read');
		expect((result.error as { httpCode?: string }).httpCode).toBe('403');
	});
});
