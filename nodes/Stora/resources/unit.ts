import {
	expandOption,
	filtersCollection,
	idListFilter,
	multiValueFilter,
	optionsCollection,
	outputFormat,
	resourceLocator,
	returnAllAndLimit,
	showFor,
	sortOptions,
	type ResourceDefinition,
} from '../shared/descriptions';

const getMany = showFor('unit', ['getAll']);
const EXPAND = ['site', 'unit_allocation', 'unit_type'];

/** The list filter's statuses. The API spells the overlocked status `overlock` in this filter. */
const statusFilter = multiValueFilter('Status', 'status', 'status', [
	'available',
	'occupied',
	'overlock',
	'repossessed',
	'reserved',
	'unavailable',
]);
statusFilter.options = (statusFilter.options ?? []).map((option) =>
	'value' in option && option.value === 'overlock' ? { ...option, name: 'Overlocked' } : option,
);

const properties: ResourceDefinition['properties'] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['unit'] } },
		options: [
			{
				name: 'Deallocate',
				value: 'deallocate',
				description:
					'Release a reserved or occupied unit from its tenancy so it becomes available again. Returns the updated unit.',
				action: 'Deallocate a unit',
				routing: { request: { method: 'POST' } },
			},
			{
				name: 'Get',
				value: 'get',
				description:
					'Get a unit (one bookable storage space) by ID. Returns its reference, site, unit type, status and current allocation.',
				action: 'Get a unit',
				routing: { request: { method: 'GET' } },
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description:
					'List units, optionally filtered by site, unit type and status (e.g. available units of a size at a site). Returns one item per unit.',
				action: 'Get many units',
				routing: { request: { method: 'GET', url: '/units' } },
			},
			{
				name: 'Grant Access',
				value: 'grantAccess',
				description:
					'Give a tenancy immediate access to a unit: the unit becomes occupied. A reserved unit must be reserved for the same tenancy. Returns the updated unit.',
				action: 'Grant access to a unit',
				routing: { request: { method: 'POST' } },
			},
			{
				name: 'Overlock',
				value: 'overlock',
				description:
					'Overlock every occupied unit of a contact (e.g. for unpaid rent). Returns success and a message saying how many units were overlocked.',
				action: 'Overlock the units of a contact',
				routing: { request: { method: 'POST', url: '/units/overlock' } },
			},
			{
				name: 'Remove Overlock',
				value: 'removeOverlock',
				description:
					'Remove the overlock from every overlocked unit of a contact. Returns success and a message saying how many units were released.',
				action: 'Remove the overlock from the units of a contact',
				routing: { request: { method: 'POST', url: '/units/remove_overlock' } },
			},
			{
				name: 'Reserve',
				value: 'reserve',
				description:
					'Reserve an available unit for a tenancy until move-in: the unit becomes reserved. Returns the updated unit.',
				action: 'Reserve a unit',
				routing: { request: { method: 'POST' } },
			},
		],
		default: 'getAll',
	},
	resourceLocator({
		name: 'unitId',
		displayName: 'Unit',
		prefix: 'unit_',
		searchListMethod: 'searchUnits',
		url: '/units/{id}',
		actions: {
			reserve: '/reserve',
			grantAccess: '/grant_access',
			deallocate: '/deallocate',
		},
		displayOptions: showFor('unit', ['deallocate', 'get', 'grantAccess', 'reserve']),
	}),
	resourceLocator({
		name: 'tenancyId',
		displayName: 'Tenancy',
		prefix: 'ten_',
		searchListMethod: 'searchTenancies',
		send: { type: 'body', property: 'tenancy_id' },
		description: "The active tenancy (at the unit's site) the unit is for",
		displayOptions: showFor('unit', ['grantAccess', 'reserve']),
	}),
	resourceLocator({
		name: 'contactId',
		displayName: 'Contact',
		prefix: 'con_',
		searchListMethod: 'searchContacts',
		send: { type: 'body', property: 'contact_id' },
		description: 'The contact whose units are overlocked or released',
		displayOptions: showFor('unit', ['overlock', 'removeOverlock']),
	}),
	...returnAllAndLimit(getMany),
	filtersCollection(getMany, [
		idListFilter({
			displayName: 'Site Names or IDs',
			name: 'siteIds',
			queryName: 'site_id',
			prefix: 'site_',
			loadOptionsMethod: 'getSites',
			description: 'Only units at these sites.',
		}),
		statusFilter,
		idListFilter({
			displayName: 'Unit Type Names or IDs',
			name: 'unitTypeIds',
			queryName: 'unit_type_id',
			prefix: 'utype_',
			loadOptionsMethod: 'getUnitTypes',
			description: 'Only units of these unit types.',
		}),
	]),
	optionsCollection(getMany, [expandOption(EXPAND), ...sortOptions(['created_at'])]),
	optionsCollection(showFor('unit', ['get']), [expandOption(EXPAND)]),
	...outputFormat(getMany),
];

export const unitResource: ResourceDefinition = {
	option: { name: 'Unit', value: 'unit' },
	properties,
};
