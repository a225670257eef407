/** The fields of Task Create and Update, and what a task can be linked to. */
import type { INodeProperties } from 'n8n-workflow';

import type { RecordKind } from '../../helpers/records';
import { EMPTY_AS_NULL, metadataBodyField } from '../common/bodies';
import { DATE_TIME_HINT, dateTimeSend } from '../common/dateTime';
import { idField, linkedRecordField, recordDropdown } from '../common/records';

/** What a task can be linked to. */
export const TASK_LINKABLE: RecordKind[] = [
	'contact',
	'unit',
	'subscription',
	'tenancy',
	'deal',
	'order',
	'invoice',
	'site',
];

/** The optional members of Task Create (Additional Fields) and Update (Update Fields). */
export function taskFields(collection: string, update: boolean): INodeProperties[] {
	const path = (name: string) => `${collection}.${name}`;
	const clears = update ? ' Leave empty to clear it.' : '';
	return [
		idField('staff', {
			displayName: 'Assignee ID',
			name: 'assigneeId',
			path: path('assigneeId'),
			property: 'assignee',
			description: 'ID of the staff member the task is assigned to (staff_...)',
		}),
		{
			displayName: 'Description',
			name: 'description',
			type: 'string',
			typeOptions: { rows: 4 },
			default: '',
			description: `Details of the task (HTML allowed).${clears}`,
			routing: { send: { type: 'body', property: 'description', value: EMPTY_AS_NULL } },
		},
		{
			displayName: 'Due At',
			name: 'dueAt',
			type: 'dateTime',
			default: '',
			builderHint: DATE_TIME_HINT,
			description: `When the task is due.${clears}`,
			routing: { send: dateTimeSend('body', 'due_at', path('dueAt'), 'Due At', true) },
		},
		linkedRecordField({
			displayName: 'Linked Record ID',
			name: 'resourceId',
			path: path('resourceId'),
			property: 'resource.id',
			kinds: TASK_LINKABLE,
			description:
				'ID of the record the task is about: a contact (con_), unit (unit_), subscription (sub_), tenancy (ten_), deal (deal_), order (order_), invoice (inv_) or site (site_)',
		}),
		metadataBodyField(collection),
		recordDropdown('site', {
			path: path('siteId'),
			property: 'site',
			description: 'Site the task belongs to',
		}),
	];
}
