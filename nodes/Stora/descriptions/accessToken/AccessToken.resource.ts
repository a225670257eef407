import type { INodeProperties } from 'n8n-workflow';

import * as getInfo from './getInfo.operation';
import * as introspect from './introspect.operation';

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['accessToken'] } },
		options: [
			{
				name: 'Get Info',
				value: 'getInfo',
				description:
					'Get what the token this credential uses may do: its scopes, expiry, application and operator. Useful to find out which scope is missing.',
				action: 'Get info about the current token',
				// The OAuth endpoints live beside the versioned API: the transport sends /oauth2/... to the Base URL
				// itself. Not a baseURL expression: n8n 1.x evaluates an option's routing without $credentials.
				routing: { request: { method: 'GET', url: '/oauth2/token/info' } },
			},
			{
				name: 'Introspect',
				value: 'introspect',
				description:
					'Check whether an OAuth2 access token is active, with its scope, client and timestamps. Returns active: false for an unknown, expired or revoked token.',
				action: 'Introspect an access token',
				routing: { request: { method: 'POST', url: '/oauth2/introspect' } },
			},
		],
		default: 'getInfo',
	},
	...getInfo.description,
	...introspect.description,
];
