import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { simplifyToggle } from '../common/getMany';
import { locator } from '../common/records';

const properties: INodeProperties[] = [locator('creditNote'), simplifyToggle()];

export const description = updateDisplayOptions(
	{ show: { resource: ['creditNote'], operation: ['get'] } },
	properties,
);
