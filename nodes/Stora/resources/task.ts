import type { INodeProperties } from 'n8n-workflow';

import {
	dateWindows,
	EMPTY_AS_NULL,
	filtersCollection,
	ISO_DATE_TIME_OR_NULL,
	metadataBodyField,
	metadataFilter,
	multiValueFilter,
	optionsCollection,
	outputFormat,
	resourceLocator,
	returnAllAndLimit,
	showFor,
	simplifyToggle,
	sortOptions,
	type ResourceDefinition,
} from '../shared/descriptions';
import { checkDate, checkIdPrefixes } from '../shared/validation';
import { crmExpand, dropdownField, dropdownFilter, idField } from './deal';

/** What a task can be linked to. */
const LINKABLE = ['con_', 'unit_', 'sub_', 'ten_', 'deal_', 'order_', 'inv_', 'site_'];
const STATUSES = ['completed', 'open'];
const EXPAND = ['assignee', 'creator', 'resource', 'site'];
const getMany = showFor('task', ['getAll']);

/** The optional members of Create (Additional Fields) and Update (Update Fields). */
function taskFields(collection: string, update: boolean): INodeProperties[] {
	const path = (name: string) => `${collection}.${name}`;
	const clears = update ? ' Leave empty to clear it.' : '';
	return [
		idField({
			displayName: 'Assignee ID',
			name: 'assigneeId',
			path: path('assigneeId'),
			property: 'assignee',
			prefix: 'staff_',
			description: 'ID of the staff member the task is assigned to (staff_...)',
		}),
		{
			displayName: 'Description',
			name: 'description',
			type: 'string',
			typeOptions: { rows: 4 },
			default: '',
			description: `Details of the task (HTML allowed).${clears}`,
			routing: {
				send: { type: 'body', property: 'description', value: EMPTY_AS_NULL },
			},
		},
		{
			displayName: 'Due At',
			name: 'dueAt',
			type: 'dateTime',
			default: '',
			description: `When the task is due.${clears}`,
			routing: {
				send: {
					type: 'body',
					property: 'due_at',
					value: ISO_DATE_TIME_OR_NULL,
					preSend: [checkDate(path('dueAt'), 'Due At')],
				},
			},
		},
		{
			displayName: 'Linked Record ID',
			name: 'resourceId',
			type: 'string',
			default: '',
			placeholder: 'con_a1b2c3',
			description:
				'ID of the record the task is about: a contact (con_), unit (unit_), subscription (sub_), tenancy (ten_), deal (deal_), order (order_), invoice (inv_) or site (site_)',
			routing: {
				send: {
					type: 'body',
					property: 'resource.id',
					value: '={{ String($value).trim() }}',
					preSend: [checkIdPrefixes(path('resourceId'), 'Linked Record ID', LINKABLE)],
				},
			},
		},
		metadataBodyField(collection),
		dropdownField({
			displayName: 'Site Name or ID',
			label: 'Site',
			name: 'siteId',
			path: path('siteId'),
			property: 'site',
			prefix: 'site_',
			loadOptionsMethod: 'getSites',
			description: 'Site the task belongs to',
		}),
	];
}

const properties: ResourceDefinition['properties'] = [
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
				description: 'Delete a task. Returns deleted: true, the ID of the task and the message of the API.',
				action: 'Delete a task',
				routing: { request: { method: 'DELETE' } },
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
				routing: { request: { method: 'POST' } },
			},
			{
				name: 'Update',
				value: 'update',
				description: 'Change fields of a task; fields not given stay unchanged. Returns the updated task.',
				action: 'Update a task',
				routing: { request: { method: 'PATCH' } },
			},
		],
		default: 'getAll',
	},
	resourceLocator({
		name: 'taskId',
		displayName: 'Task',
		prefix: 'task_',
		searchListMethod: 'searchTasks',
		url: '/tasks/{id}',
		actions: { reopen: '/open' },
		displayOptions: showFor('task', ['delete', 'reopen', 'update']),
	}),

	// Create
	{
		displayName: 'Title',
		name: 'title',
		type: 'string',
		default: '',
		required: true,
		description: 'Short title of the task',
		displayOptions: showFor('task', ['create']),
		routing: { send: { type: 'body', property: 'title' } },
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: showFor('task', ['create']),
		options: taskFields('additionalFields', false),
	},

	// Update
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: showFor('task', ['update']),
		options: [
			...taskFields('updateFields', true),
			{
				displayName: 'Title',
				name: 'title',
				type: 'string',
				default: '',
				description: 'New title of the task',
				routing: { send: { type: 'body', property: 'title' } },
			},
		],
	},

	// Get Many
	...returnAllAndLimit(getMany),
	filtersCollection(getMany, [
		{
			displayName: 'Assignee IDs',
			name: 'assigneeId',
			type: 'string',
			default: '',
			placeholder: 'staff_a1b2c3,staff_d4e5f6',
			description:
				'Only tasks assigned to these staff members (comma-separated IDs; "unspecified" for unassigned tasks)',
			routing: { send: { type: 'query', property: 'assignee_id' } },
		},
		...dateWindows(['created', 'due', 'updated']),
		{
			displayName: 'Linked Record IDs',
			name: 'resourceId',
			type: 'string',
			default: '',
			placeholder: 'con_a1b2c3',
			description: 'Only tasks linked to these records (comma-separated IDs)',
			routing: { send: { type: 'query', property: 'resource_id' } },
		},
		metadataFilter(),
		{
			displayName: 'Search',
			name: 'search',
			type: 'string',
			default: '',
			description: 'Search in the title and description',
			routing: { send: { type: 'query', property: 'search' } },
		},
		dropdownFilter('Site Names or IDs', 'siteId', 'site_id', 'getSites', 'Only tasks at these sites'),
		multiValueFilter('Status', 'status', 'status', STATUSES),
	]),
	optionsCollection(getMany, [crmExpand(EXPAND), ...sortOptions(['created_at', 'due_at', 'updated_at'])]),
	...outputFormat(getMany),
	simplifyToggle(showFor('task', ['getAll'])),
];

export const taskResource: ResourceDefinition = {
	option: { name: 'Task', value: 'task' },
	properties,
	simplifiedFields: ['id', 'title', 'status', 'due_at', 'assignee', 'resource', 'site', 'completed_at', 'created_at'],
};
