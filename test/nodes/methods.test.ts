/**
 * Resource-locator lists and dropdowns, loaded from the sandbox through n8n-core's real load-options context.
 */
import { Stora } from '../../nodes/Stora/Stora.node';
import { loadOptionsContext } from '../helpers/loadOptions';
import { useSandboxForNode } from '../helpers/sandboxFixture';

describe('Stora node: lists and dropdowns', () => {
	const fixture = useSandboxForNode();
	const { listSearch, loadOptions } = new Stora().methods;

	it('lists sites for the Site locator, one page per scroll, searched by the API', async () => {
		await fixture.client.addSites(120);
		await fixture.client.clearRequests();
		const context = loadOptionsContext(fixture.credentials(), {
			resource: 'site',
			operation: 'get',
		});

		const first = await listSearch.searchSites.call(context);
		expect(first.results).toHaveLength(100);
		expect(first.paginationToken).toBe('2');
		const second = await listSearch.searchSites.call(context, undefined, first.paginationToken);
		const all = await fixture.client.state('sites');
		expect(first.results.length + second.results.length).toBe(all.length);
		expect(second.paginationToken).toBeUndefined();

		const found = await listSearch.searchSites.call(context, 'London Bridge');
		expect(found.results.map((result) => result.name)).toEqual(
			all.filter((site) => String(site.name).includes('London Bridge')).map((site) => site.name),
		);
		const queries = (await fixture.client.requests()).map((request) => request.query);
		expect(queries[2]).toMatchObject({ search: 'London Bridge', page: '1', limit: '100' });
	});

	it('loads the sites dropdown sorted by name', async () => {
		const context = loadOptionsContext(fixture.credentials(), {
			resource: 'site',
			operation: 'get',
		});
		const options = await loadOptions.getSites.call(context);
		const sites = await fixture.client.state('sites');
		expect(options.map((option) => option.value).sort()).toEqual(
			sites.map((site) => site.id).sort(),
		);
		const names = options.map((option) => option.name);
		expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
	});

	it('loads deal stages, unit types, contract templates, timeline sources and templates', async () => {
		const context = loadOptionsContext(fixture.credentials(), {
			resource: 'site',
			operation: 'get',
		});
		const cases: Array<[keyof typeof loadOptions, string]> = [
			['getDealStages', 'stages'],
			['getUnitTypes', 'unit_types'],
			['getContractTemplates', 'contract_templates'],
			['getTimelineSources', 'sources'],
			['getTimelineTemplates', 'templates'],
		];
		for (const [method, collection] of cases) {
			const options = await loadOptions[method].call(context);
			const records = await fixture.client.state(collection);
			expect(records.length).toBeGreaterThan(0);
			expect(options.map((option) => option.value).sort()).toEqual(
				records.map((record) => record.id).sort(),
			);
		}
	});

	it('tells the user which scope the token lacks when a list cannot load', async () => {
		const token = await fixture.client.token(['public.contact:read']);
		const context = loadOptionsContext(
			{ storaApi: { baseUrl: fixture.sandbox.url, accessToken: token } },
			{ resource: 'site', operation: 'get' },
		);
		await expect(listSearch.searchSites.call(context)).rejects.toMatchObject({
			message: expect.stringContaining('public.site:read'),
		});
	});
});
