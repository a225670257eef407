/**
 * Webhook endpoints (`we_`), per webhooks.md / endpoints.md. The response keys are `endpoint` / `endpoints`
 * (as documented), so that is also the collection name; `webhook_endpoints` is an alias for the control plane.
 *
 * The 64-hex signing `secret` is returned only by create; every other response shows `secret: null`. It is
 * kept by the core (`Sandbox.webhookSecrets`) because records are closed and rendered as stored.
 *
 * Unconfirmed choices: create answers 200 (the docs do not show the status); the scopes follow the
 * `public.webhook_endpoint:<read|write>` pattern (only the read scope is confirmed); PATCH may set `status`
 * (`disabled` sets `disabled_at`); PATCH `metadata` merges keys and a null value removes a key; DELETE
 * answers `{success}` like other deletes. `event_types` must be a non-empty list of the documented types.
 */
import { randomBytes } from 'node:crypto';

import { invalidContent } from '../../core/errors';
import type { Sandbox } from '../../core/sandbox';
import type { ApiRecord, ErrorDetail, RequestContext, ResourceModule } from '../../core/types';
import { validateBody, type Schema } from '../../core/validate';
import { API_VERSION, EVENT_TYPES } from '../../core/webhooks';

const COLLECTION = 'endpoints';
const READ = 'public.webhook_endpoint:read';
const WRITE = 'public.webhook_endpoint:write';

const createSchema: Schema = {
	name: { type: 'string', required: true, minLength: 1 },
	api_version: { type: 'string', required: true, enum: [API_VERSION] },
	url: { type: 'string', required: true, format: 'url' },
	event_types: { type: 'array', required: true, items: { type: 'string', enum: EVENT_TYPES } },
	description: { type: 'string', nullable: true },
	metadata: { type: 'metadata' },
};

const updateSchema: Schema = {
	name: { type: 'string', minLength: 1 },
	url: { type: 'string', format: 'url' },
	event_types: { type: 'array', items: { type: 'string', enum: EVENT_TYPES } },
	description: { type: 'string', nullable: true },
	metadata: { type: 'metadata', nullable: true },
	status: { type: 'string', enum: ['enabled', 'disabled'] },
};

function extraChecks(ctx: RequestContext, body: Record<string, unknown>) {
	const details: ErrorDetail[] = [];
	const sb = ctx.sandbox as Sandbox;
	if (
		typeof body.url === 'string' &&
		!body.url.startsWith('https://') &&
		!sb.config.allowHttpWebhooks
	) {
		details.push({ message: 'The value at /url must be an https:// URL', pointer: '/url' });
	}
	if (Array.isArray(body.event_types) && body.event_types.length === 0) {
		details.push({
			message: 'The value at /event_types must contain at least one event type',
			pointer: '/event_types',
		});
	}
	if (details.length) throw invalidContent(details);
}

const sandboxOf = (ctx: RequestContext) => ctx.sandbox as Sandbox;

export const webhookEndpoints: ResourceModule = {
	register(api) {
		api.collection({
			name: COLLECTION,
			key: 'endpoint',
			prefix: 'we_',
			scope: 'webhook_endpoint',
			aliases: ['webhook_endpoints'],
		});

		api.route(
			'GET',
			'/2025-09/webhook_endpoints',
			{ scopes: [READ], formats: ['text/csv'] },
			(ctx) =>
				ctx.sandbox.list(ctx, COLLECTION, ctx.sandbox.all(COLLECTION), {
					sortBy: ['created_at'],
					filters: { status: { field: 'status', values: ['enabled', 'disabled'] } },
					metadata: true,
				}),
		);

		api.route('POST', '/2025-09/webhook_endpoints', { scopes: [WRITE] }, (ctx) => {
			const body = validateBody(ctx.body, createSchema);
			extraChecks(ctx, body);
			const core = ctx.sandbox;
			const now = core.now().toISOString();
			const record: ApiRecord = {
				id: core.newId('we_'),
				name: body.name,
				description: body.description ?? null,
				url: body.url,
				api_version: body.api_version,
				event_types: [...new Set(body.event_types as string[])],
				status: 'enabled',
				disabled_at: null,
				secret: null,
				metadata: body.metadata ?? {},
				creator: { id: ctx.caller.creator.id },
				created_at: now,
				updated_at: now,
			};
			const secret = randomBytes(32).toString('hex');
			sandboxOf(ctx).webhookSecrets.set(record.id, secret);
			const stored = core.insert(COLLECTION, record);
			const reply = core.single(ctx, COLLECTION, stored, 200);
			// The only response that ever carries the secret.
			(reply.body as { endpoint: ApiRecord }).endpoint.secret = secret;
			return reply;
		});

		api.route('GET', '/2025-09/webhook_endpoints/:webhook_endpoint_id', { scopes: [READ] }, (ctx) =>
			ctx.sandbox.single(
				ctx,
				COLLECTION,
				ctx.sandbox.mustGet(COLLECTION, ctx.params.webhook_endpoint_id),
			),
		);

		api.route(
			'PATCH',
			'/2025-09/webhook_endpoints/:webhook_endpoint_id',
			{ scopes: [WRITE] },
			(ctx) => {
				const core = ctx.sandbox;
				const existing = core.mustGet(COLLECTION, ctx.params.webhook_endpoint_id);
				const body = validateBody(ctx.body, updateSchema);
				extraChecks(ctx, body);
				const changes: Record<string, unknown> = {};
				for (const field of ['name', 'description', 'url'] as const)
					if (body[field] !== undefined) changes[field] = body[field];
				if (body.event_types !== undefined)
					changes.event_types = [...new Set(body.event_types as string[])];
				if (body.metadata !== undefined) {
					const merged: Record<string, unknown> = {
						...((existing.metadata as Record<string, unknown>) ?? {}),
					};
					for (const [k, v] of Object.entries((body.metadata as Record<string, unknown>) ?? {})) {
						if (v === null) delete merged[k];
						else merged[k] = v;
					}
					changes.metadata = body.metadata === null ? {} : merged;
				}
				if (body.status !== undefined && body.status !== existing.status) {
					changes.status = body.status;
					changes.disabled_at = body.status === 'disabled' ? core.now().toISOString() : null;
				}
				return core.single(ctx, COLLECTION, core.update(COLLECTION, existing.id, changes));
			},
		);

		api.route(
			'DELETE',
			'/2025-09/webhook_endpoints/:webhook_endpoint_id',
			{ scopes: [WRITE] },
			(ctx) => {
				const core = ctx.sandbox;
				const existing = core.mustGet(COLLECTION, ctx.params.webhook_endpoint_id);
				core.remove(COLLECTION, existing.id);
				sandboxOf(ctx).webhookSecrets.delete(existing.id);
				return core.success(ctx, `Webhook endpoint ${existing.id} deleted`);
			},
		);
	},
};
