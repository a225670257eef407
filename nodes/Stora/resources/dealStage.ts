import {
	dateWindows,
	filtersCollection,
	optionsCollection,
	outputFormat,
	returnAllAndLimit,
	showFor,
	sortOptions,
	type ResourceDefinition,
} from '../shared/descriptions';
import { checkIdPrefix } from '../shared/validation';

const getMany = showFor('dealStage', ['getAll']);

const properties: ResourceDefinition['properties'] = [
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
				routing: { request: { method: 'GET' } },
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
	{
		displayName: 'Stage Name or ID',
		name: 'stageId',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getDealStages' },
		default: '',
		required: true,
		description:
			'The deal stage. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		displayOptions: showFor('dealStage', ['get']),
		routing: {
			request: { url: '=/deals/stages/{{ encodeURIComponent($value) }}' },
			send: { preSend: [checkIdPrefix('stageId', 'Stage', 'dstg_')] },
		},
	},
	...returnAllAndLimit(getMany),
	filtersCollection(getMany, dateWindows(['created', 'updated'])),
	optionsCollection(getMany, sortOptions(['created_at', 'position', 'updated_at'])),
	...outputFormat(getMany),
];

export const dealStageResource: ResourceDefinition = {
	option: { name: 'Deal Stage', value: 'dealStage' },
	properties,
};
