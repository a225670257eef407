import {
	dateWindows,
	filtersCollection,
	multiValueFilter,
	optionsCollection,
	outputFormat,
	resourceLocator,
	returnAllAndLimit,
	showFor,
	sortOptions,
	type ResourceDefinition,
} from '../shared/descriptions';
import { crmExpand } from './deal';

/** Values seen in the docs (the enum is cut off there). */
const STATUSES = ['failed', 'processing', 'succeeded'];
const getMany = showFor('identityVerification', ['getAll']);

const properties: ResourceDefinition['properties'] = [
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
				routing: { request: { method: 'GET' } },
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
	resourceLocator({
		name: 'identityVerificationId',
		displayName: 'Identity Verification',
		prefix: 'idver_',
		searchListMethod: 'searchIdentityVerifications',
		url: '/identity_verifications/{id}',
		displayOptions: showFor('identityVerification', ['get']),
	}),
	optionsCollection(showFor('identityVerification', ['get']), [crmExpand(['contact'])]),

	// Get Many
	...returnAllAndLimit(getMany),
	filtersCollection(getMany, [
		{
			displayName: 'Contact IDs',
			name: 'contactId',
			type: 'string',
			default: '',
			placeholder: 'con_a1b2c3,con_d4e5f6',
			description: 'Only verifications of these contacts (comma-separated IDs)',
			routing: { send: { type: 'query', property: 'contact_id' } },
		},
		...dateWindows(['created', 'updated']),
		multiValueFilter('Status', 'status', 'status', STATUSES),
	]),
	optionsCollection(getMany, [crmExpand(['contact']), ...sortOptions(['created_at', 'updated_at'])]),
	...outputFormat(getMany),
];

export const identityVerificationResource: ResourceDefinition = {
	option: { name: 'Identity Verification', value: 'identityVerification' },
	properties,
};
