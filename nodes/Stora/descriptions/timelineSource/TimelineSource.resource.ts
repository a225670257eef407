import type { INodeProperties } from 'n8n-workflow';

import * as getAll from './getAll.operation';

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['timelineSource'] } },
		options: [
			{
				name: 'Get Many',
				value: 'getAll',
				description:
					'List timeline sources: the systems timeline events come from, global (shared by Stora) or your own. Returns ID, name, website URL and whether it is global.',
				action: 'Get many timeline sources',
				routing: { request: { method: 'GET', url: '/timeline/sources' } },
			},
		],
		default: 'getAll',
	},
	...getAll.description,
];
