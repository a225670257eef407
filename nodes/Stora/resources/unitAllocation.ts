import {
	expandOption,
	filtersCollection,
	idListFilter,
	optionsCollection,
	outputFormat,
	resourceLocator,
	returnAllAndLimit,
	showFor,
	sortOptions,
	type ResourceDefinition,
} from '../shared/descriptions';

const getMany = showFor('unitAllocation', ['getAll']);
const EXPAND = ['tenancy', 'unit'];

const properties: ResourceDefinition['properties'] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['unitAllocation'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				description:
					'Get a unit allocation (the assignment of a unit to a tenancy) by ID. Returns its unit, tenancy and when the unit was reserved and access was granted.',
				action: 'Get a unit allocation',
				routing: { request: { method: 'GET' } },
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description:
					'List unit allocations, optionally filtered by contact, tenancy, unit or site (e.g. which units a contact holds). Returns one item per allocation.',
				action: 'Get many unit allocations',
				routing: { request: { method: 'GET', url: '/unit_allocations' } },
			},
		],
		default: 'getAll',
	},
	resourceLocator({
		name: 'unitAllocationId',
		displayName: 'Unit Allocation',
		prefix: 'alloc_',
		searchListMethod: 'searchUnitAllocations',
		url: '/unit_allocations/{id}',
		displayOptions: showFor('unitAllocation', ['get']),
	}),
	...returnAllAndLimit(getMany),
	filtersCollection(getMany, [
		idListFilter({
			displayName: 'Contact IDs',
			name: 'contactIds',
			queryName: 'contact_id',
			prefix: 'con_',
			description: "Only allocations of these contacts' tenancies.",
		}),
		idListFilter({
			displayName: 'Site Names or IDs',
			name: 'siteIds',
			queryName: 'site_id',
			prefix: 'site_',
			loadOptionsMethod: 'getSites',
			description: 'Only allocations of units at these sites.',
		}),
		idListFilter({
			displayName: 'Tenancy IDs',
			name: 'tenancyIds',
			queryName: 'tenancy_id',
			prefix: 'ten_',
			description: 'Only allocations of these tenancies.',
		}),
		idListFilter({
			displayName: 'Unit IDs',
			name: 'unitIds',
			queryName: 'unit_id',
			prefix: 'unit_',
			description: 'Only allocations of these units.',
		}),
	]),
	optionsCollection(getMany, [expandOption(EXPAND), ...sortOptions(['created_at'])]),
	optionsCollection(showFor('unitAllocation', ['get']), [expandOption(EXPAND)]),
	...outputFormat(getMany),
];

export const unitAllocationResource: ResourceDefinition = {
	option: { name: 'Unit Allocation', value: 'unitAllocation' },
	properties,
};
