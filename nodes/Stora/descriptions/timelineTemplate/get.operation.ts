import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { recordDropdown } from '../common/records';

const properties: INodeProperties[] = [
	recordDropdown('timelineTemplate', { required: true, description: 'The timeline template' }),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['timelineTemplate'], operation: ['get'] } },
	properties,
);
