import {
	outputFormat,
	resourceLocator,
	returnAllAndLimit,
	showFor,
	type ResourceDefinition,
} from '../shared/descriptions';

const getMany = showFor('productCategory', ['getAll']);

const properties: ResourceDefinition['properties'] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['productCategory'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				description: 'Get a product category (a classification of products) by ID. Returns its ID and name.',
				action: 'Get a product category',
				routing: { request: { method: 'GET' } },
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'List product categories. Returns one item per category with its ID and name.',
				action: 'Get many product categories',
				routing: { request: { method: 'GET', url: '/product_categories' } },
			},
		],
		default: 'getAll',
	},
	resourceLocator({
		name: 'productCategoryId',
		displayName: 'Product Category',
		prefix: 'pcat_',
		searchListMethod: 'searchProductCategories',
		url: '/product_categories/{id}',
		displayOptions: showFor('productCategory', ['get']),
	}),
	...returnAllAndLimit(getMany),
	...outputFormat(getMany),
];

export const productCategoryResource: ResourceDefinition = {
	option: { name: 'Product Category', value: 'productCategory' },
	properties,
};
