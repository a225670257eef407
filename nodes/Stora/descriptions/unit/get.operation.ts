import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { expandOption, locator, optionsCollection } from '../common';

const EXPAND = ['site', 'unit_allocation', 'unit_type'];

const properties: INodeProperties[] = [locator('unit'), optionsCollection([expandOption(EXPAND)])];

export const description = updateDisplayOptions({ show: { resource: ['unit'], operation: ['get'] } }, properties);
