import type { INodeProperties } from 'n8n-workflow';

/**
 * The account's rate limit, in both Stora credentials. Read by nodes/Stora/transport/account.ts credentialLimits:
 * keep the names in step.
 */
export const rateLimitFields: INodeProperties[] = [
	{
		displayName: 'Rate Limit',
		name: 'rateLimit',
		type: 'options',
		options: [
			{
				name: "Stora's Documented Default",
				value: 'documented',
				description: '10 requests per second and 60 per minute',
			},
			{
				name: 'Custom',
				value: 'custom',
				description: 'The limits of your Stora plan or agreement',
			},
		],
		default: 'documented',
		description:
			'How fast the Stora nodes may send requests for this account. All Stora nodes and triggers using this credential in one n8n process share it, and they slow down further when Stora announces lower limits or answers 429.',
	},
	{
		displayName: 'Requests per Second',
		name: 'requestsPerSecond',
		type: 'number',
		typeOptions: { minValue: 0, numberPrecision: 0 },
		default: 10,
		description:
			'0 for no limit per second. With 0 here and per minute, requests go at full speed (8 at a time) until Stora answers 429 or announces a limit, then at the documented limits or the announced ones.',
		displayOptions: { show: { rateLimit: ['custom'] } },
	},
	{
		displayName: 'Requests per Minute',
		name: 'requestsPerMinute',
		type: 'number',
		typeOptions: { minValue: 0, numberPrecision: 0 },
		default: 60,
		description: '0 for no limit per minute',
		displayOptions: { show: { rateLimit: ['custom'] } },
	},
];
