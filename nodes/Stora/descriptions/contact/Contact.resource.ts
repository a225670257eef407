import type { INodeProperties } from 'n8n-workflow';

import * as create from './create.operation';
import * as del from './delete.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as update from './update.operation';

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['contact'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				description:
					'Create a contact (it starts as a lead). Needs an email address; returns the new contact with its ID (con_...).',
				action: 'Create a contact',
				routing: { request: { method: 'POST', url: '/contacts' } },
			},
			{
				name: 'Delete',
				value: 'delete',
				description:
					'Delete a contact. Only a lead without invoices can be deleted; a customer, a churned contact or one with invoices is refused with a conflict error. Returns deleted: true, the ID of the contact and the message of the API.',
				action: 'Delete a contact',
				routing: { request: { method: 'DELETE', url: '/contacts/{contactId}' } },
			},
			{
				name: 'Get',
				value: 'get',
				description:
					'Get a contact (a person or company that enquires, books and pays) by ID, with its status (lead, customer or churned)',
				action: 'Get a contact',
				routing: { request: { method: 'GET', url: '/contacts/{contactId}' } },
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description:
					'List contacts, optionally filtered by email, fuzzy search on name/email/phone, type, source, status, dates or metadata',
				action: 'Get many contacts',
				routing: { request: { method: 'GET', url: '/contacts' } },
			},
			{
				name: 'Update',
				value: 'update',
				description:
					'Change fields of a contact; fields not given stay unchanged. Returns the updated contact.',
				action: 'Update a contact',
				routing: { request: { method: 'PATCH', url: '/contacts/{contactId}' } },
			},
		],
		default: 'getAll',
	},
	...create.description,
	...del.description,
	...get.description,
	...getAll.description,
	...update.description,
];
