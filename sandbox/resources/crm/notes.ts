/** Notes on a contact, unit, subscription or task: list, create, get, update. */
import type { ApiRecord, Ref, ResourceModule, SandboxCore } from '../../core/types';
import type { Schema } from '../../core/validate';
import {
	CREATED,
	daysAgo,
	nowIso,
	present,
	refAt,
	requireRef,
	TIME_WINDOWS,
	validate,
	withMergedMetadata,
} from './shared';

export const NOTE_RESOURCE_PREFIXES = ['con_', 'unit_', 'sub_', 'task_'];

const FIELDS: Schema = {
	content: { type: 'string', minLength: 1 },
	resource: { type: 'ref', prefix: '' },
	metadata: { type: 'metadata' },
};
const CREATE: Schema = {
	...FIELDS,
	content: { type: 'string', minLength: 1, required: true },
	resource: { type: 'ref', prefix: '', required: true },
};

export function buildNote(
	core: SandboxCore,
	id: string,
	fields: Record<string, unknown>,
	at = nowIso(core),
): ApiRecord {
	return {
		id,
		content: fields.content as string,
		creator: (fields.creator as Ref | null | undefined) ?? null,
		metadata: (fields.metadata as Record<string, unknown> | undefined) ?? {},
		resource: fields.resource as Ref,
		created_at: at,
		updated_at: at,
	};
}

export const notesModule: ResourceModule = {
	register(api) {
		api.collection({ name: 'notes', key: 'note', prefix: 'note_', scope: 'note' });

		api.route(
			'GET',
			'/2025-09/notes',
			{ scopes: ['public.note:read'], formats: ['text/csv'] },
			(ctx) =>
				ctx.sandbox.list(ctx, 'notes', ctx.sandbox.all('notes'), {
					sortBy: ['created_at', 'updated_at'],
					filters: { resource_id: { field: 'resource.id' }, creator_id: { field: 'creator.id' } },
					windows: TIME_WINDOWS,
					metadata: true,
				}),
		);

		api.route('POST', '/2025-09/notes', { scopes: ['public.note:write'] }, (ctx) => {
			const core = ctx.sandbox;
			const body = validate(ctx.body, CREATE);
			const resource = requireRef(core, body.resource, NOTE_RESOURCE_PREFIXES, '/resource');
			const record = core.insert(
				'notes',
				buildNote(core, core.newId('note_'), {
					...body,
					resource: { id: resource.id },
					creator: ctx.caller.creator,
				}),
			);
			return core.single(ctx, 'notes', record, CREATED);
		});

		api.route('GET', '/2025-09/notes/:note_id', { scopes: ['public.note:read'] }, (ctx) =>
			ctx.sandbox.single(ctx, 'notes', ctx.sandbox.mustGet('notes', ctx.params.note_id)),
		);

		api.route('PATCH', '/2025-09/notes/:note_id', { scopes: ['public.note:write'] }, (ctx) => {
			const core = ctx.sandbox;
			const existing = core.mustGet('notes', ctx.params.note_id);
			const body = validate(ctx.body, FIELDS);
			const changes = withMergedMetadata(existing, present(body, Object.keys(FIELDS)));
			if ('resource' in changes)
				changes.resource = {
					id: requireRef(core, body.resource, NOTE_RESOURCE_PREFIXES, '/resource').id,
				};
			return core.single(ctx, 'notes', core.update('notes', ctx.params.note_id, changes));
		});
	},
};

/** Demo seed: a note on each of contacts 0..9, two on tasks 0 and 1. */
export function seedNotes(
	core: SandboxCore,
	contacts: ApiRecord[],
	tasks: ApiRecord[],
	staff: ApiRecord[],
) {
	for (let i = 0; i < 12; i++) {
		const onTask = i >= 10;
		const created = daysAgo(core, 40 - i * 3, 14, i * 4);
		const fields = {
			content: onTask
				? `Progress update on "${tasks[i - 10].title as string}"`
				: `Spoke with ${contacts[i].full_name as string} about their storage needs.`,
			resource: onTask ? { id: tasks[i - 10].id } : refAt(contacts, i),
			creator: refAt(staff, i),
			metadata: i % 4 === 0 ? { channel: 'phone' } : {},
		};
		core.insert('notes', buildNote(core, core.newId('note_'), fields, created));
	}
}
