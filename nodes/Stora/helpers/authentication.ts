import type { INodeCredentialDescription, INodeProperties } from 'n8n-workflow';

/**
 * The credential choice shared by the Stora, Stora Trigger and Stora Poll Trigger nodes. n8n picks the credential whose displayOptions
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
export function credentialTypeForAuthentication(authentication: unknown): CredentialType {
	return authentication === 'oAuth2' ? 'storaOAuth2Api' : 'storaApi';
}

/** The nodes' credentials, each shown for its Authentication value. */
export const storaCredentials: INodeCredentialDescription[] = [
	{
		name: 'storaApi',
		required: true,
		displayOptions: { show: { authentication: ['accessToken'] } },
	},
	{
		name: 'storaOAuth2Api',
		required: true,
		displayOptions: { show: { authentication: ['oAuth2'] } },
	},
];
