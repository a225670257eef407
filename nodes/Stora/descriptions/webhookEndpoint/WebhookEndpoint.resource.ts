import type { INodeProperties } from 'n8n-workflow';

import { API_VERSION } from '../../helpers/constants';
import * as create from './create.operation';
import * as del from './delete.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as update from './update.operation';

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['webhookEndpoint'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				description:
					'Register an HTTPS URL that Stora sends the chosen webhook events to. Returns the new endpoint including its signing secret (64 hex characters): this is the only time the secret is returned, so store it to verify signatures.',
				action: 'Create a webhook endpoint',
				routing: {
					request: {
						method: 'POST',
						url: '/webhook_endpoints',
						body: { api_version: API_VERSION },
					},
				},
			},
			{
				name: 'Delete',
				value: 'delete',
				description:
					'Delete a webhook endpoint: Stora stops sending events to it. Returns deleted: true and the ID.',
				action: 'Delete a webhook endpoint',
				routing: {
					request: {
						method: 'DELETE',
						url: '/webhook_endpoints/{webhookEndpointId}',
					},
				},
			},
			{
				name: 'Get',
				value: 'get',
				description:
					'Get a webhook endpoint by ID. Returns its name, URL, event types and status; the signing secret is not returned (null).',
				action: 'Get a webhook endpoint',
				routing: {
					request: { method: 'GET', url: '/webhook_endpoints/{webhookEndpointId}' },
				},
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description:
					'List webhook endpoints, optionally filtered by status or metadata. Returns one item per endpoint.',
				action: 'Get many webhook endpoints',
				routing: { request: { method: 'GET', url: '/webhook_endpoints' } },
			},
			{
				name: 'Update',
				value: 'update',
				description:
					'Change the name, description, URL, event types, status or metadata of a webhook endpoint. Returns the updated endpoint (secret null).',
				action: 'Update a webhook endpoint',
				routing: {
					request: {
						method: 'PATCH',
						url: '/webhook_endpoints/{webhookEndpointId}',
					},
				},
			},
		],
		default: 'getAll',
	},
	...create.description,
	...del.description,
	...get.description,
	...getAll.description,
	...update.description,
];
