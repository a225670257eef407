import { searchTasks } from '../../../nodes/Stora/methods/listSearch/crm';
import { loadOptionsContext } from '../../helpers/loadOptions';
import { locator as byId, runStora } from '../../helpers/n8n';
import { findRecord } from '../../helpers/records';
import { useResourceFixture } from '../../helpers/sandboxFixture';

describe('Stora node: Task', () => {
	const { client, credentials, seed } = useResourceFixture('contacts', 'tasks');
	const lists = () => loadOptionsContext(credentials(), { resource: 'task', operation: 'get' });

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
					resourceId: seed.contacts[7].id,
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
			resource: { id: seed.contacts[7].id },
			metadata: { priority: 'high' },
		});
		const created = result.items[0].json;
		expect(created).toEqual(await findRecord(client, 'tasks', String(created.id)));
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
		const assignee = await run({ assigneeId: seed.contacts[0].id });
		expect(record.error?.message).toBe('Linked Record ID: "note_abc123" is not a valid ID here');
		expect(record.error?.description).toContain('"con_", "unit_", "sub_"');
		expect(due.error?.message).toBe('Due At: "31/02/2027" is not a valid date');
		expect(assignee.error?.message).toBe(
			`Assignee: "${seed.contacts[0].id}" is not an assignee ID`,
		);
		expect(await client.requests()).toEqual([]);
	});

	it('updates a task, clearing its description and due date', async () => {
		const task = seed.tasks[0];
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
		const stored = await findRecord(client, 'tasks', task.id);
		expect(stored).toMatchObject({ title: 'Call back (updated)', description: null, due_at: null });
		expect(result.items[0].json).toEqual(stored);
	});

	it('reopens a completed task with POST /tasks/{id}/open, and surfaces the conflict for an open one', async () => {
		const completed = seed.tasks[2];
		const open = seed.tasks[0];
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
		expect(reopened.items[0].json).toMatchObject({
			id: completed.id,
			status: 'open',
			completed_at: null,
		});
		expect((await findRecord(client, 'tasks', completed.id))?.status).toBe('open');

		const again = await runStora({
			credentials: credentials(),
			parameters: { resource: 'task', operation: 'reopen', taskId: byId(open.id) },
		});
		expect(again.error?.message).toBe(`Task ${open.id} is already open [conflict]`);
		expect((again.error as { httpCode?: string }).httpCode).toBe('409');
	});

	it('deletes a task and returns {deleted, id, message}', async () => {
		const task = seed.tasks[4];
		const result = await runStora({
			credentials: credentials(),
			parameters: {
				resource: 'task',
				operation: 'delete',
				taskId: { __rl: true, mode: 'list', value: task.id },
			},
		});
		expect(result.error).toBeUndefined();
		expect((await client.requests())[0]).toMatchObject({
			method: 'DELETE',
			path: `/2025-09/tasks/${task.id}`,
		});
		expect(result.items.map((item) => item.json)).toEqual([
			{ deleted: true, id: task.id, message: `Task ${task.id} deleted` },
		]);
		expect(await findRecord(client, 'tasks', task.id)).toBeUndefined();
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
					resourceIds: seed.contacts[27].id,
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
			resource_id: seed.contacts[27].id,
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
		expect(item.id).toBe(seed.tasks[9].id);
		expect(Object.keys(item).sort()).toEqual(
			[
				'assignee',
				'completed_at',
				'created_at',
				'due_at',
				'id',
				'resource',
				'site',
				'status',
				'title',
			].sort(),
		);
		expect(item.resource).toMatchObject({
			id: seed.contacts[27].id,
			email: seed.contacts[27].email,
		});
	});

	it('searches tasks for the resource locator', async () => {
		const { results } = await searchTasks.call(lists(), 'invoice');
		const expected = seed.tasks.filter((t) =>
			/invoice/i.test(`${String(t.title)} ${String(t.description)}`),
		);
		expect(results.map((r) => r.value)).toEqual(expect.arrayContaining(expected.map((t) => t.id)));
		expect(results).toHaveLength(expected.length);
		expect(results[0].name).toMatch(/\[(open|completed)\]$/);
		expect((await client.requests())[0].query).toMatchObject({ search: 'invoice' });
	});
});
