import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	expandOption,
	fieldsCollection,
	locator,
	optionsCollection,
	recordDropdown,
	TIMELINE_EVENT_EXPAND,
	timelineEventFields,
	timelineVariablesField,
} from '../common';

const properties: INodeProperties[] = [
	recordDropdown('timelineSource', {
		name: 'sourceId',
		property: 'source',
		required: true,
		description: 'The system the event comes from',
	}),
	recordDropdown('timelineTemplate', {
		name: 'eventTemplateId',
		property: 'template',
		required: true,
		description: 'The message template; it says which links and variables the event needs',
	}),
	locator('contact', {
		name: 'eventContactId',
		required: false,
		send: { type: 'body', property: 'contact', value: '={{ $value ? { id: $value } : undefined }}' },
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
