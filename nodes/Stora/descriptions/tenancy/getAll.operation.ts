import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	expandOption,
	optionsCollection,
	outputFormat,
	returnAllAndLimit,
	sortOptions,
} from '../common/getMany';

const EXPAND = ['contact', 'order', 'site', 'subscription', 'unit_allocations'];

const properties: INodeProperties[] = [
	...returnAllAndLimit(),
	optionsCollection([expandOption(EXPAND), ...sortOptions(['created_at'])]),
	...outputFormat(),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['tenancy'], operation: ['getAll'] } },
	properties,
);
