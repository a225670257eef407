import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	expandOption,
	optionsCollection,
	outputFormat,
	returnAllAndLimit,
} from '../common/getMany';

// A product category is only an ID and a name in the docs: nothing to offer in a list, but `expand` is documented.
const properties: INodeProperties[] = [
	...returnAllAndLimit(),
	optionsCollection([expandOption([])]),
	...outputFormat(),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['productCategory'], operation: ['getAll'] } },
	properties,
);
