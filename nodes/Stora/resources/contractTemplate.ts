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

const getMany = showFor('contractTemplate', ['getAll']);

const properties: ResourceDefinition['properties'] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['contractTemplate'] } },
		options: [
			{
				name: 'Get Many',
				value: 'getAll',
				description:
					'List contract templates (the reusable blueprints contracts and orders are generated from), with their ID and name',
				action: 'Get many contract templates',
				routing: { request: { method: 'GET', url: '/contract_templates' } },
			},
		],
		default: 'getAll',
	},
	...returnAllAndLimit(getMany),
	filtersCollection(getMany, dateWindows(['created', 'updated'])),
	optionsCollection(getMany, sortOptions(['created_at', 'name', 'updated_at'])),
	...outputFormat(getMany),
];

export const contractTemplateResource: ResourceDefinition = {
	option: { name: 'Contract Template', value: 'contractTemplate' },
	properties,
};
