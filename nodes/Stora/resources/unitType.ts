import {
	basePriceRows,
	expandOption,
	optionsCollection,
	outputFormat,
	resourceLocator,
	returnAllAndLimit,
	showFor,
	simplifyToggle,
	type ResourceDefinition,
} from '../shared/descriptions';

const getMany = showFor('unitType', ['getAll']);
const EXPAND = ['promotion', 'site'];

const properties: ResourceDefinition['properties'] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['unitType'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				description:
					'Get a unit type (a standard storage offering at a site) by ID. Returns its name, size, dimensions, site, images and prices per billing period.',
				action: 'Get a unit type',
				routing: { request: { method: 'GET' } },
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'List unit types with their sites and prices. Returns one item per unit type.',
				action: 'Get many unit types',
				routing: { request: { method: 'GET', url: '/unit_types' } },
			},
			{
				name: 'Set Base Price',
				value: 'setBasePrice',
				description:
					'Set the base price of a unit type for one or more billing periods (amounts in minor units). Prices of other periods are kept. Returns the updated unit type with one price per period.',
				action: 'Set the base price of a unit type',
				routing: { request: { method: 'POST' } },
			},
		],
		default: 'getAll',
	},
	resourceLocator({
		name: 'unitTypeId',
		displayName: 'Unit Type',
		prefix: 'utype_',
		searchListMethod: 'searchUnitTypes',
		url: '/unit_types/{id}',
		actions: { setBasePrice: '/base_price' },
		displayOptions: showFor('unitType', ['get', 'setBasePrice']),
	}),
	basePriceRows(showFor('unitType', ['setBasePrice'])),
	...returnAllAndLimit(getMany),
	optionsCollection(showFor('unitType', ['get', 'setBasePrice']), [expandOption(EXPAND)]),
	...outputFormat(getMany),
	simplifyToggle(showFor('unitType', ['get', 'getAll', 'setBasePrice'])),
];

export const unitTypeResource: ResourceDefinition = {
	option: { name: 'Unit Type', value: 'unitType' },
	properties,
	simplifiedFields: ['id', 'name', 'site', 'size_description', 'status', 'prices', 'created_at', 'updated_at'],
};
