import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { filtersCollection, metadataFilter, multiValueFilter } from '../common/filters';
import {
	expandOption,
	optionsCollection,
	outputFormat,
	returnAllAndLimit,
	sortOptions,
} from '../common/getMany';

const properties: INodeProperties[] = [
	...returnAllAndLimit(),
	filtersCollection([
		metadataFilter(),
		multiValueFilter('Status', 'status', 'status', ['disabled', 'enabled']),
	]),
	optionsCollection([expandOption(['creator']), ...sortOptions(['created_at'])]),
	...outputFormat(),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['webhookEndpoint'], operation: ['getAll'] } },
	properties,
);
