import type { INodeProperties } from 'n8n-workflow';

import * as get from './get.operation';
import * as getAll from './getAll.operation';

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['identityVerification'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				description:
					"Get an identity verification (a check of a contact's identity) by ID: its contact, status and error code",
				action: 'Get an identity verification',
				routing: {
					request: {
						method: 'GET',
						url: '/identity_verifications/{identityVerificationId}',
					},
				},
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'List identity verifications, optionally for given contacts or statuses',
				action: 'Get many identity verifications',
				routing: { request: { method: 'GET', url: '/identity_verifications' } },
			},
		],
		default: 'getAll',
	},
	...get.description,
	...getAll.description,
];
