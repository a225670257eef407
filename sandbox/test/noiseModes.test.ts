/**
 * The noise modes `npm run probe` is tested under (core/noise.ts): another client writing between list
 * calls (creates, updates, deletes; timestamps shared with the newest records), inclusive or exclusive time bounds,
 * a default order other than newest created first, 429s another client causes, and a count that changes between
 * pages. Off by default and with `{}`.
 */
import type { Json } from '../client';
import { useSandboxWithClients } from './fixture';

const V = '/2025-09';
const ids = (records: Json[]) => records.map((record) => String(record.id));

describe('noise modes', () => {
	const fx = useSandboxWithClients({ seed: 'demo' });
	const configure = async (body: Record<string, unknown>) =>
		await fx.api.post('/__sandbox/config', body, { token: null });
	afterEach(async () => {
		await configure({ noise: {} });
	});

	test('off by default; {} turns it off; a bad value changes nothing', async () => {
		expect(await fx.control.modes()).not.toHaveProperty('noise');
		const set = await configure({ noise: { writer: { every: 2 } } });
		expect(set.body.noise).toEqual({ writer: { every: 2 } });
		for (const noise of [
			{ writer: { every: 0 } },
			{ writer: { every: 1, actions: ['move'] } },
			{ contention: { every: 3, times: 3 } },
			{ bounds: { [`${V}/deals`]: { before: 'open' } } },
			{ default_order: { deals: { sort_by: 'x', sort_direction: 'UP' } } },
			{ pages: { change: 'shrink', undo: true } },
			{ pages: { change: 'more' } },
			{ other: 1 },
		]) {
			const refused = await configure({ noise });
			expect([
				JSON.stringify(noise),
				refused.status,
				refused.body.error.details[0].pointer,
			]).toEqual([JSON.stringify(noise), 422, '/noise']);
		}
		expect(((await fx.control.modes()) as unknown as { noise: unknown }).noise).toEqual({
			writer: { every: 2 },
		});
		await configure({ noise: {} });
		expect(await fx.control.modes()).not.toHaveProperty('noise');
	});

	test('the writer creates, updates and deletes on the list being read, every n-th list call, in turn', async () => {
		await configure({ noise: { writer: { every: 2, paths: [`${V}/contacts`] } } });
		const read = async () => ids((await fx.api.get(`${V}/contacts?limit=100`)).body.contacts);
		const first = await read();
		const second = await read(); // 2nd call: a contact created before it is answered
		expect(second.length).toBe(first.length + 1);
		const created = second.find((id) => !first.includes(id))!;
		expect(second[0]).toBe(created);
		await read();
		const before = (await fx.api.state('contacts')).map((record) => ({ ...record }));
		await read(); // 4th: an update
		const after = await fx.api.state('contacts');
		const changed = after.filter(
			(record) =>
				JSON.stringify(record) !== JSON.stringify(before.find((other) => other.id === record.id)),
		);
		expect(changed).toHaveLength(1);
		await read();
		const sixth = await read(); // 6th: a delete
		expect(sixth.length).toBe(first.length);
		expect(fx.sandbox.core.noise.log.map((write) => write.action)).toEqual([
			'create',
			'update',
			'delete',
		]);
		// Another list is left alone.
		const deals = (await fx.api.get(`${V}/deals?limit=100`)).body.deals.length;
		expect((await fx.api.get(`${V}/deals?limit=100`)).body.deals.length).toBe(deals);
	});

	test('equal timestamps: the copy shares the newest created_at and updated_at', async () => {
		await configure({
			noise: { writer: { every: 1, actions: ['create'], equal_timestamps: true } },
		});
		const contacts = (await fx.api.get(`${V}/contacts?limit=100`)).body.contacts as Json[];
		const newest = [...contacts].sort((a, b) =>
			String(b.created_at).localeCompare(String(a.created_at)),
		);
		const copy = contacts.find((record) => record.id === fx.sandbox.core.noise.log[0].id)!;
		expect(copy.created_at).toBe(newest[0].created_at);
		expect(
			contacts.filter((record) => record.created_at === copy.created_at).length,
		).toBeGreaterThanOrEqual(2);
	});

	test('bounds: _before inclusive keeps a record exactly at it; _after exclusive drops it', async () => {
		const records = (await fx.api.get(`${V}/contacts?limit=100`)).body.contacts as Json[];
		const at = String(records[1].created_at);
		const before = async () =>
			ids(
				(await fx.api.get(`${V}/contacts?limit=100&created_before=${encodeURIComponent(at)}`)).body
					.contacts,
			);
		const after = async () =>
			ids(
				(await fx.api.get(`${V}/contacts?limit=100&created_after=${encodeURIComponent(at)}`)).body
					.contacts,
			);
		expect(await before()).not.toContain(records[1].id);
		expect(await after()).toContain(records[1].id);
		await configure({
			noise: { bounds: { [`${V}/contacts`]: { before: 'inclusive', after: 'exclusive' } } },
		});
		expect(await before()).toContain(records[1].id);
		expect(await after()).not.toContain(records[1].id);
	});

	test('default order: deal stages by position ascending unless the query names a sort; its direction applies to sort_by alone', async () => {
		await configure({
			noise: {
				default_order: { [`${V}/deals/stages`]: { sort_by: 'position', sort_direction: 'ASC' } },
			},
		});
		const stages = (await fx.api.get(`${V}/deals/stages?limit=100`)).body.stages as Json[];
		expect(stages.map((stage) => stage.position)).toEqual(
			[...stages.map((stage) => stage.position as number)].sort((a, b) => a - b),
		);
		const byCreated = (await fx.api.get(`${V}/deals/stages?limit=100&sort_by=created_at`)).body
			.stages as Json[];
		const times = byCreated.map((stage) => String(stage.created_at));
		expect(times).toEqual([...times].sort());
		const descending = (await fx.api.get(`${V}/deals/stages?limit=100&sort_direction=DESC`)).body
			.stages as Json[];
		expect(ids(descending)).toEqual(ids(stages).reverse());
	});

	test('contention: every n-th API call and the next ones answer 429 with the documented headers only', async () => {
		await configure({ noise: { contention: { every: 3, times: 2 } } });
		const statuses: number[] = [];
		for (let index = 0; index < 7; index++) {
			const answer = await fx.api.get(`${V}/contacts?limit=1`);
			statuses.push(answer.status);
			if (answer.status !== 429) continue;
			expect(answer.body.error.code).toBe('too_many_requests');
			expect(answer.headers.get('retry-after')).toBeNull();
			expect(answer.headers.get('ratelimit-limit')).toBe('10');
			expect(Number(answer.headers.get('ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000 - 1);
		}
		expect(statuses).toEqual([200, 200, 429, 429, 200, 429, 429]);
		expect(
			(await fx.control.requests()).filter((request) => request.fault === 'contention'),
		).toHaveLength(4);
	});

	test('pages: the count grows (or shrinks) just before a later page is read, whatever the list does with page; undo deletes the copy before the next list call', async () => {
		const read = async (query = '') =>
			ids((await fx.api.get(`${V}/contacts?limit=3${query}`)).body.contacts);
		const first = await read();
		await configure({
			noise: { pages: { change: 'grow', undo: true } },
			param_readings: { [`${V}/contacts`]: { page: 'ignore' } },
		});
		// page ignored: the first page again, headed by the copy created just before it
		const grown = await read('&page=2');
		const [copy] = fx.sandbox.core.noise.log;
		expect(copy.action).toBe('create');
		expect(grown).toEqual([copy.id, ...first.slice(0, 2)]);
		expect(await read()).toEqual(first);
		expect(fx.sandbox.core.noise.log.map((write) => [write.action, write.id])).toEqual([
			['create', copy.id],
			['delete', copy.id],
		]);
		await configure({
			noise: { pages: { change: 'shrink', paths: [`${V}/contacts`] } },
			param_readings: {},
		});
		const page2 = await read('&page=2');
		const gone = fx.sandbox.core.noise.log[0].id;
		expect(gone).toBe(first[0]);
		const now = await read();
		expect(now).not.toContain(gone);
		expect(page2).toEqual((await read('&limit=6')).slice(3, 6));
		expect(fx.sandbox.core.noise.log).toHaveLength(1);
	});
});
