import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { recordDropdown } from '../common';

const properties: INodeProperties[] = [
	recordDropdown('timelineTemplate', { name: 'templateId', required: true, description: 'The timeline template' }),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['timelineTemplate'], operation: ['get'] } },
	properties,
);
