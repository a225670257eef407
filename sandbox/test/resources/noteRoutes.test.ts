/** Notes (`/notes`) over real HTTP. */
import type { Json } from '../../client';
import { useSandboxWithClients } from '../fixture';

const fx = useSandboxWithClients({ seed: 'demo', client: { redirect: 'follow' } });
let tasks: Json[];
let contacts: Json[];

beforeEach(async () => {
	[tasks, contacts] = await Promise.all([fx.api.state('tasks'), fx.api.state('contacts')]);
});

const V = '/2025-09';

describe('notes', () => {
	test('list by resource_id, get, create, update, validation', async () => {
		const byContact = await fx.api.get(`${V}/notes?resource_id=${contacts[0].id},${tasks[0].id}`);
		expect(byContact.body.meta.pagination.count).toBe(2);
		expect(byContact.body.notes.map((n: Json) => n.resource.id).sort()).toEqual(
			[contacts[0].id, tasks[0].id].sort(),
		);

		const created = await fx.api.post(`${V}/notes`, {
			content: 'Prefers email',
			resource: { id: contacts[10].id },
			metadata: { a: '1' },
		});
		expect(created.status).toBe(201);
		const note = created.body.note;
		expect(Object.keys(note).sort()).toEqual([
			'content',
			'created_at',
			'creator',
			'id',
			'metadata',
			'resource',
			'updated_at',
		]);
		expect(note.creator.id).toMatch(/^tok_/);
		expect(
			(await fx.api.get(`${V}/notes/${note.id}?expand=resource`)).body.note.resource.email,
		).toBe(contacts[10].email);

		const updated = await fx.api.patch(`${V}/notes/${note.id}`, { content: 'Prefers phone' });
		expect(updated.body.note).toMatchObject({
			content: 'Prefers phone',
			metadata: { a: '1' },
			resource: { id: contacts[10].id },
		});

		const missing = await fx.api.post(`${V}/notes`, { content: 'x' });
		expect(missing.body.error.details).toEqual([
			{ message: expect.stringContaining("'resource'"), pointer: null },
		]);
		const wrongKind = await fx.api.post(`${V}/notes`, {
			content: 'x',
			resource: { id: (await fx.api.state('deals'))[0].id },
		});
		expect(wrongKind.status).toBe(422);
		expect(wrongKind.body.error.details[0].pointer).toBe('/resource/id');
		const blank = await fx.api.patch(`${V}/notes/${note.id}`, { content: '' });
		expect(blank.body.error.details[0].pointer).toBe('/content');
		expect((await fx.api.get(`${V}/notes/note_nope`)).status).toBe(404);
	});
});
