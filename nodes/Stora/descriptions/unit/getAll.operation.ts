import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { filtersCollection, idListFilter, multiValueFilter } from '../common/filters';
import {
	expandOption,
	optionsCollection,
	outputFormat,
	returnAllAndLimit,
	sortOptions,
} from '../common/getMany';

const EXPAND = ['site', 'unit_allocation', 'unit_type'];

const properties: INodeProperties[] = [
	...returnAllAndLimit(),
	filtersCollection([
		idListFilter('site', { description: 'Only units at these sites.' }),
		// The API spells the overlocked status `overlock` in this filter.
		multiValueFilter(
			'Status',
			'status',
			'status',
			['available', 'occupied', 'overlock', 'repossessed', 'reserved', 'unavailable'],
			{ overlock: 'Overlocked' },
		),
		idListFilter('unitType', { description: 'Only units of these unit types.' }),
	]),
	optionsCollection([expandOption(EXPAND), ...sortOptions(['created_at'])]),
	...outputFormat(),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['unit'], operation: ['getAll'] } },
	properties,
);
