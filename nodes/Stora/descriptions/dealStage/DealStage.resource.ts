import type { INodeProperties } from 'n8n-workflow';

import * as get from './get.operation';
import * as getAll from './getAll.operation';

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['dealStage'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				description: 'Get a deal pipeline stage by ID: its name and position in the pipeline',
				action: 'Get a deal stage',
				routing: { request: { method: 'GET', url: '/deals/stages/{dealStageId}' } },
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description:
					'List the stages of the deal pipeline (ID, name, position); sort by position to get them in pipeline order',
				action: 'Get many deal stages',
				routing: { request: { method: 'GET', url: '/deals/stages' } },
			},
		],
		default: 'getAll',
	},
	...get.description,
	...getAll.description,
];
