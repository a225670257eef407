import type { INodeProperties } from 'n8n-workflow';

import * as create from './create.operation';
import * as finalize from './finalize.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as validate from './validate.operation';

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['order'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				description:
					"Create an order (a contact's intent to rent storage at a site) as a draft, optionally with its contact, line items and coupon, or finalize it at once. Returns the order with its totals.",
				action: 'Create an order',
				routing: { request: { method: 'POST', url: '/orders' } },
			},
			{
				name: 'Finalize',
				value: 'finalize',
				description:
					'Finalize a draft order for payment. The order must pass validation. Returns the order with status finalized and the hosted checkout link in payment_url.',
				action: 'Finalize an order',
				routing: { request: { method: 'POST', url: '/orders/{orderId}/finalize' } },
			},
			{
				name: 'Get',
				value: 'get',
				description:
					'Get an order by ID. Returns its status, source, billing period, contact, site, start date, line item references and totals.',
				action: 'Get an order',
				routing: { request: { method: 'GET', url: '/orders/{orderId}' } },
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description:
					'List orders, newest first, filtered by contact, site, status, source, billing period, metadata or creation, update and start dates. Returns one item per order.',
				action: 'Get many orders',
				routing: { request: { method: 'GET', url: '/orders' } },
			},
			{
				name: 'Validate',
				value: 'validate',
				description:
					'Check whether an order is ready to be finalized. Returns the order when it is; otherwise fails with one problem per missing piece (start date, billing period, contact, a unit type line item).',
				action: 'Validate an order',
				routing: { request: { method: 'GET', url: '/orders/{orderId}/validate' } },
			},
		],
		default: 'getAll',
	},
	...create.description,
	...finalize.description,
	...get.description,
	...getAll.description,
	...validate.description,
];
