import {
	expandOption,
	optionsCollection,
	outputFormat,
	resourceLocator,
	returnAllAndLimit,
	showFor,
	sortOptions,
	type ResourceDefinition,
} from '../shared/descriptions';

const getMany = showFor('tenancy', ['getAll']);
const EXPAND = ['contact', 'order', 'site', 'subscription', 'unit_allocations'];

const properties: ResourceDefinition['properties'] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['tenancy'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				description:
					'Get a tenancy (a storage agreement between a contact and the operator at a site) by ID. Returns its contact, site, order, subscription, unit allocations and start and end dates.',
				action: 'Get a tenancy',
				routing: { request: { method: 'GET' } },
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description:
					'List tenancies. Returns one item per tenancy; an active tenancy has no end date or one in the future.',
				action: 'Get many tenancies',
				routing: { request: { method: 'GET', url: '/tenancies' } },
			},
		],
		default: 'getAll',
	},
	resourceLocator({
		name: 'tenancyId',
		displayName: 'Tenancy',
		prefix: 'ten_',
		searchListMethod: 'searchTenancies',
		url: '/tenancies/{id}',
		displayOptions: showFor('tenancy', ['get']),
	}),
	...returnAllAndLimit(getMany),
	optionsCollection(getMany, [expandOption(EXPAND), ...sortOptions(['created_at'])]),
	optionsCollection(showFor('tenancy', ['get']), [expandOption(EXPAND)]),
	...outputFormat(getMany),
];

export const tenancyResource: ResourceDefinition = {
	option: { name: 'Tenancy', value: 'tenancy' },
	properties,
};
