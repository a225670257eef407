import type { INodeProperties } from 'n8n-workflow';

import * as create from './create.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as lose from './lose.operation';
import * as reopen from './reopen.operation';
import * as update from './update.operation';
import * as win from './win.operation';

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['deal'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				description:
					'Create a deal (a potential order) for a contact, optionally in a pipeline stage, at a site, with a unit type. Returns the new deal with its ID (deal_...).',
				action: 'Create a deal',
				routing: { request: { method: 'POST', url: '/deals' } },
			},
			{
				name: 'Get',
				value: 'get',
				description:
					'Get a deal by ID: its contact, stage, status (open, won or lost), site and line items',
				action: 'Get a deal',
				routing: { request: { method: 'GET', url: '/deals/{dealId}' } },
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description:
					'List deals, optionally filtered by status, contact, site, stage, assignee, name search, dates or metadata',
				action: 'Get many deals',
				routing: { request: { method: 'GET', url: '/deals' } },
			},
			{
				name: 'Lose',
				value: 'lose',
				description:
					'Mark an open deal as lost, with the reason. Returns the deal with status "lost".',
				action: 'Lose a deal',
				routing: { request: { method: 'POST', url: '/deals/{dealId}/lose' } },
			},
			{
				name: 'Reopen',
				value: 'reopen',
				description:
					'Reopen a won or lost deal, optionally into another stage or for another assignee. Returns the deal with status "open".',
				action: 'Reopen a deal',
				routing: { request: { method: 'POST', url: '/deals/{dealId}/reopen' } },
			},
			{
				name: 'Update',
				value: 'update',
				description:
					'Change fields of a deal; fields not given stay unchanged. Returns the updated deal.',
				action: 'Update a deal',
				routing: { request: { method: 'PATCH', url: '/deals/{dealId}' } },
			},
			{
				name: 'Win',
				value: 'win',
				description: 'Mark an open deal as won. Returns the deal with status "won".',
				action: 'Win a deal',
				routing: { request: { method: 'POST', url: '/deals/{dealId}/win' } },
			},
		],
		default: 'getAll',
	},
	...create.description,
	...get.description,
	...getAll.description,
	...lose.description,
	...reopen.description,
	...update.description,
	...win.description,
];
