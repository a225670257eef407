import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { dateRangeFilters, filtersCollection } from '../common/filters';
import { optionsCollection, outputFormat, returnAllAndLimit, sortOptions } from '../common/getMany';

const properties: INodeProperties[] = [
	...returnAllAndLimit(),
	filtersCollection(dateRangeFilters(['created', 'updated'])),
	optionsCollection(sortOptions(['created_at', 'updated_at'])),
	...outputFormat(),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['timelineTemplate'], operation: ['getAll'] } },
	properties,
);
