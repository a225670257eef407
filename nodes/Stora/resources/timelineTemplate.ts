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

const getMany = showFor('timelineTemplate', ['getAll']);

const properties: ResourceDefinition['properties'] = [
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
				routing: { request: { method: 'GET' } },
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'List the message templates timeline events can use, with their message and variables',
				action: 'Get many timeline templates',
				routing: { request: { method: 'GET', url: '/timeline/templates' } },
			},
		],
		default: 'getAll',
	},
	{
		displayName: 'Template Name or ID',
		name: 'templateId',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getTimelineTemplates' },
		default: '',
		required: true,
		description:
			'The timeline template. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		displayOptions: showFor('timelineTemplate', ['get']),
		routing: {
			request: { url: '=/timeline/templates/{{ encodeURIComponent($value) }}' },
			send: { preSend: [checkIdPrefix('templateId', 'Template', 'aetpl_')] },
		},
	},
	...returnAllAndLimit(getMany),
	filtersCollection(getMany, dateWindows(['created', 'updated'])),
	optionsCollection(getMany, sortOptions(['created_at', 'updated_at'])),
	...outputFormat(getMany),
];

export const timelineTemplateResource: ResourceDefinition = {
	option: { name: 'Timeline Template', value: 'timelineTemplate' },
	properties,
};
