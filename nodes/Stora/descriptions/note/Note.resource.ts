import type { INodeProperties } from 'n8n-workflow';

import * as create from './create.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as update from './update.operation';

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['note'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				description:
					'Attach a text note to a contact, unit, subscription or task. Returns the new note with its ID (note_...).',
				action: 'Create a note',
				routing: { request: { method: 'POST', url: '/notes' } },
			},
			{
				name: 'Get',
				value: 'get',
				description: 'Get a note by ID: its content, the record it annotates and who wrote it',
				action: 'Get a note',
				routing: { request: { method: 'GET', url: '/notes/{noteId}' } },
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description:
					'List notes, optionally only those on given records (contacts, units, subscriptions, tasks) or by given authors',
				action: 'Get many notes',
				routing: { request: { method: 'GET', url: '/notes' } },
			},
			{
				name: 'Update',
				value: 'update',
				description: 'Edit a note (its content, record or metadata). Returns the updated note.',
				action: 'Update a note',
				routing: { request: { method: 'PATCH', url: '/notes/{noteId}' } },
			},
		],
		default: 'getAll',
	},
	...create.description,
	...get.description,
	...getAll.description,
	...update.description,
];
