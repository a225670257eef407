import type { ICredentialType, INodeProperties } from 'n8n-workflow';

import { baseUrlField } from './baseUrlField';
import { rateLimitFields } from './rateLimitFields';

// Kept in sync with nodes/Stora/helpers/scopes.ts DEFAULT_SCOPES and OPTIONAL_SCOPES (a test checks both):
// credentials cannot import node code.
const DEFAULT_SCOPES =
	'public.contact:read public.contact:write public.contract:read public.contract_template:read public.coupon:read public.credit_note:read public.deal:read public.deal:write public.deal_stage:read public.identity_verification:read public.invoice:read public.note:read public.note:write public.order:read public.order:write public.product:read public.product:write public.product_category:read public.protection_level:read public.protection_level:write public.site:read public.staff:read public.subscription:read public.task:read public.task:write public.tenancy:read public.timeline_event:write public.timeline_source:read public.unit:read public.unit:write public.unit_allocation:read public.unit_type:read public.unit_type:write public.webhook_endpoint:read';

// Scopes the docs do not show, so the default does not ask for them (an unknown scope can fail the token request).
const OPTIONAL_SCOPES =
	'public.opportunity:write (Opportunity: Associate / Disassociate Deal), public.price_adjustment:write (Price Adjustment: Update), public.price_adjustment:skip_notifications (Price Adjustment: Update with Skip Notification), public.timeline_template:read (Timeline Template, and the Template list of Timeline Event) and public.webhook_endpoint:write (Webhook Endpoint: Create, Update, Delete, and the Stora Trigger)';

export class StoraOAuth2Api implements ICredentialType {
	name = 'storaOAuth2Api';

	extends = ['oAuth2Api'];

	displayName = 'Stora OAuth2 API';

	icon = { light: 'file:../icons/stora.svg', dark: 'file:../icons/stora.dark.svg' } as const;

	documentationUrl = 'https://www.npmjs.com/package/n8n-nodes-stora#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'Grant Type',
			name: 'grantType',
			type: 'options',
			options: [
				{
					name: 'Authorization Code',
					value: 'authorizationCode',
					description: 'A partner app that an operator approves in the browser',
				},
				{
					name: 'Client Credentials',
					value: 'clientCredentials',
					description: "The operator's own server-to-server application",
				},
			],
			default: 'authorizationCode',
		},
		baseUrlField(
			'Address of the Stora Public API, without the version. Tokens are requested from <Base URL>/oauth2/token.',
		),
		{
			displayName: 'Authorization URL',
			name: 'authUrl',
			type: 'string',
			default: 'https://public-api.stora.co/oauth2/authorize',
			description: 'The consent page the operator approves your app on',
			displayOptions: { show: { grantType: ['authorizationCode'] } },
		},
		{
			displayName: 'Access Token URL',
			name: 'accessTokenUrl',
			type: 'hidden',
			default: '={{$self["baseUrl"].replace(/\\/+$/, "")}}/oauth2/token',
		},
		{
			displayName: 'Use PKCE',
			name: 'usePkce',
			type: 'boolean',
			default: true,
			description: 'Whether to protect the authorization code with PKCE (S256)',
			displayOptions: { show: { grantType: ['authorizationCode'] } },
		},
		{
			displayName: 'Scope',
			name: 'scope',
			type: 'string',
			default: DEFAULT_SCOPES,
			description: `Space-separated scopes to request. The default holds every scope in Stora's docs that the Stora nodes use; remove what your workflows do not need. Add these only if a workflow needs them and your Stora app has them: ${OPTIONAL_SCOPES}.`,
		},
		{
			displayName: 'Auth URI Query Parameters',
			name: 'authQueryParameters',
			type: 'hidden',
			default: '',
		},
		{
			// Stora expects client_id and client_secret in the token request body.
			displayName: 'Authentication',
			name: 'authentication',
			type: 'hidden',
			default: 'body',
		},
		...rateLimitFields,
	];
}
