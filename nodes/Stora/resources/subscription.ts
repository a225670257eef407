import {
	expandOption,
	optionsCollection,
	outputFormat,
	resourceLocator,
	returnAllAndLimit,
	showFor,
	simplifyToggle,
	type ResourceDefinition,
} from '../shared/descriptions';

const getMany = showFor('subscription', ['getAll']);

const properties: ResourceDefinition['properties'] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['subscription'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				description:
					'Get a subscription (a recurring billing agreement) by ID. Returns its billing period, current period, contact, site, tenancy, recurring line items and whether it is cancelled.',
				action: 'Get a subscription',
				routing: { request: { method: 'GET' } },
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'List subscriptions, newest first. Returns one item per subscription.',
				action: 'Get many subscriptions',
				routing: { request: { method: 'GET', url: '/subscriptions' } },
			},
		],
		default: 'getAll',
	},
	resourceLocator({
		name: 'subscriptionId',
		displayName: 'Subscription',
		prefix: 'sub_',
		searchListMethod: 'searchSubscriptions',
		url: '/subscriptions/{id}',
		displayOptions: showFor('subscription', ['get']),
	}),
	optionsCollection(showFor('subscription', ['get']), [expandOption(['contact', 'line_items.item', 'order', 'site', 'tenancy'])]),
	...returnAllAndLimit(getMany),
	...outputFormat(getMany),
	simplifyToggle({
		...showFor('subscription', ['get', 'getAll']),
		hide: { outputFormat: ['csv'] },
	}),
];

export const subscriptionResource: ResourceDefinition = {
	option: { name: 'Subscription', value: 'subscription' },
	properties,
	simplifiedFields: [
		'id',
		'billing_period',
		'cancelled',
		'contact',
		'site',
		'tenancy',
		'current_period',
		'starts_at',
		'ends_at',
	],
};
