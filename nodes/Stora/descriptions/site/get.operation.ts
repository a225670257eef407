import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { locator, simplifyToggle } from '../common';

const properties: INodeProperties[] = [locator('site'), simplifyToggle()];

export const description = updateDisplayOptions({ show: { resource: ['site'], operation: ['get'] } }, properties);
