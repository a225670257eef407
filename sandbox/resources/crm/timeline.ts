/**
 * Timeline sources (list), templates (list/get) and events (create/update).
 *
 * A template's `variables.predefined` names the links an event must carry (`contact`, `site`, `invoice`,
 * `subscription`, `tenancy`, `unit`, `unit_type`); `variables.custom` names free values passed in the event's
 * `variables` map (not enforced). When an event has no `description`, it is rendered from the template's
 * Liquid-style `message`: `{{ name }}` and `{% if name %}…{% else %}…{% endif %}` (`global_context` is false).
 */
import { invalidContent } from '../../core/errors';
import type { ApiRecord, ErrorDetail, Ref, ResourceModule, SandboxCore } from '../../core/types';
import type { Schema } from '../../core/validate';
import {
	CREATED,
	daysAgo,
	nowIso,
	optionalRef,
	present,
	refAt,
	refId,
	requireRef,
	stringMapProblems,
	TIME_WINDOWS,
	validate,
} from './shared';

/** Event link fields and the prefix each accepts; these are the predefined template variables. */
export const EVENT_LINKS: Record<string, string> = {
	contact: 'con_',
	site: 'site_',
	invoice: 'inv_',
	subscription: 'sub_',
	tenancy: 'ten_',
	unit: 'unit_',
	unit_type: 'utype_',
};

const FIELDS: Schema = {
	source: { type: 'ref', prefix: 'tsrc_' },
	template: { type: 'ref', prefix: 'aetpl_' },
	...Object.fromEntries(
		Object.entries(EVENT_LINKS).map(([k, prefix]) => [
			k,
			{ type: 'ref' as const, prefix, nullable: true },
		]),
	),
	description: { type: 'string', nullable: true },
	external: {
		type: 'object',
		nullable: true,
		fields: {
			id: { type: 'string', required: true },
			url: { type: 'string', format: 'url', required: true },
		},
	},
	variables: { type: 'object', fields: {}, open: true },
};
const CREATE: Schema = {
	...FIELDS,
	source: { type: 'ref', prefix: 'tsrc_', required: true },
	template: { type: 'ref', prefix: 'aetpl_', required: true },
};

const variableProblems = (body: Record<string, unknown>): ErrorDetail[] =>
	stringMapProblems(body.variables, '/variables');

/** Display value of a linked record inside a rendered message. */
function display(core: SandboxCore, id: string): string {
	const r = core.find(id);
	if (!r) return id;
	for (const field of ['full_name', 'name', 'number', 'reference_id', 'email']) {
		if (typeof r[field] === 'string' && r[field]) return r[field] as string;
	}
	return id;
}

/** Renders a template message for an event (links and custom variables). */
export function renderMessage(
	core: SandboxCore,
	message: string,
	event: Record<string, unknown>,
): string {
	const value = (name: string): string => {
		if (name === 'global_context') return '';
		if (name in EVENT_LINKS) {
			const id = refId(event[name]);
			return id ? display(core, id) : '';
		}
		const vars = (event.variables ?? {}) as Record<string, unknown>;
		return typeof vars[name] === 'string' ? (vars[name] as string) : '';
	};
	return message
		.replace(
			/\{%-?\s*if\s+(\w+)\s*-?%\}([\s\S]*?)(?:\{%-?\s*else\s*-?%\}([\s\S]*?))?\{%-?\s*endif\s*-?%\}/g,
			(_m, name: string, then: string, otherwise?: string) =>
				value(name) ? then : (otherwise ?? ''),
		)
		.replace(/\{\{\s*(\w+)\s*\}\}/g, (_m, name: string) => value(name))
		.replace(/\s+/g, ' ')
		.trim();
}

/** Details for each predefined variable of the template the event does not carry. */
function missingPredefined(template: ApiRecord, event: Record<string, unknown>): ErrorDetail[] {
	const vars = (template.variables ?? {}) as { predefined?: string[] };
	return (vars.predefined ?? [])
		.filter((name) => !refId(event[name]))
		.map((name) => ({
			message: `The root object is missing the required property '${name}' (a predefined variable of template ${template.id})`,
			pointer: null,
		}));
}

export function buildEvent(
	core: SandboxCore,
	id: string,
	fields: Record<string, unknown>,
	at = nowIso(core),
): ApiRecord {
	const link = (k: string) => (fields[k] as Ref | null | undefined) ?? null;
	return {
		id,
		contact: link('contact'),
		site: link('site'),
		source: fields.source as Ref,
		template: fields.template as Ref,
		creator: link('creator'),
		description: (fields.description as string | undefined) ?? '',
		external: (fields.external as { id: string; url: string } | null | undefined) ?? null,
		variables: (fields.variables as Record<string, string> | undefined) ?? {},
		invoice: link('invoice'),
		subscription: link('subscription'),
		tenancy: link('tenancy'),
		unit: link('unit'),
		unit_type: link('unit_type'),
		created_at: at,
		updated_at: at,
	};
}

/** Resolves every link member present in `body` into `out` (404 for unknown records). */
function resolveLinks(
	core: SandboxCore,
	body: Record<string, unknown>,
	out: Record<string, unknown>,
) {
	if (body.source !== undefined)
		out.source = { id: requireRef(core, body.source, ['tsrc_'], '/source').id };
	if (body.template !== undefined)
		out.template = { id: requireRef(core, body.template, ['aetpl_'], '/template').id };
	for (const [k, prefix] of Object.entries(EVENT_LINKS)) {
		if (body[k] !== undefined) out[k] = optionalRef(core, body[k], [prefix], `/${k}`);
	}
}

export const timelineModule: ResourceModule = {
	register(api) {
		api.collection({ name: 'sources', key: 'source', prefix: 'tsrc_', scope: 'timeline_source' });
		api.collection({
			name: 'templates',
			key: 'template',
			prefix: 'aetpl_',
			scope: 'timeline_template',
		});
		api.collection({
			name: 'timeline_events',
			key: 'event',
			prefix: 'aevt_',
			scope: 'timeline_event',
		});

		api.route(
			'GET',
			'/2025-09/timeline/sources',
			{ scopes: ['public.timeline_source:read'], formats: ['text/csv'] },
			(ctx) =>
				ctx.sandbox.list(ctx, 'sources', ctx.sandbox.all('sources'), {
					sortBy: ['created_at', 'updated_at'],
					windows: TIME_WINDOWS,
				}),
		);

		api.route(
			'GET',
			'/2025-09/timeline/templates',
			{ scopes: ['public.timeline_template:read'], formats: ['text/csv'] },
			(ctx) =>
				ctx.sandbox.list(ctx, 'templates', ctx.sandbox.all('templates'), {
					sortBy: ['created_at', 'updated_at'],
					windows: TIME_WINDOWS,
				}),
		);

		api.route(
			'GET',
			'/2025-09/timeline/templates/:template_id',
			{ scopes: ['public.timeline_template:read'] },
			(ctx) =>
				ctx.sandbox.single(
					ctx,
					'templates',
					ctx.sandbox.mustGet('templates', ctx.params.template_id),
				),
		);

		api.route(
			'POST',
			'/2025-09/timeline/events',
			{ scopes: ['public.timeline_event:write'] },
			(ctx) => {
				const core = ctx.sandbox;
				const body = validate(ctx.body, CREATE, variableProblems);
				const fields: Record<string, unknown> = present(body, [
					'description',
					'external',
					'variables',
				]);
				resolveLinks(core, body, fields);
				const template = core.mustGet('templates', refId(fields.template) as string);
				const missing = missingPredefined(template, fields);
				if (missing.length) throw invalidContent(missing);
				if (typeof fields.description !== 'string')
					fields.description = renderMessage(core, template.message as string, fields);
				const record = core.insert(
					'timeline_events',
					buildEvent(core, core.newId('aevt_'), { ...fields, creator: ctx.caller.creator }),
				);
				return core.single(ctx, 'timeline_events', record, CREATED);
			},
		);

		api.route(
			'PATCH',
			'/2025-09/timeline/events/:event_id',
			{ scopes: ['public.timeline_event:write'] },
			(ctx) => {
				const core = ctx.sandbox;
				const event = core.mustGet('timeline_events', ctx.params.event_id);
				const body = validate(ctx.body, FIELDS, variableProblems);
				const changes: Record<string, unknown> = present(body, [
					'description',
					'external',
					'variables',
				]);
				resolveLinks(core, body, changes);
				const merged = { ...event, ...changes };
				const template = core.mustGet('templates', refId(merged.template) as string);
				const missing = missingPredefined(template, merged);
				if (missing.length) throw invalidContent(missing);
				// A description that was rendered from the template follows later changes; a supplied one is kept.
				const before = core.get('templates', refId(event.template) ?? '');
				const generated =
					!!before && event.description === renderMessage(core, before.message as string, event);
				if (changes.description === null || (changes.description === undefined && generated)) {
					changes.description = renderMessage(core, template.message as string, merged);
				}
				return core.single(
					ctx,
					'timeline_events',
					core.update('timeline_events', event.id, changes),
				);
			},
		);
	},
};

/** Demo seed: three sources, three templates and four calls logged on contacts 0..3. Returns the events. */
export function seedTimeline(
	core: SandboxCore,
	contacts: ApiRecord[],
	staff: ApiRecord[],
): ApiRecord[] {
	// Timeline sources and templates.
	const sources = [
		['Stora', 'https://stora.co', true],
		['Acme Gate Control', 'https://gates.example.com', false],
		['CallDesk', 'https://calldesk.example.com', false],
	].map(([name, website_url, global], i) => {
		const at = daysAgo(core, 300 - i * 20, 12);
		return core.insert('sources', {
			id: core.newId('tsrc_'),
			name,
			website_url,
			global,
			created_at: at,
			updated_at: at,
		});
	});
	const templates = [
		{
			name: 'Gate access',
			message:
				'{{ contact }} accessed {{ site }} through {{ gate }}{% if global_context %} (logged by Stora){% endif %}',
			global: false,
			variables: { custom: ['gate'], predefined: ['contact', 'site'] },
		},
		{
			name: 'Call logged',
			message: 'Call with {{ contact }} about {{ topic }} ({{ duration }} min)',
			global: false,
			variables: { custom: ['topic', 'duration'], predefined: ['contact'] },
		},
		{
			name: 'Payment reminder',
			message: 'Payment reminder sent to {{ contact }} for invoice {{ invoice }}',
			global: true,
			variables: { custom: [], predefined: ['contact', 'invoice'] },
		},
	].map((t, i) => {
		const at = daysAgo(core, 250 - i * 30, 12, 30);
		return core.insert('templates', {
			id: core.newId('aetpl_'),
			...t,
			created_at: at,
			updated_at: at,
		});
	});

	const events: ApiRecord[] = [];
	// Timeline events: calls logged on contacts 0..3 (template "Call logged", source CallDesk).
	for (let i = 0; i < 4; i++) {
		const fields: Record<string, unknown> = {
			contact: refAt(contacts, i),
			source: { id: sources[2].id },
			template: { id: templates[1].id },
			variables: {
				topic: ['access codes', 'billing', 'moving out', 'upgrade'][i],
				duration: String(3 + i * 4),
			},
			external: { id: `call-${1000 + i}`, url: `https://calldesk.example.com/calls/${1000 + i}` },
			creator: refAt(staff, i),
		};
		fields.description = renderMessage(core, templates[1].message as string, fields);
		const record = buildEvent(core, core.newId('aevt_'), fields, daysAgo(core, 20 - i * 4, 15));
		events.push(core.insert('timeline_events', record));
	}
	return events;
}
