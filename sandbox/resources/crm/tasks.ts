/** Tasks: list, create, update, open (reopen a completed task), delete. Status values: `open`, `completed`. */
import { conflict } from '../../core/errors';
import type { ApiRecord, Ref, ResourceModule, SandboxCore } from '../../core/types';
import type { Schema } from '../../core/validate';
import {
	CREATED,
	daysAgo,
	later,
	nowIso,
	optionalRef,
	present,
	refAt,
	TIME_WINDOWS,
	validate,
	withMergedMetadata,
} from './shared';

export const TASK_STATUSES = ['open', 'completed'];
/** What a task may be linked to (`resource`). */
export const TASK_RESOURCE_PREFIXES = [
	'con_',
	'unit_',
	'sub_',
	'ten_',
	'deal_',
	'order_',
	'inv_',
	'site_',
];

const FIELDS: Schema = {
	title: { type: 'string', minLength: 1 },
	description: { type: 'string', nullable: true },
	due_at: { type: 'string', format: 'date-time', nullable: true },
	site: { type: 'ref', prefix: 'site_', nullable: true },
	assignee: { type: 'ref', prefix: 'staff_', nullable: true },
	resource: { type: 'ref', prefix: '', nullable: true },
	metadata: { type: 'metadata' },
};
const CREATE: Schema = { ...FIELDS, title: { type: 'string', minLength: 1, required: true } };

export function buildTask(
	core: SandboxCore,
	id: string,
	fields: Record<string, unknown>,
	at = nowIso(core),
): ApiRecord {
	return {
		id,
		title: fields.title as string,
		description: (fields.description as string | null | undefined) ?? null,
		assignee: (fields.assignee as Ref | null | undefined) ?? null,
		creator: (fields.creator as Ref | null | undefined) ?? null,
		resource: (fields.resource as Ref | null | undefined) ?? null,
		site: (fields.site as Ref | null | undefined) ?? null,
		status: (fields.status as string | undefined) ?? 'open',
		due_at: (fields.due_at as string | null | undefined) ?? null,
		completed_at: (fields.completed_at as string | null | undefined) ?? null,
		metadata: (fields.metadata as Record<string, unknown> | undefined) ?? {},
		created_at: at,
		updated_at: at,
	};
}

function resolveRefs(
	core: SandboxCore,
	body: Record<string, unknown>,
	changes: Record<string, unknown>,
) {
	if ('site' in changes) changes.site = optionalRef(core, body.site, ['site_'], '/site');
	if ('assignee' in changes)
		changes.assignee = optionalRef(core, body.assignee, ['staff_'], '/assignee');
	if ('resource' in changes)
		changes.resource = optionalRef(core, body.resource, TASK_RESOURCE_PREFIXES, '/resource');
}

export const tasksModule: ResourceModule = {
	register(api) {
		api.collection({ name: 'tasks', key: 'task', prefix: 'task_', scope: 'task' });

		api.route(
			'GET',
			'/2025-09/tasks',
			{ scopes: ['public.task:read'], formats: ['text/csv'] },
			(ctx) =>
				ctx.sandbox.list(ctx, 'tasks', ctx.sandbox.all('tasks'), {
					sortBy: ['created_at', 'updated_at', 'due_at'],
					filters: {
						status: { field: 'status', values: TASK_STATUSES },
						assignee_id: { field: 'assignee.id', unspecified: true },
						site_id: { field: 'site.id', unspecified: true },
						resource_id: { field: 'resource.id' },
					},
					windows: { ...TIME_WINDOWS, due: 'due_at' },
					metadata: true,
					search: { param: 'search', fields: ['title', 'description'] },
				}),
		);

		api.route('POST', '/2025-09/tasks', { scopes: ['public.task:write'] }, (ctx) => {
			const core = ctx.sandbox;
			const body = validate(ctx.body, CREATE);
			const fields = present(body, Object.keys(CREATE));
			resolveRefs(core, body, fields);
			const record = core.insert(
				'tasks',
				buildTask(core, core.newId('task_'), { ...fields, creator: ctx.caller.creator }),
			);
			return core.single(ctx, 'tasks', record, CREATED);
		});

		api.route('PATCH', '/2025-09/tasks/:task_id', { scopes: ['public.task:write'] }, (ctx) => {
			const core = ctx.sandbox;
			const existing = core.mustGet('tasks', ctx.params.task_id);
			const body = validate(ctx.body, FIELDS);
			const changes = withMergedMetadata(existing, present(body, Object.keys(FIELDS)));
			resolveRefs(core, body, changes);
			return core.single(ctx, 'tasks', core.update('tasks', ctx.params.task_id, changes));
		});

		api.route('POST', '/2025-09/tasks/:task_id/open', { scopes: ['public.task:write'] }, (ctx) => {
			const core = ctx.sandbox;
			const task = core.mustGet('tasks', ctx.params.task_id);
			if (task.status === 'open') throw conflict(`Task ${task.id} is already open`);
			return core.single(
				ctx,
				'tasks',
				core.update('tasks', task.id, { status: 'open', completed_at: null }),
			);
		});

		api.route('DELETE', '/2025-09/tasks/:task_id', { scopes: ['public.task:write'] }, (ctx) => {
			const core = ctx.sandbox;
			const task = core.mustGet('tasks', ctx.params.task_id);
			core.remove('tasks', task.id);
			return core.success(ctx, `Task ${task.id} deleted`);
		});
	},
};

/** Demo seed: 10 tasks on contacts; completed ones are 2, 5, 7, 9; task 9 is unassigned. */
export function seedTasks(
	core: SandboxCore,
	contacts: ApiRecord[],
	staff: ApiRecord[],
): ApiRecord[] {
	const titles = [
		'Call back about a larger unit',
		'Send quote for 10x10',
		'Chase unsigned contract',
		'Book a viewing',
		'Check insurance details',
		'Confirm move-in date',
		'Follow up on overdue invoice',
		'Update company details',
		'Arrange key collection',
		'Welcome call',
	];
	return titles.map((title, i) => {
		const created = daysAgo(core, 30 - i * 2, 9 + (i % 7));
		const completed = [2, 5, 7, 9].includes(i);
		const record = buildTask(
			core,
			core.newId('task_'),
			{
				title,
				description:
					i % 2 === 0 ? `<p>${title} for ${contacts[i * 3].full_name as string}.</p>` : null,
				assignee: i === 9 ? null : refAt(staff, i),
				creator: refAt(staff, i + 1),
				resource: refAt(contacts, i * 3),
				status: completed ? 'completed' : 'open',
				due_at: i === 4 ? null : daysAgo(core, 10 - i * 2, 17),
				completed_at: completed ? later(created, 26) : null,
				metadata: i % 3 === 0 ? { priority: 'high' } : {},
			},
			created,
		);
		record.updated_at = completed ? (record.completed_at as string) : created;
		return core.insert('tasks', record);
	});
}
