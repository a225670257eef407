import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	dateRangeFilters,
	filtersCollection,
	idListFilter,
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

const EXPAND = ['contact', 'contract_template', 'tenancy'];
const STATUSES = ['pending', 'signed', 'voided', 'declined', 'deleted'];

const properties: INodeProperties[] = [
	...returnAllAndLimit(),
	filtersCollection([
		idListFilter('contact', { description: 'Only contracts of these contacts.' }),
		idListFilter('contractTemplate', {
			description: 'Only contracts generated from these templates.',
		}),
		...dateRangeFilters(['created', 'sent', 'signed', 'updated']),
		multiValueFilter('Status', 'status', 'status', STATUSES),
		idListFilter('tenancy', { description: 'Only contracts of these tenancies.' }),
	]),
	optionsCollection([
		expandOption(EXPAND),
		...sortOptions(['created_at', 'sent_at', 'signed_at', 'updated_at']),
	]),
	...outputFormat(),
	simplifyToggle(),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['contract'], operation: ['getAll'] } },
	properties,
);
