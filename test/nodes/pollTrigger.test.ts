/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test under test/, never published */
/**
 * The Stora Poll Trigger in n8n-core's real PollContext against the sandbox: exactly-once across polls, restarts and
 * failed polls, and the manual test run. Its filters come from the Get Many descriptions without a builder of its
 * own: for the same filters it sends the query n8n's RoutingNode builds for the Stora node's Get Many.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { IDataObject, INodePropertyOptions } from 'n8n-workflow';

import { Stora } from '../../nodes/Stora/Stora.node';
import { StoraPollTrigger } from '../../nodes/StoraPollTrigger/StoraPollTrigger.node';
import { runStora } from '../helpers/n8n';
import { PollHarness } from '../helpers/poll';
import { useSandboxForNode } from '../helpers/sandboxFixture';

const fixture = useSandboxForNode();

/** Inserts sites at the given times (ms since epoch), named so the tests can tell them apart. */
async function sitesAt(times: number[], prefix = 'Poll') {
	const [template] = await fixture.client.state('sites');
	const records = times.map((time, n) => {
		const at = new Date(time).toISOString();
		const record: Record<string, unknown> = {
			...template,
			name: `${prefix} ${n}`,
			created_at: at,
			updated_at: at,
		};
		delete record.id;
		return record;
	});
	return await fixture.client.insert('sites', records);
}

const names = (records: Array<Record<string, unknown>> | null) =>
	(records ?? []).map((record) => record.name);

/** A whole second a little ahead of now, so inserted records are newer than the cursor set on activation. */
const aheadSecond = (seconds: number) => Math.ceil(Date.now() / 1000) * 1000 + seconds * 1000;

describe('Stora Poll Trigger description', () => {
	const poll = new StoraPollTrigger().description;

	it('offers exactly the resources the Stora node can list (Get Many)', () => {
		const listable = new Stora().description.properties
			.filter((property) => property.name === 'operation')
			.filter((property) =>
				(property.options as INodePropertyOptions[]).some((option) => option.value === 'getAll'),
			)
			.flatMap((property) => property.displayOptions?.show?.resource as string[]);
		const offered = (
			poll.properties.find((property) => property.name === 'pollResource')
				?.options as INodePropertyOptions[]
		).map((option) => option.value);
		expect([...offered].sort()).toEqual([...listable].sort());
		expect(offered).toEqual(expect.arrayContaining(['contact', 'deal', 'site', 'task']));
		// No Get Many in the Stora node: nothing to poll.
		expect(offered).not.toContain('accessToken');
		// n8n appends "Custom API Call" to a parameter named resource or operation: the poll trigger has neither.
		expect(poll.properties.map((property) => property.name)).not.toEqual(
			expect.arrayContaining(['resource']),
		);
		expect(poll.properties.map((property) => property.name)).not.toEqual(
			expect.arrayContaining(['operation']),
		);
		expect(offered).not.toContain('opportunity');
	});

	it('is a polling node with the Stora credentials, registered in the package', () => {
		expect(poll.polling).toBe(true);
		expect(poll.credentials?.map((credential) => credential.name)).toEqual([
			'storaApi',
			'storaOAuth2Api',
		]);
		const manifest = JSON.parse(readFileSync(join(__dirname, '../../package.json'), 'utf8'));
		expect(manifest.n8n.nodes).toContain('dist/nodes/StoraPollTrigger/StoraPollTrigger.node.js');
	});
});

describe('Stora Poll Trigger', () => {
	const harness = (event = 'created', staticData?: IDataObject) =>
		new PollHarness(fixture.credentials(), { pollResource: 'site', event }, staticData);

	it('emits nothing on the first poll after activation, then each new record once', async () => {
		const poller = harness();
		expect(await poller.poll()).toBeNull();
		expect(await poller.poll()).toBeNull();

		const inserted = await sitesAt([aheadSecond(5), aheadSecond(6)]);
		const first = await poller.poll();
		expect(first?.map((record) => record.id)).toEqual(inserted.map((record) => record.id));
		expect(await poller.poll()).toBeNull();
	});

	it.each([
		['behind', -600],
		['ahead of', 600],
	])(
		"starts from Stora's clock when it runs 10 minutes %s n8n's: nothing created after activation is lost, no history emitted",
		async (_, offset) => {
			const { now } = await fixture.client.advanceClock(offset);
			const storaNow = Date.parse(now);
			// History: created just before activation by Stora's clock (after it by n8n's when Stora runs ahead).
			const [old] = await sitesAt([storaNow - 2000], 'History');
			const poller = harness();
			expect(await poller.poll()).toBeNull();
			// New: created just after activation by Stora's clock (before it by n8n's when Stora runs behind).
			const [fresh] = await sitesAt([storaNow + 3000], 'New');
			const emitted = (await poller.poll())?.map((record) => record.id);
			expect(emitted).toEqual([fresh.id]);
			expect(emitted).not.toContain(old.id);
			expect(await poller.poll()).toBeNull();
		},
	);

	it('emits two records sharing one created_at second each once when they arrive in different polls', async () => {
		const poller = harness();
		await poller.poll();
		const second = aheadSecond(5);
		await sitesAt([second], 'Same A');
		expect(names(await poller.poll())).toEqual(['Same A 0']);
		await sitesAt([second], 'Same B');
		expect(names(await poller.poll())).toEqual(['Same B 0']);
		expect(await poller.poll()).toBeNull();
	});

	it('keeps the cursor in static data across a restart', async () => {
		const poller = harness();
		await poller.poll();
		await sitesAt([aheadSecond(5)], 'Before');
		expect(names(await poller.poll())).toEqual(['Before 0']);

		const restarted = harness('created', poller.staticData);
		expect(await restarted.poll()).toBeNull();
		await sitesAt([aheadSecond(6)], 'After');
		expect(names(await restarted.poll())).toEqual(['After 0']);
	});

	it('emits an updated record again under "New or Updated Record"', async () => {
		const poller = harness('updated');
		await poller.poll();
		const [site] = await sitesAt([aheadSecond(5)], 'Changing');
		expect(names(await poller.poll())).toEqual(['Changing 0']);
		expect(await poller.poll()).toBeNull();

		const later = new Date(aheadSecond(8)).toISOString();
		await fixture.client.insert('sites', [{ ...site, name: 'Changed', updated_at: later }]);
		const again = await poller.poll();
		expect(again?.map((record) => [record.id, record.name])).toEqual([[site.id, 'Changed']]);
	});

	it('leaves the cursor where it was when a poll fails half-way, and emits those records next poll', async () => {
		const poller = harness();
		await poller.poll();
		const inserted = await sitesAt(
			Array.from({ length: 105 }, (_, n) => aheadSecond(5) + n * 1000),
			'Many',
		);
		const before = poller.staticData;
		// The first page answers normally, the second is refused.
		await fixture.client.fault({ method: 'GET', path: '/2025-09/sites' }, [
			{ delay_ms: 1 },
			{ status: 422, body: { error: { message: 'Page refused' } } },
		]);
		await fixture.client.clearRequests();
		await expect(poller.poll()).rejects.toThrow('Page refused');
		// It failed on the second request (the walk's cursor moved on to the first page's last record).
		const sent = (await fixture.client.requests()).map((request) => request.query);
		expect(sent).toHaveLength(2);
		expect(Date.parse(String(sent[1].created_after))).toBe(
			Date.parse(String(inserted[99].created_at)),
		);
		expect(poller.staticData).toEqual(before);

		const emitted = await poller.poll();
		expect(emitted?.map((record) => record.id)).toEqual(inserted.map((record) => record.id));
		expect(await poller.poll()).toBeNull();
	});

	it('emits a record created while a poll pages exactly once, in that poll or the next', async () => {
		const poller = harness();
		await poller.poll();
		const start = aheadSecond(5);
		const inserted = await sitesAt(
			Array.from({ length: 105 }, (_, n) => start + n * 1000),
			'Paged',
		);
		// The second page waits, and a site is created meanwhile (pushing the others one place down the pages).
		await fixture.client.fault({ method: 'GET', path: '/2025-09/sites' }, [
			{ delay_ms: 1 },
			{ delay_ms: 400 },
		]);
		const polling = poller.poll();
		await new Promise((resolve) => setTimeout(resolve, 150));
		const [late] = await sitesAt([start + 200_000], 'Late');
		const first = (await polling) ?? [];
		const second = (await poller.poll()) ?? [];
		const ids = [...first, ...second].map((record) => record.id);
		expect([...ids].sort()).toEqual([...inserted, late].map((record) => record.id).sort());
		expect(await poller.poll()).toBeNull();
	});

	it('returns the newest record on a manual run, whatever the cursor', async () => {
		const poller = harness();
		await sitesAt([aheadSecond(30)], 'Newest');
		const manual = await poller.poll('manual');
		expect(names(manual)).toEqual(['Newest 0']);
		// A manual run does not start the cursor.
		expect(poller.staticData).toEqual({});
	});

	it.each(['ignore', 'reject'] as const)(
		'on a list whose docs show no created_after (tasks), emits only new records when Stora %ss it',
		async (mode) => {
			await fixture.client.configure({ unknown_params: mode });
			try {
				const poller = new PollHarness(fixture.credentials(), {
					pollResource: 'task',
					event: 'created',
				});
				expect(await poller.poll()).toBeNull();
				const [template] = await fixture.client.state('tasks');
				const at = new Date(aheadSecond(5)).toISOString();
				const record: Record<string, unknown> = {
					...template,
					title: 'Call the lead',
					created_at: at,
					updated_at: at,
				};
				delete record.id;
				const [task] = await fixture.client.insert('tasks', [record]);
				const emitted = await poller.poll();
				expect(emitted?.map((item) => item.id)).toEqual([task.id]);
				expect(await poller.poll()).toBeNull();
			} finally {
				await fixture.client.configure({ unknown_params: 'accept' });
			}
		},
	);

	/** Inserts tasks at the given times with the given fields. */
	async function tasksAt(rows: Array<{ at: number; [field: string]: unknown }>) {
		const [template] = await fixture.client.state('tasks');
		const records = rows.map(({ at, ...fields }) => {
			const time = new Date(at).toISOString();
			const record: Record<string, unknown> = {
				...template,
				...fields,
				created_at: time,
				updated_at: time,
			};
			delete record.id;
			return record;
		});
		return await fixture.client.insert('tasks', records);
	}

	it("offers each resource's Get Many filters but the created/updated windows, and sends them as Get Many does", async () => {
		const description = new StoraPollTrigger().description;
		const taskFilters = description.properties.find(
			(property) =>
				property.name === 'filters' &&
				(property.displayOptions?.show?.pollResource as string[]).includes('task'),
		);
		const names = (taskFilters?.options as Array<{ name: string }>).map((option) => option.name);
		expect(names).toEqual(
			expect.arrayContaining(['status', 'siteIds', 'assigneeIds', 'dueAfter', 'metadata']),
		);
		expect(names).not.toEqual(expect.arrayContaining(['createdAfter']));
		expect(names).not.toContain('updatedBefore');

		const [site] = await fixture.client.state('sites');
		const filters = {
			status: ['open'],
			siteIds: [site.id],
			dueAfter: '2020-01-01T00:00:00.000Z',
			metadata: { entry: [{ key: 'tier', value: 'gold' }] },
		};
		await fixture.client.clearRequests();
		await runStora({
			credentials: fixture.credentials(),
			parameters: { resource: 'task', operation: 'getAll', limit: 5, filters },
		});
		const poller = new PollHarness(fixture.credentials(), {
			pollResource: 'task',
			event: 'created',
			filters,
		});
		await poller.poll('manual');
		const [fromGetMany, fromPoll] = (await fixture.client.requests()).map(
			(request) => request.query,
		);
		const filterPart = (query: Record<string, unknown>) =>
			Object.fromEntries(
				Object.entries(query).filter(
					([name]) => !['page', 'limit', 'sort_by', 'sort_direction'].includes(name),
				),
			);
		expect(filterPart(fromPoll)).toEqual(filterPart(fromGetMany));
		expect(fromPoll).toMatchObject({ status: 'open', site_id: site.id, 'metadata[tier]': 'gold' });
	});

	it('emits only the records its filters select', async () => {
		const [siteA, siteB] = await fixture.client.state('sites');
		const poller = new PollHarness(fixture.credentials(), {
			pollResource: 'task',
			event: 'created',
			filters: { status: ['open'], siteIds: [siteA.id] },
		});
		await poller.poll();
		const start = aheadSecond(5);
		const [wanted] = await tasksAt([
			{ at: start, title: 'Wanted', status: 'open', site: { id: siteA.id } },
			{ at: start + 1000, title: 'Other site', status: 'open', site: { id: siteB.id } },
			{ at: start + 2000, title: 'Completed', status: 'completed', site: { id: siteA.id } },
		]);
		expect((await poller.poll())?.map((record) => record.title)).toEqual(['Wanted']);
		expect((await poller.poll()) ?? []).toEqual([]);
		expect(wanted.title).toBe('Wanted');
	});

	it('refuses a filter ID of the wrong kind before any request, naming the filter', async () => {
		const poller = new PollHarness(fixture.credentials(), {
			pollResource: 'task',
			event: 'created',
			filters: { siteIds: ['con_notasite'] },
		});
		await fixture.client.clearRequests();
		await expect(poller.poll()).rejects.toThrow(
			'Site Names or IDs: "con_notasite" is not a valid ID',
		);
		expect(await fixture.client.requests()).toEqual([]);
	});

	it.each([
		['creditNote', 'updated', 'Credit Note records carry no updated_at', 'Event → New Record'],
		[
			'productCategory',
			'created',
			'Product Category records carry no created_at',
			'Remove Duplicates',
		],
	])(
		'refuses to poll %s by a time its records lack (%s), before any request, saying what works',
		async (pollResource, event, message, remedy) => {
			await fixture.client.clearRequests();
			const failed = await new PollHarness(fixture.credentials(), { pollResource, event })
				.poll()
				.catch((error: { description?: string } & Error) => error);
			expect((failed as Error).message).toContain(message);
			expect((failed as { description?: string }).description).toContain(remedy);
			expect(await fixture.client.requests()).toEqual([]);
		},
	);

	it('fails naming the filter when Stora ignores it, instead of emitting records it excludes', async () => {
		await fixture.client.configure({ unknown_params: 'ignore' });
		try {
			const poller = new PollHarness(fixture.credentials(), {
				pollResource: 'task',
				event: 'created',
				filters: { status: ['open'] },
			});
			expect(await poller.poll()).toBeNull();
			const before = poller.staticData;
			await tasksAt([
				{ at: aheadSecond(5), title: 'Open', status: 'open' },
				{ at: aheadSecond(6), title: 'Done', status: 'completed' },
			]);
			await expect(poller.poll()).rejects.toThrow('Stora did not apply the filter Status (status)');
			// Nothing emitted, and the cursor did not move.
			expect(poller.staticData).toEqual(before);
		} finally {
			await fixture.client.configure({ unknown_params: 'accept' });
		}
	});

	it('emits every record once under "New or Updated Record" when one is updated while the poll pages', async () => {
		const poller = harness('updated');
		await poller.poll();
		const start = aheadSecond(5);
		const inserted = await sitesAt(
			Array.from({ length: 150 }, (_, n) => start + n * 1000),
			'Walk',
		);
		// The second page waits; meanwhile the first site is updated (it moves to the end of an updated_at walk).
		await fixture.client.fault({ method: 'GET', path: '/2025-09/sites' }, [
			{ delay_ms: 1 },
			{ delay_ms: 400 },
		]);
		const polling = poller.poll();
		await new Promise((resolve) => setTimeout(resolve, 150));
		const changedAt = new Date(start + 500_000).toISOString();
		await fixture.client.insert('sites', [
			{ ...inserted[0], name: 'Walk changed', updated_at: changedAt },
		]);
		const first = (await polling) ?? [];
		const second = (await poller.poll()) ?? [];
		const emitted = [...first, ...second];
		// Every site once, and the changed one in its changed form (possibly also once before the change).
		const ids = new Set(emitted.map((record) => record.id));
		expect([...ids].sort()).toEqual(inserted.map((record) => record.id).sort());
		expect(emitted.filter((record) => record.id === inserted[0].id).pop()?.name).toBe(
			'Walk changed',
		);
		expect(emitted.length - ids.size).toBeLessThanOrEqual(1);
		expect(await poller.poll()).toBeNull();
	});

	it('polls Deal Stages, whose complete docs show no time filter, by page with their documented sort only', async () => {
		const poller = new PollHarness(fixture.credentials(), {
			pollResource: 'dealStage',
			event: 'updated',
		});
		expect(await poller.poll()).toBeNull();
		const [template] = await fixture.client.state('stages');
		const at = new Date(aheadSecond(5)).toISOString();
		const record: Record<string, unknown> = {
			...template,
			name: 'Viewing booked',
			position: 50,
			created_at: at,
			updated_at: at,
		};
		delete record.id;
		const [stage] = await fixture.client.insert('stages', [record]);
		await fixture.client.clearRequests();
		expect((await poller.poll())?.map((item) => item.id)).toEqual([stage.id]);
		for (const request of await fixture.client.requests()) {
			expect(Object.keys(request.query).sort()).toEqual([
				'limit',
				'page',
				'sort_by',
				'sort_direction',
			]);
			expect(request.query).toMatchObject({ sort_by: 'updated_at', sort_direction: 'DESC' });
		}
	});
});

/** The query without what only the list walk sets: paging, the sort and the poll's cursor. */
const filterPart = (query: Record<string, unknown>) =>
	Object.fromEntries(
		Object.entries(query).filter(
			([name]) => !['page', 'limit', 'sort_by', 'sort_direction', 'created_after'].includes(name),
		),
	);

describe('Stora Poll Trigger filter query', () => {
	it.each([
		[
			'deal',
			(siteId: string) => ({
				status: ['open', 'won'],
				siteIds: [siteId],
				stageIds: 'dstg_a1b2c3, dstg_d4e5f6',
			}),
		],
		[
			'contact',
			() => ({
				status: ['lead', 'customer'],
				type: ['unspecified'],
				metadata: { entry: [{ key: 'tier', value: 'gold' }] },
			}),
		],
	])(
		"equals the Stora node's %s Get Many query for the same filters",
		async (resource, filtersFor) => {
			const [site] = await fixture.client.state('sites');
			const filters = filtersFor(String(site.id));
			await fixture.client.clearRequests();
			const getMany = await runStora({
				credentials: fixture.credentials(),
				parameters: { resource, operation: 'getAll', limit: 5, filters },
			});
			expect(getMany.error).toBeUndefined();
			await new PollHarness(fixture.credentials(), {
				pollResource: resource,
				event: 'created',
				filters,
			}).poll('manual');
			const [fromGetMany, fromPoll] = (await fixture.client.requests()).map(
				(request) => request.query,
			);
			expect(Object.keys(filterPart(fromGetMany)).length).toBeGreaterThanOrEqual(3);
			expect(filterPart(fromPoll)).toEqual(filterPart(fromGetMany));
		},
	);
});
