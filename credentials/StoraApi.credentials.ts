import type { IAuthenticateGeneric, ICredentialType, INodeProperties } from 'n8n-workflow';

import { baseUrlField } from './baseUrlField';
import { rateLimitFields } from './rateLimitFields';

export class StoraApi implements ICredentialType {
	name = 'storaApi';

	displayName = 'Stora API';

	icon = { light: 'file:../icons/stora.svg', dark: 'file:../icons/stora.dark.svg' } as const;

	documentationUrl = 'https://www.npmjs.com/package/n8n-nodes-stora#credentials';

	properties: INodeProperties[] = [
		baseUrlField(
			'Address of the Stora Public API, without the version. Point it at the sandbox (for example http://127.0.0.1:4010) to try workflows without Stora data.',
		),
		{
			displayName: 'Access Token',
			name: 'accessToken',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			description:
				'Generated in Stora BackOffice under Settings → Public API. It is shown only once, when created.',
		},
		...rateLimitFields,
	];

	// A declared header, not a function: n8n's editor offers a credential in the HTTP Request node (Authentication →
	// Predefined Credential Type) only when it can read how the credential authenticates. The Stora nodes authenticate
	// through n8n the same way (httpRequestWithAuthentication).
	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: { headers: { Authorization: '=Bearer {{$credentials.accessToken}}' } },
	};

	// No `test` request here: the Stora node tests this credential with a function (its credentialTest method), whose
	// messages show on every supported n8n; n8n would run a `test` request instead of it.
}
