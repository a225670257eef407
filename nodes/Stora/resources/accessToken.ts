import { showFor, type ResourceDefinition } from '../shared/descriptions';

// The OAuth endpoints live beside the versioned API, not under /2025-09.
const unversionedBaseUrl = '={{$credentials.baseUrl.replace(/\\/+$/, "")}}';

const properties: ResourceDefinition['properties'] = [
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
	{
		displayName: 'Token To Check',
		name: 'token',
		type: 'string',
		typeOptions: { password: true },
		default: '',
		required: true,
		description: 'The access token to introspect',
		displayOptions: showFor('accessToken', ['introspect']),
		routing: { send: { type: 'body', property: 'token' } },
	},
];

export const accessTokenResource: ResourceDefinition = {
	option: { name: 'Access Token', value: 'accessToken' },
	properties,
};
