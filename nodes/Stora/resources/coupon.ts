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

const getMany = showFor('coupon', ['getAll']);

const properties: ResourceDefinition['properties'] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['coupon'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				description:
					'Get a coupon (a reusable promotion reducing a price by a percentage or a fixed amount) by ID. Returns its type, percent or amount, code, duration and what it applies to automatically.',
				action: 'Get a coupon',
				routing: { request: { method: 'GET' } },
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description:
					'List coupons, newest first, optionally filtered by creation or update time. Returns one item per coupon.',
				action: 'Get many coupons',
				routing: { request: { method: 'GET', url: '/coupons' } },
			},
		],
		default: 'getAll',
	},
	resourceLocator({
		name: 'couponId',
		displayName: 'Coupon',
		prefix: 'cpn_',
		searchListMethod: 'searchCoupons',
		url: '/coupons/{id}',
		displayOptions: showFor('coupon', ['get']),
	}),
	...returnAllAndLimit(getMany),
	filtersCollection(getMany, dateWindows(['created', 'updated'])),
	optionsCollection(getMany, sortOptions(['created_at', 'updated_at'])),
	...outputFormat(getMany),
	simplifyToggle({
		...showFor('coupon', ['get', 'getAll']),
		hide: { outputFormat: ['csv'] },
	}),
];

export const couponResource: ResourceDefinition = {
	option: { name: 'Coupon', value: 'coupon' },
	properties,
	simplifiedFields: ['id', 'name', 'code', 'type', 'percent', 'amount', 'duration', 'months', 'public'],
};
