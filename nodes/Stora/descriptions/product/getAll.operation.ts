import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { outputFormat, returnAllAndLimit, simplifyToggle } from '../common/getMany';

const properties: INodeProperties[] = [...returnAllAndLimit(), ...outputFormat(), simplifyToggle()];

export const description = updateDisplayOptions(
	{ show: { resource: ['product'], operation: ['getAll'] } },
	properties,
);
