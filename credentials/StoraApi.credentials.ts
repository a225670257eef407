import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

import { rateLimitFields } from './rateLimitFields';

export class StoraApi implements ICredentialType {
	name = 'storaApi';

	displayName = 'Stora API';

	icon = { light: 'file:../icons/stora.svg', dark: 'file:../icons/stora.dark.svg' } as const;

	documentationUrl = 'https://docs.stora.co/2025-09/';

	properties: INodeProperties[] = [
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: 'https://public-api.stora.co',
			description:
				'Address of the Stora Public API, without the version. Point it at the sandbox (for example http://127.0.0.1:4010) to try workflows without Stora data.',
		},
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

	// A function rather than n8n's generic `=Bearer {{$credentials.accessToken}}`: n8n evaluates that expression in its
	// expression sandbox on every request, about 1 ms of CPU each (measured: 1,000 updates, 1.2 s).
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		return {
			...requestOptions,
			headers: { ...requestOptions.headers, Authorization: `Bearer ${String(credentials.accessToken ?? '')}` },
		};
	}

	// Listing one site is the cheapest call every useful token can make (site dropdowns need it).
	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "")}}/2025-09',
			url: '/sites',
			qs: { limit: 1 },
		},
		rules: [
			{
				type: 'responseCode',
				properties: {
					value: 401,
					message:
						'Stora rejected the access token (invalid, revoked or expired). Generate a new one in BackOffice → Settings → Public API and paste it here.',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 403,
					message:
						'The access token is valid but lacks the scope public.site:read, which this credential test and the site dropdowns need. Add the scope to the token in BackOffice → Settings → Public API.',
				},
			},
			// n8n's connection test does not retry: say that these answers are about Stora right now, not the token.
			{
				type: 'responseCode',
				properties: {
					value: 429,
					message:
						'Stora is rate limiting this account right now (too many requests), so the token could not be checked. Wait a minute and test again.',
				},
			},
			...[500, 502, 503, 504].map((value) => ({
				type: 'responseCode' as const,
				properties: {
					value,
					message: `Stora answered the connection test with HTTP ${value} (a temporary server error), so the token could not be checked. Test again in a moment.`,
				},
			})),
		],
	};
}
