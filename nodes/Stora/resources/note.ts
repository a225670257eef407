import type { INodeProperties } from 'n8n-workflow';

import {
	dateWindows,
	filtersCollection,
	metadataBodyField,
	metadataFilter,
	optionsCollection,
	outputFormat,
	resourceLocator,
	returnAllAndLimit,
	showFor,
	sortOptions,
	type ResourceDefinition,
} from '../shared/descriptions';
import { checkIdPrefixes } from '../shared/validation';
import { crmExpand } from './deal';

/** What a note can annotate: a contact, unit, subscription or task. */
const ANNOTATED = ['con_', 'unit_', 'sub_', 'task_'];
const getMany = showFor('note', ['getAll']);

function recordIdField(path: string, required: boolean): INodeProperties {
	return {
		displayName: 'Record ID',
		name: 'resourceId',
		type: 'string',
		default: '',
		required,
		placeholder: 'con_a1b2c3',
		description: 'ID of the contact (con_), unit (unit_), subscription (sub_) or task (task_) the note is about',
		routing: {
			send: {
				type: 'body',
				property: 'resource.id',
				value: '={{ String($value).trim() }}',
				preSend: [checkIdPrefixes(path, 'Record ID', ANNOTATED)],
			},
		},
	};
}

const contentField = (required: boolean): INodeProperties => ({
	displayName: 'Content',
	name: 'content',
	type: 'string',
	typeOptions: { rows: 4 },
	default: '',
	required,
	description: 'Text of the note',
	routing: { send: { type: 'body', property: 'content' } },
});

const properties: ResourceDefinition['properties'] = [
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
				routing: { request: { method: 'GET' } },
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
				routing: { request: { method: 'PATCH' } },
			},
		],
		default: 'getAll',
	},
	resourceLocator({
		name: 'noteId',
		displayName: 'Note',
		prefix: 'note_',
		searchListMethod: 'searchNotes',
		url: '/notes/{id}',
		displayOptions: showFor('note', ['get', 'update']),
	}),

	// Create
	{ ...contentField(true), displayOptions: showFor('note', ['create']) },
	{
		...recordIdField('resourceId', true),
		displayOptions: showFor('note', ['create']),
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: showFor('note', ['create']),
		options: [metadataBodyField('additionalFields')],
	},

	// Update
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: showFor('note', ['update']),
		options: [
			{ ...contentField(false), description: 'New text of the note' },
			metadataBodyField('updateFields'),
			{
				...recordIdField('updateFields.resourceId', false),
				description:
					'Move the note to another record: ID of a contact (con_), unit (unit_), subscription (sub_) or task (task_)',
			},
		],
	},

	// Get
	optionsCollection(showFor('note', ['get']), [crmExpand(['creator', 'resource'])]),

	// Get Many
	...returnAllAndLimit(getMany),
	filtersCollection(getMany, [
		{
			displayName: 'Author IDs',
			name: 'creatorId',
			type: 'string',
			default: '',
			placeholder: 'staff_a1b2c3',
			description: 'Only notes written by these staff members, applications or tokens (comma-separated IDs)',
			routing: { send: { type: 'query', property: 'creator_id' } },
		},
		...dateWindows(['created', 'updated']),
		metadataFilter(),
		{
			displayName: 'Record IDs',
			name: 'resourceId',
			type: 'string',
			default: '',
			placeholder: 'con_a1b2c3,task_d4e5f6',
			description: 'Only notes on these contacts, units, subscriptions or tasks (comma-separated IDs)',
			routing: { send: { type: 'query', property: 'resource_id' } },
		},
	]),
	optionsCollection(getMany, [crmExpand(['creator', 'resource']), ...sortOptions(['created_at', 'updated_at'])]),
	...outputFormat(getMany),
];

export const noteResource: ResourceDefinition = {
	option: { name: 'Note', value: 'note' },
	properties,
};
