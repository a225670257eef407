/** Tasks, notes and the timeline (sources, templates, events) over real HTTP. */
import type { Json } from '../client';
import { useSandboxWithClients } from './fixture';

const fx = useSandboxWithClients({ seed: 'demo', client: { redirect: 'follow' } });
let tasks: Json[];
let contacts: Json[];
let staff: Json[];

beforeEach(async () => {
	[tasks, contacts, staff] = await Promise.all([fx.api.state('tasks'), fx.api.state('contacts'), fx.api.state('staff')]);
});

const V = '/2025-09';

describe('tasks', () => {
	test('list filters: status, unassigned, resource, due window; expand assignee', async () => {
		const completed = await fx.api.get(`${V}/tasks?status=completed`);
		expect(completed.body.meta.pagination.count).toBe(4);
		expect(completed.body.tasks.every((t: Json) => t.status === 'completed' && t.completed_at)).toBe(true);
		const unassigned = await fx.api.get(`${V}/tasks?assignee_id=unspecified`);
		expect(unassigned.body.tasks.map((t: Json) => t.id)).toEqual([tasks[9].id]);
		const byAssignee = await fx.api.get(`${V}/tasks?assignee_id=${staff[0].id}`);
		expect(byAssignee.body.tasks.every((t: Json) => t.assignee.id === staff[0].id)).toBe(true);
		const byResource = await fx.api.get(`${V}/tasks?resource_id=${contacts[3].id}`);
		expect(byResource.body.tasks.map((t: Json) => t.id)).toEqual([tasks[1].id]);
		const now = new Date().toISOString();
		const overdue = await fx.api.get(`${V}/tasks?due_before=${now}&status=open`);
		expect(overdue.body.tasks.every((t: Json) => Date.parse(t.due_at) < Date.parse(now) && t.status === 'open')).toBe(true);
		expect(overdue.body.meta.pagination.count).toBe(
			tasks.filter((t) => t.status === 'open' && t.due_at && Date.parse(t.due_at) < Date.parse(now)).length,
		);
		expect((await fx.api.get(`${V}/tasks?status=closed`)).status).toBe(422);
		const expanded = await fx.api.get(`${V}/tasks?expand=assignee&limit=1&sort_by=created_at&sort_direction=ASC`);
		expect(expanded.body.tasks[0].assignee).toMatchObject({ id: staff[0].id, name: 'Alex Morgan', email: expect.any(String) });
	});

	test('create: 201, open, creator is the token, nulls for links not given', async () => {
		const res = await fx.api.post(`${V}/tasks`, {
			title: 'Ring the customer',
			assignee: { id: staff[1].id },
			resource: { id: contacts[2].id },
			due_at: '2030-01-01T10:00:00Z',
		});
		expect(res.status).toBe(201);
		expect(res.body.task).toMatchObject({
			title: 'Ring the customer',
			status: 'open',
			completed_at: null,
			description: null,
			site: null,
			metadata: {},
			assignee: { id: staff[1].id },
			resource: { id: contacts[2].id },
			creator: { id: expect.stringMatching(/^tok_/) },
		});
	});

	test('create validation: missing title, unknown assignee, disallowed resource prefix', async () => {
		const missing = await fx.api.post(`${V}/tasks`, { description: 'x' });
		expect(missing.status).toBe(422);
		expect(missing.body.error.details).toEqual([{ message: expect.stringContaining("'title'"), pointer: null }]);
		const assignee = await fx.api.post(`${V}/tasks`, { title: 't', assignee: { id: 'staff_nobody' } });
		expect(assignee.status).toBe(404);
		const resource = await fx.api.post(`${V}/tasks`, { title: 't', resource: { id: 'aetpl_x' } });
		expect(resource.status).toBe(422);
		expect(resource.body.error.details[0].pointer).toBe('/resource/id');
		const badDate = await fx.api.post(`${V}/tasks`, { title: 't', due_at: 'tomorrow' });
		expect(badDate.body.error.details[0].pointer).toBe('/due_at');
	});

	test('update, open (reopen a completed task), delete', async () => {
		const updated = await fx.api.patch(`${V}/tasks/${tasks[0].id}`, { title: 'New title', description: null, assignee: null });
		expect(updated.body.task).toMatchObject({ title: 'New title', description: null, assignee: null, status: 'open' });

		const completedTask = tasks[2];
		expect(completedTask.status).toBe('completed');
		const opened = await fx.api.post(`${V}/tasks/${completedTask.id}/open`);
		expect(opened.status).toBe(200);
		expect(opened.body.task).toMatchObject({ status: 'open', completed_at: null });
		const already = await fx.api.post(`${V}/tasks/${completedTask.id}/open`);
		expect(already.status).toBe(409);
		expect(already.body.error.code).toBe('conflict');

		const deleted = await fx.api.del(`${V}/tasks/${tasks[1].id}`);
		expect(deleted.status).toBe(200);
		expect(deleted.body.success.message).toContain(tasks[1].id);
		expect((await fx.api.post(`${V}/tasks/${tasks[1].id}/open`)).status).toBe(404);
		expect((await fx.api.del(`${V}/tasks/${tasks[1].id}`)).body.error.code).toBe('resource_not_found');
		expect((await fx.api.patch(`${V}/tasks/task_nope`, { title: 'x' })).status).toBe(404);
	});

	test('a task:read token cannot delete', async () => {
		const token = await fx.api.token(['public.task:read']);
		const res = await fx.api.del(`${V}/tasks/${tasks[0].id}`, { token });
		expect(res.status).toBe(403);
		expect(res.body.error.message).toContain('public.task:write');
	});
});

describe('notes', () => {
	test('list by resource_id, get, create, update, validation', async () => {
		const byContact = await fx.api.get(`${V}/notes?resource_id=${contacts[0].id},${tasks[0].id}`);
		expect(byContact.body.meta.pagination.count).toBe(2);
		expect(byContact.body.notes.map((n: Json) => n.resource.id).sort()).toEqual([contacts[0].id, tasks[0].id].sort());

		const created = await fx.api.post(`${V}/notes`, { content: 'Prefers email', resource: { id: contacts[10].id }, metadata: { a: '1' } });
		expect(created.status).toBe(201);
		const note = created.body.note;
		expect(Object.keys(note).sort()).toEqual(['content', 'created_at', 'creator', 'id', 'metadata', 'resource', 'updated_at']);
		expect(note.creator.id).toMatch(/^tok_/);
		expect((await fx.api.get(`${V}/notes/${note.id}?expand=resource`)).body.note.resource.email).toBe(contacts[10].email);

		const updated = await fx.api.patch(`${V}/notes/${note.id}`, { content: 'Prefers phone' });
		expect(updated.body.note).toMatchObject({ content: 'Prefers phone', metadata: { a: '1' }, resource: { id: contacts[10].id } });

		const missing = await fx.api.post(`${V}/notes`, { content: 'x' });
		expect(missing.body.error.details).toEqual([{ message: expect.stringContaining("'resource'"), pointer: null }]);
		const wrongKind = await fx.api.post(`${V}/notes`, { content: 'x', resource: { id: (await fx.api.state('deals'))[0].id } });
		expect(wrongKind.status).toBe(422);
		expect(wrongKind.body.error.details[0].pointer).toBe('/resource/id');
		const blank = await fx.api.patch(`${V}/notes/${note.id}`, { content: '' });
		expect(blank.body.error.details[0].pointer).toBe('/content');
		expect((await fx.api.get(`${V}/notes/note_nope`)).status).toBe(404);
	});
});

describe('timeline', () => {
	test('sources list; templates list with created window; get template', async () => {
		const sources = await fx.api.get(`${V}/timeline/sources`);
		expect(sources.body.sources).toHaveLength(3);
		expect(Object.keys(sources.body.sources[0]).sort()).toEqual(['created_at', 'global', 'id', 'name', 'updated_at', 'website_url']);
		const templates = await fx.api.state('templates');
		const recent = await fx.api.get(`${V}/timeline/templates?created_after=${templates[1].created_at}`);
		expect(recent.body.templates.map((t: Json) => t.id).sort()).toEqual([templates[1].id, templates[2].id].sort());
		const one = await fx.api.get(`${V}/timeline/templates/${templates[0].id}`);
		expect(one.body.template).toMatchObject({ name: 'Gate access', variables: { custom: ['gate'], predefined: ['contact', 'site'] } });
		expect((await fx.api.get(`${V}/timeline/templates/aetpl_nope`)).status).toBe(404);
	});

	test('create renders the description from the template; links not supplied are null', async () => {
		const [templates, sources, sites] = await Promise.all([fx.api.state('templates'), fx.api.state('sources'), fx.api.state('sites')]);
		const res = await fx.api.post(`${V}/timeline/events`, {
			source: { id: sources[1].id },
			template: { id: templates[0].id },
			contact: { id: contacts[0].id },
			site: { id: sites[0].id },
			variables: { gate: 'Gate B' },
			external: { id: 'evt-1', url: 'https://gates.example.com/e/1' },
		});
		expect(res.status).toBe(201);
		const event = res.body.event;
		expect(event.description).toBe(`${contacts[0].full_name} accessed ${sites[0].name} through Gate B`);
		expect(event).toMatchObject({
			invoice: null,
			subscription: null,
			tenancy: null,
			unit: null,
			unit_type: null,
			creator: { id: expect.stringMatching(/^tok_/) },
			external: { id: 'evt-1', url: 'https://gates.example.com/e/1' },
		});

		const own = await fx.api.post(`${V}/timeline/events`, {
			source: { id: sources[2].id },
			template: { id: templates[1].id },
			contact: { id: contacts[1].id },
			description: 'Custom text',
		});
		expect(own.body.event.description).toBe('Custom text');

		const updated = await fx.api.patch(`${V}/timeline/events/${event.id}`, { variables: { gate: 'Gate C' } });
		expect(updated.status).toBe(200);
		expect(updated.body.event.description).toContain('through Gate C');
		const kept = await fx.api.patch(`${V}/timeline/events/${own.body.event.id}`, { variables: { topic: 'x' } });
		expect(kept.body.event.description).toBe('Custom text');
		expect((await fx.api.patch(`${V}/timeline/events/aevt_nope`, { description: 'x' })).status).toBe(404);
	});

	test('create validation: predefined variables, string variables, unknown refs and members', async () => {
		const [templates, sources] = await Promise.all([fx.api.state('templates'), fx.api.state('sources')]);
		const base = { source: { id: sources[1].id }, template: { id: templates[0].id }, contact: { id: contacts[0].id } };
		const noSite = await fx.api.post(`${V}/timeline/events`, base);
		expect(noSite.status).toBe(422);
		expect(noSite.body.error.code).toBe('invalid_content');
		expect(noSite.body.error.details).toEqual([{ message: expect.stringContaining("'site'"), pointer: null }]);
		const numbers = await fx.api.post(`${V}/timeline/events`, { ...base, template: { id: templates[1].id }, variables: { duration: 5 } });
		expect(numbers.body.error.details[0].pointer).toBe('/variables/duration');
		const unknownSource = await fx.api.post(`${V}/timeline/events`, { ...base, source: { id: 'tsrc_nope' } });
		expect(unknownSource.status).toBe(404);
		const extra = await fx.api.post(`${V}/timeline/events`, { ...base, colour: 'red' });
		expect(extra.body.error.details.map((d: Json) => d.pointer)).toContain('/colour');
		const noTemplate = await fx.api.post(`${V}/timeline/events`, { source: base.source, contact: base.contact });
		expect(noTemplate.body.error.details).toEqual([{ message: expect.stringContaining("'template'"), pointer: null }]);
		const token = await fx.api.token(['public.timeline_template:read']);
		expect((await fx.api.post(`${V}/timeline/events`, base, { token })).body.error.message).toContain('public.timeline_event:write');
	});
});
