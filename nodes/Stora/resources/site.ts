import {
	dateWindows,
	filtersCollection,
	optionsCollection,
	outputFormat,
	resourceLocator,
	returnAllAndLimit,
	showFor,
	simplifyToggle,
	sortOptions,
	type ResourceDefinition,
} from '../shared/descriptions';

const getMany = showFor('site', ['getAll']);

const properties: ResourceDefinition['properties'] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['site'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				description: 'Get a site (a physical storage location) by ID',
				action: 'Get a site',
				routing: { request: { method: 'GET' } },
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'List sites, optionally filtered by name and creation or update time',
				action: 'Get many sites',
				routing: { request: { method: 'GET', url: '/sites' } },
			},
		],
		default: 'getAll',
	},
	resourceLocator({
		name: 'siteId',
		displayName: 'Site',
		prefix: 'site_',
		searchListMethod: 'searchSites',
		url: '/sites/{id}',
		displayOptions: showFor('site', ['get']),
	}),
	...returnAllAndLimit(getMany),
	filtersCollection(getMany, [
		...dateWindows(['created', 'updated']),
		{
			displayName: 'Name Search',
			name: 'search',
			type: 'string',
			default: '',
			description: 'Fuzzy search on the site name (a beta feature of the API)',
			routing: { send: { type: 'query', property: 'search' } },
		},
	]),
	optionsCollection(getMany, sortOptions(['created_at', 'name', 'updated_at'])),
	...outputFormat(getMany),
	simplifyToggle(showFor('site', ['get', 'getAll'])),
];

export const siteResource: ResourceDefinition = {
	option: { name: 'Site', value: 'site' },
	properties,
	simplifiedFields: ['id', 'name', 'address', 'phone', 'opened_at', 'created_at', 'updated_at'],
};
