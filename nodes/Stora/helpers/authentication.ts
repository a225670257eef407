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

export type CredentialType = 'storaApi' | 'storaOAuth2Api';

/** The credential type an `authentication` value stands for (the nodes' credentials show on the same values). */
export function credentialTypeFor(authentication: unknown): CredentialType {
	return authentication === 'oAuth2' ? 'storaOAuth2Api' : 'storaApi';
}
