/**
 * Return All must return every record exactly once, with every filter on every page, even while records are created
 * and deleted between two pages, and must pace itself by the rate-limit headers instead of running into 429s.
 *
 * Lists past what the other suites page through: 100,000 and 150,000 records, with and without a reported count, and
 * lists that ignore the sort or the time filters. Return All is exact up to MAX_RECORDS and fails before it walks
 * above it; the CSV export has no bound; the Poll Trigger's cost follows what is new, never fails for a large list
 * with nothing new, and emits at most MAX_RECORDS per poll.
 */
import type { INodeParameters, IDataObject } from 'n8n-workflow';

import { startSandbox, type ApiRecord } from '../../../sandbox';
import { runStora, tokenCredentials, type CredentialStore } from '../../helpers/n8n';
import { SandboxClient } from '../../../sandbox/client';
import { useSandboxForNode } from '../../helpers/sandboxFixture';
import { MAX_RECORDS } from '../../../nodes/Stora/transport/walk';
import { rateLimits } from '../../../nodes/Stora/transport/rateLimit/instance';
import { printFigure } from '../../helpers/figures';
import { startLargeList, type LargeList, type LargeListOptions } from '../../../sandbox/largeList';
import { PollHarness } from '../../helpers/poll';

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;

describe('Stora node: Return All', () => {
	const fixture = useSandboxForNode();
	let sandbox: Sandbox;
	let client: SandboxClient;

	beforeEach(async () => {
		({ sandbox, client } = fixture);
		await client.addSites(250);
		await client.clearRequests();
	});

	const run = async (filters: INodeParameters = {}, options: INodeParameters = {}) =>
		await runStora({
			credentials: tokenCredentials(sandbox.url, sandbox.token),
			parameters: { resource: 'site', operation: 'getAll', returnAll: true, filters, options },
		});

	it('returns each record exactly once while records are created and deleted between pages', async () => {
		const before = await client.state('sites');
		const byAge = [...before].sort((a, b) =>
			String(a.created_at).localeCompare(String(b.created_at)),
		);
		const deletedAhead = byAge[byAge.length - 10]; // not yet read when page 2 is requested
		const deletedBehind = byAge[5]; // already read on page 1
		let pageRequests = 0;
		let created: string[] = [];
		sandbox.core.onApiRequest = async (request) => {
			if (request.path !== '/2025-09/sites') return;
			pageRequests++;
			if (pageRequests !== 2) return;
			// Between page 1 and page 2: two deletions (one behind, one ahead of the cursor) and three new sites.
			sandbox.core.remove('sites', deletedBehind.id);
			sandbox.core.remove('sites', deletedAhead.id);
			const template = before[0];
			created = ['A', 'B', 'C'].map((letter) => {
				const at = sandbox.core.now().toISOString();
				const record = {
					...template,
					id: sandbox.core.newId('site_'),
					name: `New ${letter} Depot`,
					created_at: at,
					updated_at: at,
				};
				return sandbox.core.insert('sites', record as ApiRecord).id;
			});
		};

		const result = await run();
		expect(result.error).toBeUndefined();
		const ids = result.items.map((item) => String(item.json.id));
		expect(new Set(ids).size).toBe(ids.length);
		// Everything that existed throughout, plus what was created, minus the record deleted before it was reached.
		const expected = new Set([...before.map((site) => site.id), ...created]);
		expected.delete(deletedAhead.id);
		expect(ids.filter((id) => id !== deletedBehind.id).sort()).toEqual(
			[...expected].filter((id) => id !== deletedBehind.id).sort(),
		);
		expect(created.every((id) => ids.includes(id))).toBe(true);
		expect(ids).not.toContain(deletedAhead.id);
		expect(pageRequests).toBeGreaterThanOrEqual(3);
	});

	it('keeps filters, sort direction and search on every page and returns newest first by default', async () => {
		const result = await run({ search: 'Depot', createdBefore: '2030-01-01T00:00:00.000Z' });
		const requests = await client.requests();
		expect(requests.length).toBeGreaterThanOrEqual(3);
		for (const request of requests) {
			expect(request.query).toMatchObject({
				search: 'Depot',
				created_before: '2030-01-01T00:00:00.000Z',
				limit: '100',
				sort_by: 'created_at',
			});
		}
		const created = result.items.map((item) => String(item.json.created_at));
		expect(created).toEqual([...created].sort().reverse());
	});

	it('gives records that share a creation time in the order the API gives them newest first', async () => {
		// 40 sites created in the same second, among the others: the walk reads them oldest first, the user asked newest first.
		const [template] = await client.state('sites');
		const at = '2026-11-01T09:00:00Z';
		for (let index = 0; index < 40; index++) {
			sandbox.core.insert('sites', {
				...template,
				id: sandbox.core.newId('site_'),
				name: `Twin ${index} Depot`,
				created_at: at,
				updated_at: at,
			} as ApiRecord);
		}
		const result = await run();
		expect(result.error).toBeUndefined();
		const api: string[] = [];
		for (let page = 1; ; page++) {
			const response = await fetch(`${sandbox.url}/2025-09/sites?limit=100&page=${page}`, {
				headers: { authorization: `Bearer ${sandbox.token}` },
			});
			const body = (await response.json()) as {
				sites: Array<{ id: string }>;
				meta: { pagination: { next: number | null } };
			};
			api.push(...body.sites.map((site) => site.id));
			if (body.meta.pagination.next === null) break;
		}
		expect(result.items.map((item) => String(item.json.id))).toEqual(api);
	});

	it('returns oldest first when asked, walking by created_at without reordering', async () => {
		const result = await run({}, { sortBy: 'created_at', sortDirection: 'ASC' });
		expect(result.error).toBeUndefined();
		const created = result.items.map((item) => Date.parse(String(item.json.created_at)));
		expect(created).toHaveLength((await client.state('sites')).length);
		expect(created).toEqual([...created].sort((a, b) => a - b));
		expect(
			(await client.requests()).every((request) => request.query.sort_direction === 'ASC'),
		).toBe(true);
	});

	it('pages by page number when sorting by another field, still returning each record once', async () => {
		const result = await run({}, { sortBy: 'name', sortDirection: 'ASC' });
		const ids = result.items.map((item) => item.json.id);
		expect(new Set(ids).size).toBe((await client.state('sites')).length);
		const pages = (await client.requests()).map((request) => request.query.page);
		expect(pages).toEqual(['1', '2', '3']);
	});

	it('exports every record as one CSV file, one header row, pages joined', async () => {
		const result = await runStora({
			credentials: tokenCredentials(sandbox.url, sandbox.token),
			parameters: { resource: 'site', operation: 'getAll', returnAll: true, outputFormat: 'csv' },
		});
		expect(result.error).toBeUndefined();
		const binary = result.items[0].binary?.data;
		expect(binary?.mimeType).toBe('text/csv');
		expect(binary?.fileName).toBe('sites.csv');
		const csv = Buffer.from(binary?.data as string, 'base64').toString('utf8');
		const sites = await client.state('sites');
		expect(csv.startsWith('id,')).toBe(true);
		expect(csv.match(/(^|\r\n)id,/g)).toHaveLength(1);
		expect(csv.replace(/\r\n/g, '').includes('\n')).toBe(false);
		const ids = csv.match(/(?<=(^|\r\n))site_[A-Za-z0-9]+(?=,)/g) ?? [];
		expect([...ids].sort()).toEqual(sites.map((site) => site.id).sort());
		const accepts = (await client.requests()).map(
			(request) => `${request.query.page} ${request.headers.accept}`,
		);
		const pages = Array.from(
			{ length: Math.ceil(sites.length / 100) },
			(_, n) => `${n + 1} text/csv`,
		);
		expect(pages.length).toBeGreaterThan(1);
		expect(accepts).toEqual(['1 application/json', ...pages]);
	});

	it('stops at the last page the API reports', async () => {
		await run();
		const requests = await client.requests();
		const total = (await client.state('sites')).length;
		expect(requests).toHaveLength(Math.ceil(total / 100));
	});
});

describe('Stora node: Return All under rate limits', () => {
	let sandbox: Sandbox;
	let client: SandboxClient;

	beforeAll(async () => {
		sandbox = await startSandbox({ seed: 'demo', rateLimit: { perSecond: 2, perMinute: 100 } });
		client = new SandboxClient(sandbox.url);
		await client.addSites(450);
		await client.clearRequests();
	});
	afterAll(async () => await sandbox.close());

	it('paces itself by the RateLimit headers so no page is refused', async () => {
		const result = await runStora({
			credentials: tokenCredentials(sandbox.url, sandbox.token),
			parameters: { resource: 'site', operation: 'getAll', returnAll: true },
		});
		expect(result.error).toBeUndefined();
		expect(result.items.length).toBe((await client.state('sites')).length);
		const statuses = (await client.requests()).map((request) => request.status);
		expect(statuses.length).toBeGreaterThan(2);
		expect(statuses.every((status) => status === 200)).toBe(true);
	});
});

describe('Stora node: Return All on a list without created_after', () => {
	const fixture = useSandboxForNode();

	it('notices the cursor is ignored and pages by number, returning each unit once', async () => {
		const [template] = await fixture.client.state('units');
		const base = Date.parse('2025-01-01T00:00:00.000Z');
		await fixture.client.insert(
			'units',
			Array.from({ length: 180 }, (_, n) => {
				const at = new Date(base + n * 1000).toISOString();
				const record: Record<string, unknown> = {
					...template,
					name: `Extra ${n}`,
					created_at: at,
					updated_at: at,
				};
				delete record.id;
				return record;
			}),
		);
		await fixture.client.clearRequests();
		const result = await runStora({
			credentials: fixture.credentials(),
			parameters: { resource: 'unit', operation: 'getAll', returnAll: true },
		});
		expect(result.error).toBeUndefined();
		const ids = result.items.map((item) => item.json.id);
		const all = await fixture.client.state('units');
		expect(new Set(ids).size).toBe(ids.length);
		expect([...ids].sort()).toEqual(all.map((unit) => unit.id).sort());
		const pages = (await fixture.client.requests()).map(
			(request) => `${request.query.page}${request.query.created_after ? '+cursor' : ''}`,
		);
		expect(pages).toEqual(['1', '1+cursor', '2', '3']);
	});
});

jest.setTimeout(300_000);

/** A credential for a plan without limits (Custom 0/0), so paging runs at the speed of the list. */
const unlimited = (baseUrl: string): CredentialStore => ({
	storaApi: {
		baseUrl,
		accessToken: 'tok_largeList',
		rateLimit: 'custom',
		requestsPerSecond: 0,
		requestsPerMinute: 0,
	},
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
		expect(result.error?.message).toBe(
			'Return All would return 150,000 records; one run can return at most 100,000',
		);
		expect(String((result.error as { description?: string }).description)).toMatch(
			/Created After and Created Before/,
		);
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
		expect(result.error?.message).toBe(
			'Return All would return more than 100,000 records; one run can return at most 100,000',
		);
		expect(String((result.error as { description?: string }).description)).toMatch(
			/did not report the list's count/,
		);
	});

	it("Return All over a list that ignores the sort pages by number and gives each record once, in the list's order", async () => {
		const server = await open({ size: 1_000, honoursSort: false, ownOrder: 'scattered' });
		const result = await returnAll(server);
		expect(result.error).toBeUndefined();
		const ids = result.items.map((item) => String(item.json.id));
		const listed: string[] = [];
		for (let page = 1; page <= 10; page++) {
			const response = await fetch(`${server.url}/2025-09/sites?limit=100&page=${page}`, {
				headers: { authorization: 'Bearer tok_largeList' },
			});
			listed.push(
				...((await response.json()) as { sites: Array<{ id: string }> }).sites.map(
					(site) => site.id,
				),
			);
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
		const poller = (server: LargeList) =>
			new PollHarness(unlimited(server.url), { pollResource: 'site', event: 'created' });
		const walkRequests = (server: LargeList) =>
			server.queries.filter((query) => query.sort_direction === 'ASC').length;

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
			expect(((await trigger.poll()) ?? []).map((record) => record.id)).toEqual([
				'site_150000',
				'site_150001',
				'site_150002',
			]);
			expect(await trigger.poll()).toBeNull();
			// Later polls page by number straight away (no new attempt at the walk), a page each.
			expect(walkRequests(server)).toBe(0);
			expect(server.queries).toHaveLength(2);
		});

		it('on 150,000 records in no order at all, reads the whole list but never fails and emits only what is new', async () => {
			const server = await open({
				size: 150_000,
				honoursSort: false,
				honoursTimeFilters: false,
				ownOrder: 'scattered',
			});
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
