import { searchNotes } from '../../../nodes/Stora/methods/listSearch/crm';
import { loadOptionsContext } from '../../helpers/loadOptions';
import { locator as byId, runStora } from '../../helpers/n8n';
import { findRecord, idOf } from '../../helpers/records';
import { useResourceFixture } from '../../helpers/sandboxFixture';

describe('Stora node: Note', () => {
	const { client, credentials, seed } = useResourceFixture('contacts', 'tasks', 'notes');
	const lists = () => loadOptionsContext(credentials(), { resource: 'note', operation: 'get' });

	it('creates a note on a contact', async () => {
		const contact = seed.contacts[12];
		const result = await runStora({
			credentials: credentials(),
			parameters: {
				resource: 'note',
				operation: 'create',
				content: 'Asked about climate-controlled units',
				noteRecordId: ` ${contact.id} `,
				additionalFields: { metadata: { entry: [{ key: 'channel', value: 'email' }] } },
			},
		});
		expect(result.error).toBeUndefined();
		const [request] = await client.requests();
		expect(request).toMatchObject({ method: 'POST', path: '/2025-09/notes' });
		expect(request.body).toEqual({
			content: 'Asked about climate-controlled units',
			resource: { id: contact.id },
			metadata: { channel: 'email' },
		});
		const created = result.items[0].json;
		expect(created).toEqual(await findRecord(client, 'notes', String(created.id)));
	});

	it('accepts only contacts, units, subscriptions and tasks as the annotated record', async () => {
		const deals = await client.state('deals');
		const result = await runStora({
			credentials: credentials(),
			parameters: {
				resource: 'note',
				operation: 'create',
				content: 'x',
				noteRecordId: deals[0].id,
			},
		});
		expect(result.error?.message).toBe(`Record ID: "${deals[0].id}" is not a valid ID here`);
		expect(await client.requests()).toEqual([]);
	});

	it('gets a note with its record expanded, and updates its content', async () => {
		const note = seed.notes[10];
		const task = seed.tasks.find((t) => t.id === idOf(note.resource))!;
		const got = await runStora({
			credentials: credentials(),
			parameters: {
				resource: 'note',
				operation: 'get',
				noteId: byId(note.id),
				options: { expand: ['resource'] },
			},
		});
		expect(got.items[0].json).toEqual({ ...note, resource: task });

		const updated = await runStora({
			credentials: credentials(),
			parameters: {
				resource: 'note',
				operation: 'update',
				noteId: byId(note.id),
				updateFields: { content: 'Progress: done' },
			},
		});
		expect(updated.error).toBeUndefined();
		const requests = await client.requests();
		expect(requests.map((r) => [r.method, r.path, r.query, r.body])).toEqual([
			['GET', `/2025-09/notes/${note.id}`, { expand: 'resource' }, null],
			['PATCH', `/2025-09/notes/${note.id}`, {}, { content: 'Progress: done' }],
		]);
		expect(await findRecord(client, 'notes', note.id)).toMatchObject({
			content: 'Progress: done',
			resource: note.resource,
		});
	});

	it('gets the notes of given records', async () => {
		const records = [seed.contacts[1].id, seed.tasks[0].id];
		const result = await runStora({
			credentials: credentials(),
			parameters: {
				resource: 'note',
				operation: 'getAll',
				limit: 50,
				filters: { resourceIds: records.join(',') },
				options: { sortBy: 'created_at', sortDirection: 'ASC' },
			},
		});
		expect(result.error).toBeUndefined();
		expect((await client.requests())[0].query).toEqual({
			limit: '50',
			resource_id: records.join(','),
			sort_by: 'created_at',
			sort_direction: 'ASC',
		});
		const expected = seed.notes.filter((n) => records.includes(String(idOf(n.resource))));
		expect(expected).toHaveLength(2);
		expect(result.items.map((item) => item.json)).toEqual(expected);
	});

	it('lists notes for the resource locator, filtered on the text here', async () => {
		const { results } = await searchNotes.call(lists(), 'progress update');
		const expected = seed.notes.filter((n) => /progress update/i.test(String(n.content)));
		expect(results.map((r) => r.value).sort()).toEqual(expected.map((n) => n.id).sort());
		expect((await client.requests())[0].query).toEqual({ limit: '100', page: '1' });
	});
});
