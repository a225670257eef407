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
	sortOptions,
} from '../common/getMany';

/** Values seen in the docs (the enum is cut off there). */
const STATUSES = ['failed', 'processing', 'succeeded'];

const properties: INodeProperties[] = [
	...returnAllAndLimit(),
	filtersCollection([
		idListFilter('contact', { description: 'Only verifications of these contacts.' }),
		...dateRangeFilters(['created', 'updated']),
		multiValueFilter('Status', 'status', 'status', STATUSES),
	]),
	optionsCollection([expandOption(['contact']), ...sortOptions(['created_at', 'updated_at'])]),
	...outputFormat(),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['identityVerification'], operation: ['getAll'] } },
	properties,
);
