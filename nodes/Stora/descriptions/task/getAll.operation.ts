import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	dateRangeFilters,
	filtersCollection,
	idListFilter,
	metadataFilter,
	multiValueFilter,
} from '../common/filters';
import {
	expandOption,
	optionsCollection,
	outputFormat,
	returnAllAndLimit,
	simplifyToggle,
	sortOptions,
} from '../common/getMany';
import { TASK_LINKABLE } from './fields';

const properties: INodeProperties[] = [
	...returnAllAndLimit(),
	filtersCollection([
		idListFilter('staff', {
			displayName: 'Assignee IDs',
			name: 'assigneeIds',
			queryName: 'assignee_id',
			unspecified: true,
			description:
				'Only tasks assigned to these staff members ("unspecified" for unassigned tasks).',
		}),
		...dateRangeFilters(['created', 'due', 'updated']),
		idListFilter(TASK_LINKABLE, {
			displayName: 'Linked Record IDs',
			name: 'resourceIds',
			queryName: 'resource_id',
			description: 'Only tasks linked to these records.',
		}),
		metadataFilter(),
		{
			displayName: 'Search',
			name: 'search',
			type: 'string',
			default: '',
			description: 'Search in the title and description',
			routing: { send: { type: 'query', property: 'search' } },
		},
		idListFilter('site', {
			unspecified: true,
			description: 'Only tasks at these sites ("unspecified" for tasks without a site).',
		}),
		multiValueFilter('Status', 'status', 'status', ['completed', 'open']),
	]),
	optionsCollection([
		expandOption(['assignee', 'creator', 'resource', 'site']),
		...sortOptions(['created_at', 'due_at', 'updated_at']),
	]),
	...outputFormat(),
	simplifyToggle(),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['task'], operation: ['getAll'] } },
	properties,
);
