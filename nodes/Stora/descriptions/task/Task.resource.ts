import type { INodeProperties } from 'n8n-workflow';

import * as create from './create.operation';
import * as del from './delete.operation';
import * as getAll from './getAll.operation';
import * as reopen from './reopen.operation';
import * as update from './update.operation';

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['task'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				description:
					'Create a task (a piece of work for staff), optionally linked to a record, assigned and with a due date. Returns the new task with its ID (task_...).',
				action: 'Create a task',
				routing: { request: { method: 'POST', url: '/tasks' } },
			},
			{
				name: 'Delete',
				value: 'delete',
				description:
					'Delete a task. Returns deleted: true, the ID of the task and the message of the API.',
				action: 'Delete a task',
				routing: { request: { method: 'DELETE', url: '/tasks/{taskId}' } },
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description:
					'List tasks, optionally filtered by status (open or completed), assignee, site, linked record, text search, due date or metadata',
				action: 'Get many tasks',
				routing: { request: { method: 'GET', url: '/tasks' } },
			},
			{
				name: 'Reopen',
				value: 'reopen',
				description: 'Mark a completed task as open again. Returns the task with status "open".',
				action: 'Reopen a task',
				routing: { request: { method: 'POST', url: '/tasks/{taskId}/open' } },
			},
			{
				name: 'Update',
				value: 'update',
				description:
					'Change fields of a task; fields not given stay unchanged. Returns the updated task.',
				action: 'Update a task',
				routing: { request: { method: 'PATCH', url: '/tasks/{taskId}' } },
			},
		],
		default: 'getAll',
	},
	...create.description,
	...del.description,
	...getAll.description,
	...reopen.description,
	...update.description,
];
