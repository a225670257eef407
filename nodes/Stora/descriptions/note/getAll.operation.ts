import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	dateRangeFilters,
	filtersCollection,
	idListFilter,
	metadataFilter,
} from '../common/filters';
import {
	expandOption,
	optionsCollection,
	outputFormat,
	returnAllAndLimit,
	sortOptions,
} from '../common/getMany';
import { NOTE_ANNOTATED } from './fields';

const properties: INodeProperties[] = [
	...returnAllAndLimit(),
	filtersCollection([
		idListFilter(['staff', 'application', 'accessToken'], {
			displayName: 'Author IDs',
			name: 'creatorIds',
			queryName: 'creator_id',
			description: 'Only notes written by these staff members, applications or tokens.',
		}),
		...dateRangeFilters(['created', 'updated']),
		metadataFilter(),
		idListFilter(NOTE_ANNOTATED, {
			displayName: 'Record IDs',
			name: 'resourceIds',
			queryName: 'resource_id',
			description: 'Only notes on these contacts, units, subscriptions or tasks.',
		}),
	]),
	optionsCollection([
		expandOption(['creator', 'resource']),
		...sortOptions(['created_at', 'updated_at']),
	]),
	...outputFormat(),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['note'], operation: ['getAll'] } },
	properties,
);
