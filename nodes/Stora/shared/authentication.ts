import type { INodeProperties } from 'n8n-workflow';

/**
 * The credential choice shared by the Stora and Stora Trigger nodes. n8n picks the credential whose displayOptions
 * match this parameter, and the transport reads it to call the API with the same one.
 */
export const authenticationProperty: INodeProperties = {
	displayName: 'Authentication',
	name: 'authentication',
	type: 'options',
	options: [
		{ name: 'Access Token', value: 'accessToken' },
		{ name: 'OAuth2', value: 'oAuth2' },
	],
	default: 'accessToken',
};
