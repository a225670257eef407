import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	optionsCollection,
	outputFormat,
	returnAllAndLimit,
	simplifyToggle,
	sortOptions,
} from '../common/getMany';

const properties: INodeProperties[] = [
	...returnAllAndLimit(),
	optionsCollection(sortOptions(['created_at'])),
	...outputFormat(),
	simplifyToggle(),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['protectionLevel'], operation: ['getAll'] } },
	properties,
);
