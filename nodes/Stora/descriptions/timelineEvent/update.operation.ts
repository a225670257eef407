import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { fieldsCollection } from '../common/bodies';
import { locator } from '../common/records';
import { timelineEventFields } from './fields';

const properties: INodeProperties[] = [
	locator('timelineEvent', {
		description: 'ID of the timeline event (aevt_...), as returned when it was created',
	}),
	fieldsCollection('updateFields', timelineEventFields('updateFields', true)),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['timelineEvent'], operation: ['update'] } },
	properties,
);
