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

const getMany = showFor('product', ['getAll']);

const properties: ResourceDefinition['properties'] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['product'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				description:
					'Get a product (a sellable item such as a padlock, boxes or a service) by ID. Returns its name, category, site, charge type and prices per billing period.',
				action: 'Get a product',
				routing: { request: { method: 'GET' } },
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'List products, newest first. Returns one item per product.',
				action: 'Get many products',
				routing: { request: { method: 'GET', url: '/products' } },
			},
			{
				name: 'Set Base Price',
				value: 'setBasePrice',
				description:
					'Set the base price of a product for one or more billing periods (amounts in minor units). Prices of other periods are kept. Returns the product with its prices.',
				action: 'Set the base price of a product',
				routing: { request: { method: 'POST' } },
			},
		],
		default: 'getAll',
	},
	resourceLocator({
		name: 'productId',
		displayName: 'Product',
		prefix: 'prod_',
		searchListMethod: 'searchProducts',
		url: '/products/{id}',
		actions: { setBasePrice: '/base_price' },
		displayOptions: showFor('product', ['get', 'setBasePrice']),
	}),
	basePriceRows(showFor('product', ['setBasePrice'])),
	optionsCollection(showFor('product', ['setBasePrice']), [expandOption(['category', 'site'])]),
	...returnAllAndLimit(getMany),
	...outputFormat(getMany),
	simplifyToggle({
		...showFor('product', ['get', 'getAll', 'setBasePrice']),
		hide: { outputFormat: ['csv'] },
	}),
];

export const productResource: ResourceDefinition = {
	option: { name: 'Product', value: 'product' },
	properties,
	simplifiedFields: ['id', 'name', 'sku', 'category', 'charge_type', 'prices', 'site'],
};
