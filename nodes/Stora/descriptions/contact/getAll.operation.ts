import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	CONTACT_SOURCES,
	CONTACT_TYPES,
	MARKETING_SOURCES,
	USE_CASES,
} from '../../helpers/constants';
import {
	dateRangeFilters,
	filtersCollection,
	metadataFilter,
	multiValueFilter,
} from '../common/filters';
import {
	optionsCollection,
	outputFormat,
	returnAllAndLimit,
	simplifyToggle,
	sortOptions,
} from '../common/getMany';

const properties: INodeProperties[] = [
	...returnAllAndLimit(),
	filtersCollection([
		...dateRangeFilters(['created', 'updated']),
		{
			displayName: 'Email',
			name: 'email',
			type: 'string',
			default: '',
			placeholder: 'ann@example.com,bob@example.com',
			description: 'Only contacts with one of these exact email addresses (comma-separated)',
			routing: { send: { type: 'query', property: 'email' } },
		},
		multiValueFilter('Marketing Source', 'marketingSource', 'marketing_source', [
			...MARKETING_SOURCES,
			'unspecified',
		]),
		metadataFilter(),
		{
			displayName: 'Search',
			name: 'search',
			type: 'string',
			default: '',
			description: 'Fuzzy search on name, email or phone number (a beta feature of the API)',
			routing: { send: { type: 'query', property: 'search' } },
		},
		multiValueFilter('Source', 'source', 'source', [...CONTACT_SOURCES, 'unspecified']),
		{
			...multiValueFilter('Status', 'status', 'status', ['lead', 'customer', 'churned']),
			description:
				'Lead: no tenancies. Customer: at least one active tenancy. Churned: all tenancies have ended.',
		},
		multiValueFilter('Type', 'type', 'type', [...CONTACT_TYPES, 'unspecified']),
		multiValueFilter('Use Case', 'useCase', 'use_case', [...USE_CASES, 'unspecified']),
	]),
	optionsCollection(sortOptions(['created_at', 'full_name', 'updated_at'])),
	...outputFormat(),
	simplifyToggle(),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['contact'], operation: ['getAll'] } },
	properties,
);
