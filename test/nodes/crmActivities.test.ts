import { searchNotes, searchTasks } from '../../nodes/Stora/methods/listSearch/crm';
import { loadOptionsContext } from '../helpers/loadOptions';
import { locator as byId, runStora } from '../helpers/n8n';
import type { SandboxClient, StateRecord } from '../../sandbox/client';
import { useSandboxForNode } from '../helpers/sandboxFixture';

type Ref = { id: string } | null;

describe('Stora node: Task, Note, Timeline Event / Source / Template', () => {
	const fixture = useSandboxForNode();
	let client: SandboxClient;
	let contacts: StateRecord[];
	let tasks: StateRecord[];
	let notes: StateRecord[];

	beforeEach(async () => {
		client = fixture.client;
		contacts = await client.state('contacts');
		tasks = await client.state('tasks');
		notes = await client.state('notes');
		await client.clearRequests();
	});

	const credentials = () => fixture.credentials();
	const find = async (collection: string, id: string) =>
		(await client.state(collection)).find((record) => record.id === id);
	const idOf = (ref: unknown) => (ref as Ref)?.id;
	const lists = () => loadOptionsContext(credentials(), { resource: 'task', operation: 'get' });

	describe('Task', () => {
		it('creates a task linked to a contact, assigned, with a due date, site and metadata', async () => {
			const [staff] = await client.state('staff');
			const [, site] = await client.state('sites');
			const result = await runStora({
				credentials: credentials(),
				parameters: {
					resource: 'task',
					operation: 'create',
					title: 'Call about upgrade',
					additionalFields: {
						description: '<p>Wants a bigger unit</p>',
						dueAt: '2027-01-15T17:00:00.000Z',
						assigneeId: staff.id,
						siteId: site.id,
						resourceId: contacts[7].id,
						metadata: { entry: [{ key: 'priority', value: 'high' }] },
					},
				},
			});
			expect(result.error).toBeUndefined();
			const [request] = await client.requests();
			expect(request).toMatchObject({ method: 'POST', path: '/2025-09/tasks' });
			expect(request.body).toEqual({
				title: 'Call about upgrade',
				description: '<p>Wants a bigger unit</p>',
				due_at: '2027-01-15T17:00:00.000Z',
				assignee: { id: staff.id },
				site: { id: site.id },
				resource: { id: contacts[7].id },
				metadata: { priority: 'high' },
			});
			const created = result.items[0].json;
			expect(created).toEqual(await find('tasks', String(created.id)));
			expect(created).toMatchObject({ status: 'open', title: 'Call about upgrade' });
		});

		it('rejects a linked record, a due date or an assignee of the wrong kind before any request', async () => {
			const run = (additionalFields: Record<string, string>) =>
				runStora({
					credentials: credentials(),
					parameters: { resource: 'task', operation: 'create', title: 'x', additionalFields },
				});
			const record = await run({ resourceId: 'note_abc123' });
			const due = await run({ dueAt: '31/02/2027' });
			const assignee = await run({ assigneeId: contacts[0].id });
			expect(record.error?.message).toBe('Linked Record ID: "note_abc123" is not a valid ID here');
			expect(record.error?.description).toContain('"con_", "unit_", "sub_"');
			expect(due.error?.message).toBe('Due At: "31/02/2027" is not a valid date');
			expect(assignee.error?.message).toBe(`Assignee: "${contacts[0].id}" is not an assignee ID`);
			expect(await client.requests()).toEqual([]);
		});

		it('updates a task, clearing its description and due date', async () => {
			const task = tasks[0];
			expect(task.description).not.toBeNull();
			const result = await runStora({
				credentials: credentials(),
				parameters: {
					resource: 'task',
					operation: 'update',
					taskId: byId(task.id),
					updateFields: { title: 'Call back (updated)', description: '', dueAt: '' },
				},
			});
			expect(result.error).toBeUndefined();
			const [request] = await client.requests();
			expect(request).toMatchObject({ method: 'PATCH', path: `/2025-09/tasks/${task.id}` });
			expect(request.body).toEqual({ title: 'Call back (updated)', description: null, due_at: null });
			const stored = await find('tasks', task.id);
			expect(stored).toMatchObject({ title: 'Call back (updated)', description: null, due_at: null });
			expect(result.items[0].json).toEqual(stored);
		});

		it('reopens a completed task with POST /tasks/{id}/open, and surfaces the conflict for an open one', async () => {
			const completed = tasks[2];
			const open = tasks[0];
			expect([completed.status, open.status]).toEqual(['completed', 'open']);
			const reopened = await runStora({
				credentials: credentials(),
				parameters: { resource: 'task', operation: 'reopen', taskId: byId(completed.id) },
			});
			expect(reopened.error).toBeUndefined();
			expect((await client.requests())[0]).toMatchObject({
				method: 'POST',
				path: `/2025-09/tasks/${completed.id}/open`,
			});
			expect(reopened.items[0].json).toMatchObject({ id: completed.id, status: 'open', completed_at: null });
			expect((await find('tasks', completed.id))?.status).toBe('open');

			const again = await runStora({
				credentials: credentials(),
				parameters: { resource: 'task', operation: 'reopen', taskId: byId(open.id) },
			});
			expect(again.error?.message).toBe(`Task ${open.id} is already open [conflict]`);
			expect((again.error as { httpCode?: string }).httpCode).toBe('409');
		});

		it('deletes a task and returns {deleted, id, message}', async () => {
			const task = tasks[4];
			const result = await runStora({
				credentials: credentials(),
				parameters: { resource: 'task', operation: 'delete', taskId: { __rl: true, mode: 'list', value: task.id } },
			});
			expect(result.error).toBeUndefined();
			expect((await client.requests())[0]).toMatchObject({ method: 'DELETE', path: `/2025-09/tasks/${task.id}` });
			expect(result.items.map((item) => item.json)).toEqual([
				{ deleted: true, id: task.id, message: `Task ${task.id} deleted` },
			]);
			expect(await find('tasks', task.id)).toBeUndefined();
		});

		it('gets many tasks filtered by status, assignee, site, record and dates', async () => {
			const sites = await client.state('sites');
			const result = await runStora({
				credentials: credentials(),
				parameters: {
					resource: 'task',
					operation: 'getAll',
					returnAll: true,
					filters: {
						status: ['completed'],
						assigneeIds: 'unspecified',
						siteIds: sites.map((s) => s.id),
						resourceIds: contacts[27].id,
						dueBefore: '2100-01-01T00:00:00.000Z',
						metadata: { entry: [{ key: 'priority', value: 'high' }] },
					},
					options: { expand: ['resource'] },
					simplify: true,
				},
			});
			expect(result.error).toBeUndefined();
			const [request] = await client.requests();
			expect(request.query).toEqual({
				status: 'completed',
				assignee_id: 'unspecified',
				site_id: sites.map((s) => s.id).join(','),
				resource_id: contacts[27].id,
				due_before: '2100-01-01T00:00:00.000Z',
				'metadata[priority]': 'high',
				expand: 'resource',
				limit: '100',
				page: '1',
				sort_by: 'created_at',
				sort_direction: 'ASC',
			});
			// Task 9: completed, unassigned, on contact 27, priority high.
			expect(result.items).toHaveLength(1);
			const [item] = result.items.map((i) => i.json);
			expect(item.id).toBe(tasks[9].id);
			expect(Object.keys(item).sort()).toEqual(
				['assignee', 'completed_at', 'created_at', 'due_at', 'id', 'resource', 'site', 'status', 'title'].sort(),
			);
			expect(item.resource).toMatchObject({ id: contacts[27].id, email: contacts[27].email });
		});

		it('searches tasks for the resource locator', async () => {
			const { results } = await searchTasks.call(lists(), 'invoice');
			const expected = tasks.filter((t) => /invoice/i.test(`${String(t.title)} ${String(t.description)}`));
			expect(results.map((r) => r.value)).toEqual(expect.arrayContaining(expected.map((t) => t.id)));
			expect(results).toHaveLength(expected.length);
			expect(results[0].name).toMatch(/\[(open|completed)\]$/);
			expect((await client.requests())[0].query).toMatchObject({ search: 'invoice' });
		});
	});

	describe('Note', () => {
		it('creates a note on a contact', async () => {
			const contact = contacts[12];
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
			expect(created).toEqual(await find('notes', String(created.id)));
		});

		it('accepts only contacts, units, subscriptions and tasks as the annotated record', async () => {
			const deals = await client.state('deals');
			const result = await runStora({
				credentials: credentials(),
				parameters: { resource: 'note', operation: 'create', content: 'x', noteRecordId: deals[0].id },
			});
			expect(result.error?.message).toBe(`Record ID: "${deals[0].id}" is not a valid ID here`);
			expect(await client.requests()).toEqual([]);
		});

		it('gets a note with its record expanded, and updates its content', async () => {
			const note = notes[10];
			const task = tasks.find((t) => t.id === idOf(note.resource))!;
			const got = await runStora({
				credentials: credentials(),
				parameters: { resource: 'note', operation: 'get', noteId: byId(note.id), options: { expand: ['resource'] } },
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
			expect(await find('notes', note.id)).toMatchObject({ content: 'Progress: done', resource: note.resource });
		});

		it('gets the notes of given records', async () => {
			const records = [contacts[1].id, tasks[0].id];
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
			const expected = notes.filter((n) => records.includes(String(idOf(n.resource))));
			expect(expected).toHaveLength(2);
			expect(result.items.map((item) => item.json)).toEqual(expected);
		});

		it('lists notes for the resource locator, filtered on the text here', async () => {
			const { results } = await searchNotes.call(lists(), 'progress update');
			const expected = notes.filter((n) => /progress update/i.test(String(n.content)));
			expect(results.map((r) => r.value).sort()).toEqual(expected.map((n) => n.id).sort());
			expect((await client.requests())[0].query).toEqual({ limit: '100', page: '1' });
		});
	});

	describe('Timeline', () => {
		let sources: StateRecord[];
		let templates: StateRecord[];
		beforeEach(async () => {
			sources = await client.state('sources');
			templates = await client.state('templates');
			await client.clearRequests();
		});
		const template = (name: string) => templates.find((t) => t.name === name)!;
		const source = (name: string) => sources.find((s) => s.name === name)!;

		it('lists timeline sources and templates, and gets a template', async () => {
			const listed = await runStora({
				credentials: credentials(),
				parameters: { resource: 'timelineSource', operation: 'getAll', returnAll: true },
			});
			expect(listed.items.map((item) => item.json.id).sort()).toEqual(sources.map((s) => s.id).sort());

			const templateList = await runStora({
				credentials: credentials(),
				parameters: {
					resource: 'timelineTemplate',
					operation: 'getAll',
					limit: 2,
					filters: { createdAfter: '2000-01-01T00:00:00.000Z' },
					options: { sortBy: 'created_at', sortDirection: 'ASC' },
				},
			});
			const oldest = [...templates].sort((a, b) => String(a.created_at).localeCompare(String(b.created_at)));
			expect(templateList.items.map((item) => item.json)).toEqual(oldest.slice(0, 2));

			const got = await runStora({
				credentials: credentials(),
				parameters: { resource: 'timelineTemplate', operation: 'get', timelineTemplateId: template('Gate access').id },
			});
			expect(got.items.map((item) => item.json)).toEqual([template('Gate access')]);

			expect((await client.requests()).map((r) => [r.path, r.query])).toEqual([
				['/2025-09/timeline/sources', { limit: '100', page: '1', sort_by: 'created_at', sort_direction: 'ASC' }],
				[
					'/2025-09/timeline/templates',
					{ limit: '2', created_after: '2000-01-01T00:00:00.000Z', sort_by: 'created_at', sort_direction: 'ASC' },
				],
				[`/2025-09/timeline/templates/${template('Gate access').id}`, {}],
			]);
		});

		it('creates a timeline event with source, template, contact, links and template variables', async () => {
			const contact = contacts[6];
			const [site] = await client.state('sites');
			const result = await runStora({
				credentials: credentials(),
				parameters: {
					resource: 'timelineEvent',
					operation: 'create',
					timelineEventTimelineSourceId: source('Acme Gate Control').id,
					timelineEventTimelineTemplateId: template('Gate access').id,
					timelineEventContactId: { __rl: true, mode: 'list', value: contact.id },
					variables: { entry: [{ key: 'gate', value: 'North gate' }] },
					additionalFields: {
						siteId: site.id,
						externalId: 'gate-evt-77',
						externalUrl: 'https://gates.example.com/events/77',
					},
					options: { expand: ['source'] },
				},
			});
			expect(result.error).toBeUndefined();
			const [request] = await client.requests();
			expect(request).toMatchObject({ method: 'POST', path: '/2025-09/timeline/events', query: { expand: 'source' } });
			expect(request.body).toEqual({
				source: { id: source('Acme Gate Control').id },
				template: { id: template('Gate access').id },
				contact: { id: contact.id },
				variables: { gate: 'North gate' },
				site: { id: site.id },
				external: { id: 'gate-evt-77', url: 'https://gates.example.com/events/77' },
			});
			const event = result.items[0].json;
			expect(event.source).toEqual(source('Acme Gate Control'));
			expect(event.description).toBe(`${String(contact.full_name)} accessed ${String(site.name)} through North gate`);
			const stored = await find('timeline_events', String(event.id));
			expect(stored).toMatchObject({
				contact: { id: contact.id },
				site: { id: site.id },
				variables: { gate: 'North gate' },
			});
		});

		it("sends no contact when left empty, and surfaces the API's error for the template's missing link", async () => {
			const result = await runStora({
				credentials: credentials(),
				parameters: {
					resource: 'timelineEvent',
					operation: 'create',
					timelineEventTimelineSourceId: source('Stora').id,
					timelineEventTimelineTemplateId: template('Payment reminder').id,
					timelineEventContactId: { __rl: true, mode: 'list', value: '' },
				},
			});
			const [request] = await client.requests();
			expect(request.body).toEqual({
				source: { id: source('Stora').id },
				template: { id: template('Payment reminder').id },
			});
			expect(result.error?.message).toMatch(/\[invalid_content\]$/);
			expect(result.error?.description).toContain("missing the required property 'contact'");
			expect(result.error?.description).toContain("missing the required property 'invoice'");
			expect((result.error as { httpCode?: string }).httpCode).toBe('422');
		});

		it('checks the external link and the dropdown IDs before any request', async () => {
			const base = {
				resource: 'timelineEvent',
				operation: 'create',
				timelineEventTimelineSourceId: source('CallDesk').id,
				timelineEventTimelineTemplateId: template('Call logged').id,
				timelineEventContactId: byId(contacts[0].id),
			};
			const halfExternal = await runStora({
				credentials: credentials(),
				parameters: { ...base, additionalFields: { externalId: 'call-9' } },
			});
			const badUrl = await runStora({
				credentials: credentials(),
				parameters: { ...base, additionalFields: { externalId: 'call-9', externalUrl: 'calldesk/9' } },
			});
			const badSource = await runStora({
				credentials: credentials(),
				parameters: { ...base, timelineEventTimelineSourceId: template('Call logged').id },
			});
			expect(halfExternal.error?.message).toBe('External ID and External URL go together');
			expect(badUrl.error?.message).toBe('External URL: "calldesk/9" is not a URL');
			expect(badSource.error?.message).toBe(`Source: "${template('Call logged').id}" is not a source ID`);
			expect(await client.requests()).toEqual([]);
		});

		it('updates a timeline event: new variables re-render its generated description', async () => {
			const [event] = await client.state('timeline_events');
			await client.clearRequests();
			const result = await runStora({
				credentials: credentials(),
				parameters: {
					resource: 'timelineEvent',
					operation: 'update',
					timelineEventId: byId(event.id),
					updateFields: {
						variables: {
							entry: [
								{ key: 'topic', value: 'insurance' },
								{ key: 'duration', value: '12' },
							],
						},
					},
				},
			});
			expect(result.error).toBeUndefined();
			const [request] = await client.requests();
			expect(request).toMatchObject({
				method: 'PATCH',
				path: `/2025-09/timeline/events/${event.id}`,
				body: { variables: { topic: 'insurance', duration: '12' } },
			});
			const contact = contacts.find((c) => c.id === idOf(event.contact))!;
			expect(result.items[0].json.description).toBe(`Call with ${String(contact.full_name)} about insurance (12 min)`);
			expect(await find('timeline_events', event.id)).toEqual(result.items[0].json);
		});
	});
});
