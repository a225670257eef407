/** The fields of Note Create and Update: what the note is about, and its text. */
import type { INodeProperties } from 'n8n-workflow';

import type { RecordKind } from '../../helpers/records';
import { linkedRecordField } from '../common/records';

/** What a note can annotate: a contact, unit, subscription or task. */
export const NOTE_ANNOTATED: RecordKind[] = ['contact', 'unit', 'subscription', 'task'];

/**
 * A note's record (`resource.id`): what the note is about. `path` is the parameter's full path; the parameter is named
 * by its last part (`noteRecordId` at the top level, `resourceId` in Update Fields).
 */
export function noteRecordField(
	path: string,
	required: boolean,
	description: string,
): INodeProperties {
	return linkedRecordField({
		displayName: 'Record ID',
		name: path.split('.').pop() as string,
		path,
		property: 'resource.id',
		kinds: NOTE_ANNOTATED,
		required,
		description,
	});
}

/** A note's text. */
export function noteContentField(required: boolean, description: string): INodeProperties {
	return {
		displayName: 'Content',
		name: 'content',
		type: 'string',
		typeOptions: { rows: 4 },
		default: '',
		...(required ? { required: true } : {}),
		description,
		routing: { send: { type: 'body', property: 'content' } },
	};
}
