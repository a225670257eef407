import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { dateRangeFilters, filtersCollection } from '../common/filters';
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
			displayName: 'Name Search',
			name: 'search',
			type: 'string',
			default: '',
			description: 'Fuzzy search on the site name (a beta feature of the API)',
			routing: { send: { type: 'query', property: 'search' } },
		},
	]),
	optionsCollection(sortOptions(['created_at', 'name', 'updated_at'])),
	...outputFormat(),
	simplifyToggle(),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['site'], operation: ['getAll'] } },
	properties,
);
