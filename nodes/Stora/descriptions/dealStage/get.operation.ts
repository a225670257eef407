import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { recordDropdown } from '../common/records';

const properties: INodeProperties[] = [
	recordDropdown('dealStage', { required: true, description: 'The deal stage' }),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['dealStage'], operation: ['get'] } },
	properties,
);
