import type { INodeProperties } from 'n8n-workflow';

import * as getInfo from './getInfo.operation';
import * as introspect from './introspect.operation';

// The OAuth endpoints live beside the versioned API, not under /2025-09.
const unversionedBaseUrl = '={{$credentials.baseUrl.replace(/\\/+$/, "")}}';

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
				routing: { request: { method: 'GET', baseURL: unversionedBaseUrl, url: '/oauth2/token/info' } },
			},
			{
				name: 'Introspect',
				value: 'introspect',
				description:
					'Check whether an OAuth2 access token is active, with its scope, client and timestamps. Returns active: false for an unknown, expired or revoked token.',
				action: 'Introspect an access token',
				routing: { request: { method: 'POST', baseURL: unversionedBaseUrl, url: '/oauth2/introspect' } },
			},
		],
		default: 'getInfo',
	},
	...getInfo.description,
	...introspect.description,
];
