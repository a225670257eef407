import type { INodeProperties } from 'n8n-workflow';

import * as create from './create.operation';
import * as update from './update.operation';

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['timelineEvent'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				description:
					"Post a custom entry on a contact's timeline from an external system (a call, a gate access, ...), from a source and a message template. The template's predefined variables (e.g. contact, site, invoice) must be given as links, its custom variables as Template Variables. Returns the event with its ID (aevt_...).",
				action: 'Create a timeline event',
				routing: { request: { method: 'POST', url: '/timeline/events' } },
			},
			{
				name: 'Update',
				value: 'update',
				description:
					'Change a timeline event (its links, description, external link, source, template or variables). Returns the updated event.',
				action: 'Update a timeline event',
				routing: {
					request: { method: 'PATCH', url: '/timeline/events/{timelineEventId}' },
				},
			},
		],
		default: 'create',
	},
	...create.description,
	...update.description,
];
