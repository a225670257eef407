/**
 * The Stora Poll Trigger reads its filters from the Get Many descriptions without a builder of its own: for the same
 * filters it sends the query n8n's RoutingNode builds for the Stora node's Get Many (both seen in the sandbox's log).
 */
import { runStora } from '../helpers/n8n';
import { PollHarness } from '../helpers/poll';
import { useSandboxForNode } from '../helpers/sandboxFixture';

const fixture = useSandboxForNode();

/** The query without what only the list walk sets: paging, the sort and the poll's cursor. */
const filterPart = (query: Record<string, unknown>) =>
	Object.fromEntries(Object.entries(query).filter(([name]) => !['page', 'limit', 'sort_by', 'sort_direction', 'created_after'].includes(name)));

describe('Stora Poll Trigger filter query', () => {
	it.each([
		['deal', (siteId: string) => ({ status: ['open', 'won'], siteIds: [siteId], stageIds: 'dstg_a1b2c3, dstg_d4e5f6' })],
		['contact', () => ({ status: ['lead', 'customer'], type: ['unspecified'], metadata: { entry: [{ key: 'tier', value: 'gold' }] } })],
	])("equals the Stora node's %s Get Many query for the same filters", async (resource, filtersFor) => {
		const [site] = await fixture.client.state('sites');
		const filters = filtersFor(String(site.id));
		await fixture.client.clearRequests();
		const getMany = await runStora({ credentials: fixture.credentials(), parameters: { resource, operation: 'getAll', limit: 5, filters } });
		expect(getMany.error).toBeUndefined();
		await new PollHarness(fixture.credentials(), { pollResource: resource, event: 'created', filters }).poll('manual');
		const [fromGetMany, fromPoll] = (await fixture.client.requests()).map((request) => request.query);
		expect(Object.keys(filterPart(fromGetMany)).length).toBeGreaterThanOrEqual(3);
		expect(filterPart(fromPoll)).toEqual(filterPart(fromGetMany));
	});
});
