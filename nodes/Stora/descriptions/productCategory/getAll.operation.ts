import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { outputFormat, returnAllAndLimit } from '../common';

const properties: INodeProperties[] = [...returnAllAndLimit(), ...outputFormat()];

export const description = updateDisplayOptions(
	{ show: { resource: ['productCategory'], operation: ['getAll'] } },
	properties,
);
