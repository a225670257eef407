/** Tasks (`/tasks`) over real HTTP: list filters, create and its validation, update, open, delete, scopes. */
import type { Json } from '../../client';
import { useSandboxWithClients } from '../fixture';

const fx = useSandboxWithClients({ seed: 'demo', client: { redirect: 'follow' } });
let tasks: Json[];
let contacts: Json[];
let staff: Json[];

beforeEach(async () => {
	[tasks, contacts, staff] = await Promise.all([
		fx.api.state('tasks'),
		fx.api.state('contacts'),
		fx.api.state('staff'),
	]);
});

const V = '/2025-09';

describe('tasks', () => {
	test('list filters: status, unassigned, resource, due window; expand assignee', async () => {
		const completed = await fx.api.get(`${V}/tasks?status=completed`);
		expect(completed.body.meta.pagination.count).toBe(4);
		expect(
			completed.body.tasks.every((t: Json) => t.status === 'completed' && t.completed_at),
		).toBe(true);
		const unassigned = await fx.api.get(`${V}/tasks?assignee_id=unspecified`);
		expect(unassigned.body.tasks.map((t: Json) => t.id)).toEqual([tasks[9].id]);
		const byAssignee = await fx.api.get(`${V}/tasks?assignee_id=${staff[0].id}`);
		expect(byAssignee.body.tasks.every((t: Json) => t.assignee.id === staff[0].id)).toBe(true);
		const byResource = await fx.api.get(`${V}/tasks?resource_id=${contacts[3].id}`);
		expect(byResource.body.tasks.map((t: Json) => t.id)).toEqual([tasks[1].id]);
		const now = new Date().toISOString();
		const overdue = await fx.api.get(`${V}/tasks?due_before=${now}&status=open`);
		expect(
			overdue.body.tasks.every(
				(t: Json) => Date.parse(t.due_at) < Date.parse(now) && t.status === 'open',
			),
		).toBe(true);
		expect(overdue.body.meta.pagination.count).toBe(
			tasks.filter((t) => t.status === 'open' && t.due_at && Date.parse(t.due_at) < Date.parse(now))
				.length,
		);
		expect((await fx.api.get(`${V}/tasks?status=closed`)).status).toBe(422);
		const expanded = await fx.api.get(
			`${V}/tasks?expand=assignee&limit=1&sort_by=created_at&sort_direction=ASC`,
		);
		expect(expanded.body.tasks[0].assignee).toMatchObject({
			id: staff[0].id,
			name: 'Alex Morgan',
			email: expect.any(String),
		});
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
		expect(missing.body.error.details).toEqual([
			{ message: expect.stringContaining("'title'"), pointer: null },
		]);
		const assignee = await fx.api.post(`${V}/tasks`, {
			title: 't',
			assignee: { id: 'staff_nobody' },
		});
		expect(assignee.status).toBe(404);
		const resource = await fx.api.post(`${V}/tasks`, { title: 't', resource: { id: 'aetpl_x' } });
		expect(resource.status).toBe(422);
		expect(resource.body.error.details[0].pointer).toBe('/resource/id');
		const badDate = await fx.api.post(`${V}/tasks`, { title: 't', due_at: 'tomorrow' });
		expect(badDate.body.error.details[0].pointer).toBe('/due_at');
	});

	test('update, open (reopen a completed task), delete', async () => {
		const updated = await fx.api.patch(`${V}/tasks/${tasks[0].id}`, {
			title: 'New title',
			description: null,
			assignee: null,
		});
		expect(updated.body.task).toMatchObject({
			title: 'New title',
			description: null,
			assignee: null,
			status: 'open',
		});

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
		expect((await fx.api.del(`${V}/tasks/${tasks[1].id}`)).body.error.code).toBe(
			'resource_not_found',
		);
		expect((await fx.api.patch(`${V}/tasks/task_nope`, { title: 'x' })).status).toBe(404);
	});

	test('a task:read token cannot delete', async () => {
		const token = await fx.api.token(['public.task:read']);
		const res = await fx.api.del(`${V}/tasks/${tasks[0].id}`, { token });
		expect(res.status).toBe(403);
		expect(res.body.error.message).toContain('public.task:write');
	});
});
