import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { optionsCollection, outputFormat, returnAllAndLimit, sortOptions } from '../common/getMany';

// The stages list documents page, limit, sort_by and sort_direction only: no filters.
const properties: INodeProperties[] = [
	...returnAllAndLimit(),
	optionsCollection(sortOptions(['created_at', 'position', 'updated_at'])),
	...outputFormat(),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['dealStage'], operation: ['getAll'] } },
	properties,
);
