import {
	basePriceRows,
	optionsCollection,
	outputFormat,
	resourceLocator,
	returnAllAndLimit,
	showFor,
	simplifyToggle,
	sortOptions,
	type ResourceDefinition,
} from '../shared/descriptions';

const getMany = showFor('protectionLevel', ['getAll']);

const properties: ResourceDefinition['properties'] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['protectionLevel'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				description:
					'Get a protection level (optional cover for stored goods up to a coverage amount) by ID. Returns its cover level, prices per billing period and whether it is public.',
				action: 'Get a protection level',
				routing: { request: { method: 'GET' } },
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'List protection levels, newest first. Returns one item per protection level.',
				action: 'Get many protection levels',
				routing: { request: { method: 'GET', url: '/protection_levels' } },
			},
			{
				name: 'Set Base Price',
				value: 'setBasePrice',
				description:
					'Set the base price of a protection level for one or more billing periods (amounts in minor units). Prices of other periods are kept. Returns the protection level with its prices.',
				action: 'Set the base price of a protection level',
				routing: { request: { method: 'POST' } },
			},
		],
		default: 'getAll',
	},
	{
		displayName:
			'Stora has announced a breaking change to the protection level endpoints: protection levels are becoming site-scoped. Workflows that list or price protection levels may need a site once Stora releases the new API version; check Stora\'s changelog before relying on them.',
		name: 'protectionLevelNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { resource: ['protectionLevel'] } },
	},
	resourceLocator({
		name: 'protectionLevelId',
		displayName: 'Protection Level',
		prefix: 'plvl_',
		searchListMethod: 'searchProtectionLevels',
		url: '/protection_levels/{id}',
		actions: { setBasePrice: '/base_price' },
		displayOptions: showFor('protectionLevel', ['get', 'setBasePrice']),
	}),
	basePriceRows(showFor('protectionLevel', ['setBasePrice'])),
	...returnAllAndLimit(getMany),
	optionsCollection(getMany, sortOptions(['created_at'])),
	...outputFormat(getMany),
	simplifyToggle({
		...showFor('protectionLevel', ['get', 'getAll', 'setBasePrice']),
		hide: { outputFormat: ['csv'] },
	}),
];

export const protectionLevelResource: ResourceDefinition = {
	option: { name: 'Protection Level', value: 'protectionLevel' },
	properties,
	simplifiedFields: ['id', 'cover_level', 'prices', 'public', 'account_code'],
};
