import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { filtersCollection, idListFilter } from '../common/filters';
import {
	expandOption,
	optionsCollection,
	outputFormat,
	returnAllAndLimit,
	sortOptions,
} from '../common/getMany';

const EXPAND = ['tenancy', 'unit'];

const properties: INodeProperties[] = [
	...returnAllAndLimit(),
	filtersCollection([
		idListFilter('contact', { description: "Only allocations of these contacts' tenancies." }),
		idListFilter('site', { description: 'Only allocations of units at these sites.' }),
		idListFilter('tenancy', { description: 'Only allocations of these tenancies.' }),
		idListFilter('unit', { description: 'Only allocations of these units.' }),
	]),
	optionsCollection([expandOption(EXPAND), ...sortOptions(['created_at'])]),
	...outputFormat(),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['unitAllocation'], operation: ['getAll'] } },
	properties,
);
