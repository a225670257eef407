import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { fieldsCollection, metadataBodyField } from '../common/bodies';
import { locator } from '../common/records';
import { noteContentField, noteRecordField } from './fields';

const properties: INodeProperties[] = [
	locator('note'),
	fieldsCollection('updateFields', [
		noteContentField(false, 'New text of the note'),
		metadataBodyField('updateFields'),
		noteRecordField(
			'updateFields.resourceId',
			false,
			'Move the note to another record: ID of a contact (con_), unit (unit_), subscription (sub_) or task (task_)',
		),
	]),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['note'], operation: ['update'] } },
	properties,
);
