/**
 * Lists past what the other suites page through: 100,000 and 150,000 records, with and without a reported count, and
 * lists that ignore the sort or the time filters. Return All is exact up to MAX_RECORDS and fails before it walks
 * above it; the CSV export has no bound; the Poll Trigger's cost follows what is new, never fails for a large list
 * with nothing new, and emits at most MAX_RECORDS per poll.
 */
import type { IDataObject } from 'n8n-workflow';

import { MAX_RECORDS } from '../../nodes/Stora/transport/walk';
import { rateLimits } from '../../nodes/Stora/transport/rateLimit/instance';
import { printFigure } from '../helpers/figures';
import { runStora, type CredentialStore } from '../helpers/n8n';
import { startLargeList, type LargeList, type LargeListOptions } from '../../sandbox/largeList';
import { PollHarness } from '../helpers/poll';

jest.setTimeout(300_000);

/** A credential for a plan without limits (Custom 0/0), so paging runs at the speed of the list. */
const unlimited = (baseUrl: string): CredentialStore => ({
	storaApi: { baseUrl, accessToken: 'tok_largeList', rateLimit: 'custom', requestsPerSecond: 0, requestsPerMinute: 0 },
});

describe('large lists', () => {
	let list: LargeList | undefined;
	const open = async (options: LargeListOptions) => {
		list = await startLargeList(options);
		return list;
	};
	beforeEach(() => rateLimits.reset());
	afterEach(async () => {
		await list?.close();
		list = undefined;
	});

	const returnAll = async (server: LargeList, extra: IDataObject = {}) =>
		await runStora({
			credentials: unlimited(server.url),
			parameters: { resource: 'site', operation: 'getAll', returnAll: true, ...extra },
		});

	it(`Return All over 150,000 records fails before it walks, naming the count, the bound and the remedy`, async () => {
		const server = await open({ size: 150_000 });
		const result = await returnAll(server);
		expect(result.items).toEqual([]);
		expect(result.error?.message).toBe('Return All would return 150,000 records; one run can return at most 100,000');
		expect(String((result.error as { description?: string }).description)).toMatch(/Created After and Created Before/);
		expect(server.queries).toHaveLength(1);
	});

	it(`Return All over exactly ${MAX_RECORDS.toLocaleString('en-US')} records returns each once, newest first, through n8n-core`, async () => {
		const server = await open({ size: MAX_RECORDS });
		const result = await returnAll(server);
		expect(result.error).toBeUndefined();
		const ids = result.items.map((item) => String(item.json.id));
		expect(ids).toHaveLength(MAX_RECORDS);
		expect(new Set(ids).size).toBe(MAX_RECORDS);
		// Newest first (the default sort): site_99999 ... site_0.
		expect(ids.every((id, index) => id === `site_${MAX_RECORDS - 1 - index}`)).toBe(true);
		printFigure(`Return All of ${MAX_RECORDS} records in ${server.queries.length} requests`);
	});

	it('Return All over a list that reports no count fails as soon as it holds more than the bound', async () => {
		const server = await open({ size: MAX_RECORDS + 1, count: false });
		const result = await returnAll(server);
		expect(result.items).toEqual([]);
		expect(result.error?.message).toBe('Return All would return more than 100,000 records; one run can return at most 100,000');
		expect(String((result.error as { description?: string }).description)).toMatch(/did not report the list's count/);
	});

	it('Return All over a list that ignores the sort pages by number and gives each record once, in the list\'s order', async () => {
		const server = await open({ size: 1_000, honoursSort: false, ownOrder: 'scattered' });
		const result = await returnAll(server);
		expect(result.error).toBeUndefined();
		const ids = result.items.map((item) => String(item.json.id));
		const listed: string[] = [];
		for (let page = 1; page <= 10; page++) {
			const response = await fetch(`${server.url}/2025-09/sites?limit=100&page=${page}`, { headers: { authorization: 'Bearer tok_largeList' } });
			listed.push(...((await response.json()) as { sites: Array<{ id: string }> }).sites.map((site) => site.id));
		}
		expect(new Set(listed).size).toBe(1_000);
		expect(ids).toEqual(listed);
	});

	it('Return All as CSV exports all 150,000 records in one file, each once', async () => {
		const server = await open({ size: 150_000 });
		const result = await returnAll(server, { outputFormat: 'csv' });
		expect(result.error).toBeUndefined();
		const csv = Buffer.from(String(result.items[0].binary?.data.data), 'base64').toString('utf8');
		const rows = csv.trimEnd().split('\r\n');
		expect(rows[0]).toBe('id,name,created_at,updated_at');
		const ids = rows.slice(1).map((row) => row.slice(0, row.indexOf(',')));
		expect(ids).toHaveLength(150_000);
		expect(new Set(ids).size).toBe(150_000);
		expect(ids[0]).toBe('site_149999');
		expect(ids[ids.length - 1]).toBe('site_0');
	});

	describe('Stora Poll Trigger', () => {
		const poller = (server: LargeList) => new PollHarness(unlimited(server.url), { pollResource: 'site', event: 'created' });
		const walkRequests = (server: LargeList) => server.queries.filter((query) => query.sort_direction === 'ASC').length;

		it('emits at most the bound per poll, oldest first, and the rest in the next poll', async () => {
			const server = await open({ size: 10 });
			const trigger = poller(server);
			expect(await trigger.poll()).toBeNull();
			server.options.size = 10 + 150_000;
			const first = (await trigger.poll()) ?? [];
			expect(first).toHaveLength(MAX_RECORDS);
			expect(first[0].id).toBe('site_10');
			expect(first[first.length - 1].id).toBe(`site_${10 + MAX_RECORDS - 1}`);
			const second = (await trigger.poll()) ?? [];
			expect(second).toHaveLength(50_000);
			expect(second[0].id).toBe(`site_${10 + MAX_RECORDS}`);
			expect(second[second.length - 1].id).toBe('site_150009');
			expect(await trigger.poll()).toBeNull();
		});

		it('on 150,000 records in a list that ignores the sort and the cursor, a poll with nothing new reads one page', async () => {
			const server = await open({ size: 150_000, honoursSort: false, honoursTimeFilters: false });
			const trigger = poller(server);
			expect(await trigger.poll()).toBeNull();
			server.queries.length = 0;
			// Finding out that the list ignores the walk costs a page or two, once.
			expect(await trigger.poll()).toBeNull();
			const found = server.queries.length;
			expect(found).toBeLessThanOrEqual(3);
			server.queries.length = 0;
			server.options.size += 3;
			expect(((await trigger.poll()) ?? []).map((record) => record.id)).toEqual(['site_150000', 'site_150001', 'site_150002']);
			expect(await trigger.poll()).toBeNull();
			// Later polls page by number straight away (no new attempt at the walk), a page each.
			expect(walkRequests(server)).toBe(0);
			expect(server.queries).toHaveLength(2);
		});

		it('on 150,000 records in no order at all, reads the whole list but never fails and emits only what is new', async () => {
			const server = await open({ size: 150_000, honoursSort: false, honoursTimeFilters: false, ownOrder: 'scattered' });
			const trigger = poller(server);
			expect(await trigger.poll()).toBeNull();
			expect(await trigger.poll()).toBeNull();
			server.queries.length = 0;
			server.options.size += 1;
			expect(((await trigger.poll()) ?? []).map((record) => record.id)).toEqual(['site_150000']);
			expect(walkRequests(server)).toBe(0);
			expect(server.queries.length).toBe(1501);
		});
	});
});
