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
	LINE_ITEM_ITEMS,
	optionsCollection,
	outputFormat,
	returnAllAndLimit,
	simplifyToggle,
	sortOptions,
} from '../common/getMany';
import { DEAL_EXPAND } from './fields';

const properties: INodeProperties[] = [
	...returnAllAndLimit(),
	filtersCollection([
		idListFilter('staff', {
			displayName: 'Assignee IDs',
			name: 'assigneeIds',
			queryName: 'assignee_id',
			unspecified: true,
			description: 'Only deals owned by these staff members ("unspecified" for unassigned deals).',
		}),
		idListFilter('contact', { description: 'Only deals of these contacts.' }),
		...dateRangeFilters(['created', 'starts', 'updated']),
		metadataFilter(),
		{
			displayName: 'Name Search',
			name: 'search',
			type: 'string',
			default: '',
			description: 'Search on the deal name',
			routing: { send: { type: 'query', property: 'search' } },
		},
		idListFilter('site', {
			unspecified: true,
			description: 'Only deals at these sites ("unspecified" for deals without a site).',
		}),
		idListFilter('dealStage', {
			name: 'stageIds',
			queryName: 'stage_id',
			description: 'Only deals in these stages.',
		}),
		multiValueFilter('Status', 'status', 'status', ['open', 'won', 'lost']),
	]),
	optionsCollection([
		expandOption(DEAL_EXPAND, LINE_ITEM_ITEMS),
		...sortOptions(['created_at', 'starts_at', 'updated_at']),
	]),
	...outputFormat(),
	simplifyToggle(),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['deal'], operation: ['getAll'] } },
	properties,
);
