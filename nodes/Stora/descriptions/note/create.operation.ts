import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { fieldsCollection, metadataBodyField } from '../common/bodies';
import { noteContentField, noteRecordField } from './fields';

const properties: INodeProperties[] = [
	noteContentField(true, 'Text of the note'),
	noteRecordField(
		'noteRecordId',
		true,
		'ID of the contact (con_), unit (unit_), subscription (sub_) or task (task_) the note is about',
	),
	fieldsCollection('additionalFields', [metadataBodyField('additionalFields')]),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['note'], operation: ['create'] } },
	properties,
);
