import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { BILLING_PERIODS } from '../../helpers/constants';
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
import { ORDER_EXPAND } from './fields';

const STATUSES = ['draft', 'finalized', 'completed', 'abandoned'];
const SOURCES = [
	'backoffice',
	'storefront',
	'storefront_multi_step',
	'import',
	'public_api',
	'unspecified',
];

const properties: INodeProperties[] = [
	...returnAllAndLimit(),
	filtersCollection([
		multiValueFilter('Billing Period', 'billingPeriod', 'billing_period', BILLING_PERIODS),
		idListFilter('contact', { description: 'Only orders of these contacts.' }),
		...dateRangeFilters(['created']),
		metadataFilter(),
		idListFilter('site', { description: 'Only orders at these sites.' }),
		multiValueFilter('Source', 'source', 'source', SOURCES),
		...dateRangeFilters(['starts']),
		multiValueFilter('Status', 'status', 'status', STATUSES),
		...dateRangeFilters(['updated']),
	]),
	optionsCollection([expandOption(ORDER_EXPAND), ...sortOptions(['created_at', 'updated_at'])]),
	...outputFormat(),
	simplifyToggle(),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['order'], operation: ['getAll'] } },
	properties,
);
