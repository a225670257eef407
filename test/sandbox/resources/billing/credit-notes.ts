/** Credit notes: list and get (JSON or `Accept: application/pdf`). */
import type { ApiRecord, ResourceModule } from '../../core/types';
import { arr, obj, refId, registerReadable } from './shared';

function creditNotePdf(note: ApiRecord) {
	return {
		title: `Credit note ${String(note.number)}`,
		lines: [
			`Invoice: ${refId(note.invoice) ?? '-'}  Contact: ${refId(note.contact) ?? '-'}`,
			`Status: ${String(note.status)}  Type: ${String(note.type)}  Reason: ${String(note.reason)}`,
			...arr(note.line_items).map((l) => `${String(obj(l).description)}  ${String(obj(obj(l).amount).formatted ?? '')}`),
			`Total: ${String(obj(note.total).formatted ?? '')}`,
		],
	};
}

export const creditNotes: ResourceModule = {
	register(api) {
		registerReadable(
			api,
			{ name: 'credit_notes', key: 'credit_note', prefix: 'cred_', scope: 'credit_note' },
			{ path: 'credit_notes', param: 'credit_note_id', spec: { sortBy: ['created_at'] }, pdf: creditNotePdf },
		);
	},
};
