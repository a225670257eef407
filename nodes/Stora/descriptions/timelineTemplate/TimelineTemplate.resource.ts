import type { INodeProperties } from 'n8n-workflow';

import * as get from './get.operation';
import * as getAll from './getAll.operation';

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['timelineTemplate'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				description:
					'Get a timeline template by ID: its message and its variables (predefined ones are links such as contact or site that an event must carry; custom ones are free values)',
				action: 'Get a timeline template',
				routing: {
					request: { method: 'GET', url: '/timeline/templates/{timelineTemplateId}' },
				},
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description:
					'List the message templates timeline events can use, with their message and variables',
				action: 'Get many timeline templates',
				routing: { request: { method: 'GET', url: '/timeline/templates' } },
			},
		],
		default: 'getAll',
	},
	...get.description,
	...getAll.description,
];
