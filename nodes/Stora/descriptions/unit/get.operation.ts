import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { expandOption, optionsCollection } from '../common/getMany';
import { locator } from '../common/records';

const EXPAND = ['site', 'unit_allocation', 'unit_type'];

const properties: INodeProperties[] = [locator('unit'), optionsCollection([expandOption(EXPAND)])];

export const description = updateDisplayOptions(
	{ show: { resource: ['unit'], operation: ['get'] } },
	properties,
);
