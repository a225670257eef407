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

const getMany = showFor('timelineSource', ['getAll']);

const properties: ResourceDefinition['properties'] = [
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
	...returnAllAndLimit(getMany),
	filtersCollection(getMany, dateWindows(['created', 'updated'])),
	optionsCollection(getMany, sortOptions(['created_at', 'updated_at'])),
	...outputFormat(getMany),
];

export const timelineSourceResource: ResourceDefinition = {
	option: { name: 'Timeline Source', value: 'timelineSource' },
	properties,
};
