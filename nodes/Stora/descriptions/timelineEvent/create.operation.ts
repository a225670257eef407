import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { fieldsCollection } from '../common/bodies';
import { expandOption, optionsCollection } from '../common/getMany';
import { locator, recordDropdown } from '../common/records';
import { TIMELINE_EVENT_EXPAND, timelineEventFields, timelineVariablesField } from './fields';

const properties: INodeProperties[] = [
	recordDropdown('timelineSource', {
		name: 'timelineEventTimelineSourceId',
		property: 'source',
		required: true,
		description: 'The system the event comes from',
	}),
	recordDropdown('timelineTemplate', {
		name: 'timelineEventTimelineTemplateId',
		property: 'template',
		required: true,
		description: 'The message template; it says which links and variables the event needs',
	}),
	locator('contact', {
		name: 'timelineEventContactId',
		required: false,
		send: {
			type: 'body',
			property: 'contact',
			value: '={{ $value ? { id: $value } : undefined }}',
		},
		description: 'The contact whose timeline shows the event (needed by most templates)',
	}),
	timelineVariablesField('variables'),
	fieldsCollection('additionalFields', timelineEventFields('additionalFields', false)),
	optionsCollection([expandOption(TIMELINE_EVENT_EXPAND)]),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['timelineEvent'], operation: ['create'] } },
	properties,
);
