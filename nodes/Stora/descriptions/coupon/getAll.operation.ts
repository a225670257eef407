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
	filtersCollection(dateRangeFilters(['created', 'updated'])),
	optionsCollection(sortOptions(['created_at', 'updated_at'])),
	...outputFormat(),
	simplifyToggle(),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['coupon'], operation: ['getAll'] } },
	properties,
);
