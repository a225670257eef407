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

const EXPAND = ['contact', 'site', 'subscription', 'tenancy'];

const properties: INodeProperties[] = [
	...returnAllAndLimit(),
	filtersCollection([
		multiValueFilter('Collection Status', 'collectionStatus', 'collection_status', [
			'pending',
			'overdue',
			'collected',
			'not_collected',
		]),
		idListFilter('contact', { description: 'Only invoices of these contacts.' }),
		...dateRangeFilters(['created', 'due']),
		idListFilter('site', { description: 'Only invoices of these sites.' }),
		multiValueFilter('Status', 'status', 'status', [
			'draft',
			'deleted',
			'open',
			'paid',
			'uncollectible',
			'void',
		]),
		idListFilter('subscription', { description: 'Only invoices of these subscriptions.' }),
		idListFilter('tenancy', { description: 'Only invoices of these tenancies.' }),
		multiValueFilter('Type', 'type', 'type', ['subscription', 'ad_hoc', 'deposit']),
		...dateRangeFilters(['updated']),
	]),
	optionsCollection([
		expandOption(EXPAND),
		...sortOptions(['created_at', 'due_date', 'updated_at']),
	]),
	...outputFormat(),
	simplifyToggle(),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['invoice'], operation: ['getAll'] } },
	properties,
);
