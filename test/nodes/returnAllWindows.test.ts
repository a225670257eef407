/**
 * Return All in parallel created_at windows: where the account's rate limit lets several requests be in flight, the
 * list after the first page is fetched in disjoint windows at once. The answer must be the same as the sequential
 * walk's: every record exactly once, newest first by default, also while records are created and deleted, and also
 * when the list turns out not to honour `created_before` (then it goes on sequentially). The account's limits are
 * the credential's, as a user sets them: none (Rate Limit Custom, 0 and 0), or Stora's documented default.
 */
import { sleep } from 'n8n-workflow';

import type { ApiRecord } from '../../sandbox';
import { rateLimits } from '../../nodes/Stora/transport/rateLimit/instance';
import { withPlan } from '../helpers/contactUpdates';
import { runStora, type CredentialStore } from '../helpers/n8n';
import { useSandboxForNode } from '../helpers/sandboxFixture';
import { recordFigures } from '../helpers/figures';

describe('Stora node: Return All in parallel windows', () => {
	// A sandbox without limits, documented rate-limit headers only, as in every reliability figure.
	const fixture = useSandboxForNode({ headers: 'documented' });
	/** A credential with no limit: requests go at full speed, at most 8 at a time. */
	const unlimited = () => withPlan(fixture.credentials(), { perSecond: 0, perMinute: 0 });
	/** What the first two cases measured, for the row the third records once they all passed. */
	const measured: { records?: number; requests?: number; windows?: number; overlapped?: number; sequentialWhenIgnored?: boolean } = {};

	beforeEach(() => {
		// The fixture sizes the budget to the sandbox's limits; forgotten, so the credential alone says them.
		rateLimits.reset();
	});

	beforeEach(async () => {
		await fixture.client.addSites(1000);
		await fixture.client.clearRequests();
	});
	afterEach(() => {
		fixture.sandbox.core.onApiRequest = undefined;
	});

	const run = async (credentials: CredentialStore = unlimited()) =>
		await runStora({ credentials, parameters: { resource: 'site', operation: 'getAll', returnAll: true } });

	/** The sites' created_at strings, newest first, as the default sort gives them. */
	const newestFirst = (records: Array<Record<string, unknown>>) =>
		[...records].sort((a, b) => Date.parse(String(b.created_at)) - Date.parse(String(a.created_at))).map((r) => r.id);

	it('fetches windows at once and returns every record once, with records created and deleted meanwhile', async () => {
		const before = await fixture.client.state('sites');
		const core = fixture.sandbox.core;
		const byAge = [...before].sort((a, b) => Date.parse(String(a.created_at)) - Date.parse(String(b.created_at)));
		const deletedAhead = byAge[byAge.length - 20];
		const queries: Array<Record<string, string>> = [];
		let created: string[] = [];
		let waiting = 0;
		let overlapped = 0;
		core.onApiRequest = async (request) => {
			if (request.path !== '/2025-09/sites') return;
			queries.push({ ...request.query });
			if (queries.length === 5) {
				core.remove('sites', deletedAhead.id);
				created = ['A', 'B', 'C'].map((letter) => {
					const at = core.now().toISOString();
					const record = { ...before[0], id: core.newId('site_'), name: `New ${letter}`, created_at: at, updated_at: at };
					return core.insert('sites', record as ApiRecord).id;
				});
			}
			if (request.query.created_before === undefined) return;
			// Two window requests in the sandbox at the same moment prove they were sent in parallel.
			waiting++;
			if (waiting > 1) overlapped++;
			await sleep(30);
			waiting--;
		};

		const result = await run();
		expect(result.error).toBeUndefined();
		const ids = result.items.map((item) => String(item.json.id));
		expect(new Set(ids).size).toBe(ids.length);
		const expected = [...before.map((site) => site.id), ...created].filter((id) => id !== deletedAhead.id);
		expect([...ids].sort()).toEqual([...expected].sort());
		// Newest first (the default), exactly as the records' own created_at order.
		expect(ids).toEqual(newestFirst(result.items.map((item) => item.json as Record<string, unknown>)));

		const windows = queries.filter((query) => query.created_before !== undefined);
		expect(windows.length).toBeGreaterThanOrEqual(4);
		expect(overlapped).toBeGreaterThan(0);
		// Disjoint: each window's created_after is the previous window's created_before.
		const firstPages = queries.filter((query) => query.page === '1' && query.created_after !== undefined);
		const bounds = [...new Set(windows.map((query) => query.created_before))].sort();
		// The 1,000 added sites are a second apart in 2024, the seed's few are recent: windows cut by rank, not by time,
		// still hold about as many records each (about 125 here, so no window needs more than 3 requests).
		const perWindow = new Map<string, number>();
		for (const query of queries.filter((q) => q.created_after !== undefined)) {
			const key = query.created_before ?? 'open';
			perWindow.set(key, (perWindow.get(key) ?? 0) + 1);
		}
		expect(Math.max(...perWindow.values())).toBeLessThanOrEqual(3);
		for (const bound of bounds) expect(firstPages.some((query) => query.created_after === bound)).toBe(true);
		Object.assign(measured, { records: ids.length, requests: queries.length, windows: bounds.length + 1, overlapped });
	});

	it('goes on sequentially, with the same answer, when the list ignores created_before', async () => {
		const before = await fixture.client.state('sites');
		let stripped = 0;
		fixture.sandbox.core.onApiRequest = (request) => {
			if (request.path === '/2025-09/sites' && request.query.created_before !== undefined) {
				delete request.query.created_before;
				stripped++;
			}
		};
		const result = await run();
		expect(result.error).toBeUndefined();
		const ids = result.items.map((item) => String(item.json.id));
		expect(ids).toEqual(newestFirst(before));
		expect(stripped).toBeGreaterThan(0);
		measured.sequentialWhenIgnored = true;
	});

	it('stays sequential under the documented limits, where the budget sets the pace', async () => {
		const before = await fixture.client.state('sites');
		// The credential's default: Stora's documented 10/s and 60/min.
		const result = await run(fixture.credentials());
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => String(item.json.id))).toEqual(newestFirst(before));
		const queries = (await fixture.client.requests()).map((request) => request.query);
		expect(queries.some((query) => query.created_before !== undefined)).toBe(false);
		expect(queries.length).toBe(Math.ceil(before.length / 100));
		if (measured.records === undefined || !measured.sequentialWhenIgnored) return;
		recordFigures('reliability', 'returnAllWindows', {
			cells: [
				`Return All in parallel windows (${before.length.toLocaleString('en')} sites, the credential's Rate Limit set to none), with sites created and deleted meanwhile, and on a list that ignores \`created_before\``,
				'`test/nodes/returnAllWindows.test.ts`',
				`every record once, newest first, in ${measured.requests} requests over ${measured.windows} windows of about equal size (${measured.overlapped} window requests arrived while another was still being answered); the same answer sequentially when \`created_before\` is ignored; no windows under the documented limits (${queries.length} requests, one per page)`,
			],
			figures: { ...measured, sites: before.length, documentedRequests: queries.length },
		});
	});
});
