import type { INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { methods } from './methods';
import { resourceOptions, resourceProperties } from './resources';
import { authenticationProperty } from './shared/authentication';
import { API_VERSION } from './shared/constants';
import { executeStoraRequest } from './shared/execute';

export class Stora implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Stora',
		name: 'stora',
		icon: { light: 'file:../../icons/stora.svg', dark: 'file:../../icons/stora.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: 'Work with the Stora self-storage platform: sites, contacts, deals, orders, invoices and more',
		defaults: { name: 'Stora' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{ name: 'storaApi', required: true, displayOptions: { show: { authentication: ['accessToken'] } } },
			{ name: 'storaOAuth2Api', required: true, displayOptions: { show: { authentication: ['oAuth2'] } } },
		],
		requestDefaults: {
			baseURL: `={{$credentials.baseUrl.replace(/\\/+$/, "")}}/${API_VERSION}`,
			headers: { Accept: 'application/json' },
		},
		// Every request the descriptions build runs through one transport (retries, idempotency, errors, Return All).
		requestOperations: { pagination: executeStoraRequest },
		properties: [
			authenticationProperty,
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: resourceOptions,
				default: 'site',
				routing: { send: { paginate: true } },
			},
			...resourceProperties,
		],
	};

	methods = methods;
}
