/**
 * Deal stages (list/get under /2025-09/deals/stages, registered before /deals/:deal_id) and deals
 * (list/get/create/update and the win/lose/reopen transitions: open → won | lost → open).
 */
import { conflict, invalidContent } from '../../core/errors';
import type { ApiRecord, ErrorDetail, Ref, ResourceModule, SandboxCore } from '../../core/types';
import type { FieldSpec, Schema } from '../../core/validate';
import {
	daysAgo,
	later,
	refAt,
	CREATED,
	nowIso,
	optionalRef,
	present,
	requireRef,
	safeAll,
	TIME_WINDOWS,
	validate,
	withMergedMetadata,
} from './shared';

export const DEAL_STATUSES = ['open', 'won', 'lost'];
/** Only these values are visible in the docs (the enum is cut after `contract…`). */
export const LOST_REASONS = [
	'accessibility_concern',
	'better_deal_elsewhere',
	'chose_competitor',
	'price_concerns',
];
const LINE_ITEM_PREFIX: Record<string, string> = { unit_type: 'utype_', protection: 'plvl_' };

const LINE_ITEMS: FieldSpec = {
	type: 'array',
	items: {
		type: 'object',
		fields: {
			type: { type: 'string', enum: Object.keys(LINE_ITEM_PREFIX), required: true },
			item: { type: 'ref', prefix: '', required: true },
			quantity: { type: 'integer', min: 1 },
		},
	},
};

const CREATE: Schema = {
	name: { type: 'string', minLength: 1 },
	contact: { type: 'ref', prefix: 'con_', required: true },
	stage: { type: 'ref', prefix: 'dstg_' },
	line_items: LINE_ITEMS,
	site: { type: 'ref', prefix: 'site_', nullable: true },
	assignee: { type: 'ref', prefix: 'staff_', nullable: true },
	note: { type: 'string', nullable: true },
	starts_at: { type: 'string', format: 'date-time', nullable: true },
	metadata: { type: 'metadata' },
};
/** Update takes the create members except `contact`, all optional. */
const UPDATE: Schema = Object.fromEntries(Object.entries(CREATE).filter(([k]) => k !== 'contact'));
const LOSE: Schema = { lost_reason: { type: 'string', enum: LOST_REASONS, required: true } };
const REOPEN: Schema = {
	stage: { type: 'ref', prefix: 'dstg_' },
	assignee: { type: 'ref', prefix: 'staff_', nullable: true },
};

/** At most one line item per type. */
function lineItemProblems(body: Record<string, unknown>): ErrorDetail[] {
	if (!Array.isArray(body.line_items)) return [];
	const seen = new Set<string>();
	const details: ErrorDetail[] = [];
	body.line_items.forEach((li: unknown, i) => {
		const type = li && typeof li === 'object' ? (li as Record<string, unknown>).type : undefined;
		if (typeof type !== 'string') return;
		if (seen.has(type)) {
			details.push({
				message: `Only one line item of type '${type}' is allowed`,
				pointer: `/line_items/${i}/type`,
			});
		}
		seen.add(type);
	});
	return details;
}

type LineItem = { item: Ref; quantity: number; type: string };

function resolveLineItems(core: SandboxCore, value: unknown): LineItem[] {
	return (value as Array<Record<string, unknown>>).map((li, i) => {
		const type = li.type as string;
		const item = requireRef(core, li.item, [LINE_ITEM_PREFIX[type]], `/line_items/${i}/item`);
		return { item: { id: item.id }, quantity: (li.quantity as number | undefined) ?? 1, type };
	});
}

/** "£50.00 per month" from the monthly price of the deal's unit type, when the unit type is known. */
export function valueEstimate(core: SandboxCore, lineItems: LineItem[]): string | null {
	const unitType = lineItems.find((li) => li.type === 'unit_type');
	if (!unitType) return null;
	const record = core.find(unitType.item.id);
	const prices = Array.isArray(record?.prices)
		? (record.prices as Array<Record<string, unknown>>)
		: [];
	const price = prices.find((p) => p.billing_period === 'monthly') ?? prices[0];
	const money = price?.price as { amount?: number; formatted?: string } | undefined;
	if (!money || typeof money.amount !== 'number') return null;
	const period =
		price.billing_period === 'monthly' ? 'month' : String(price.billing_period).replace(/ly$/, '');
	return `${money.formatted ?? core.money(money.amount).formatted} per ${period}`;
}

/** The stage a deal starts in when none is given: the lowest position. */
function firstStage(core: SandboxCore): ApiRecord | undefined {
	return [...safeAll(core, 'stages')].sort(
		(a, b) => (a.position as number) - (b.position as number),
	)[0];
}

export function buildDeal(
	core: SandboxCore,
	id: string,
	fields: Record<string, unknown>,
	at = nowIso(core),
): ApiRecord {
	const lineItems = (fields.line_items as LineItem[] | undefined) ?? [];
	return {
		id,
		name: fields.name as string,
		assignee: (fields.assignee as Ref | null | undefined) ?? null,
		contact: fields.contact as Ref,
		creator: (fields.creator as Ref | null | undefined) ?? null,
		line_items: lineItems,
		lost_reason: (fields.lost_reason as string | null | undefined) ?? null,
		metadata: (fields.metadata as Record<string, unknown> | undefined) ?? {},
		note: (fields.note as string | null | undefined) ?? null,
		site: (fields.site as Ref | null | undefined) ?? null,
		stage: fields.stage as Ref,
		starts_at: (fields.starts_at as string | null | undefined) ?? null,
		status: (fields.status as string | undefined) ?? 'open',
		value_estimate: valueEstimate(core, lineItems),
		created_at: at,
		updated_at: at,
	};
}

export const dealsModule: ResourceModule = {
	register(api) {
		api.collection({ name: 'stages', key: 'stage', prefix: 'dstg_', scope: 'deal_stage' });
		api.collection({ name: 'deals', key: 'deal', prefix: 'deal_', scope: 'deal' });

		// Stage routes first: `/deals/stages` must not be read as a deal id.
		api.route(
			'GET',
			'/2025-09/deals/stages',
			{ scopes: ['public.deal_stage:read'], formats: ['text/csv'] },
			(ctx) =>
				ctx.sandbox.list(ctx, 'stages', ctx.sandbox.all('stages'), {
					sortBy: ['created_at', 'updated_at', 'position'],
					windows: TIME_WINDOWS,
				}),
		);
		api.route(
			'GET',
			'/2025-09/deals/stages/:stage_id',
			{ scopes: ['public.deal_stage:read'] },
			(ctx) =>
				ctx.sandbox.single(ctx, 'stages', ctx.sandbox.mustGet('stages', ctx.params.stage_id)),
		);

		api.route(
			'GET',
			'/2025-09/deals',
			{ scopes: ['public.deal:read'], formats: ['text/csv'] },
			(ctx) =>
				ctx.sandbox.list(ctx, 'deals', ctx.sandbox.all('deals'), {
					sortBy: ['created_at', 'updated_at', 'starts_at'],
					filters: {
						status: { field: 'status', values: DEAL_STATUSES },
						contact_id: { field: 'contact.id' },
						site_id: { field: 'site.id', unspecified: true },
						stage_id: { field: 'stage.id' },
						assignee_id: { field: 'assignee.id', unspecified: true },
					},
					windows: { ...TIME_WINDOWS, starts: 'starts_at' },
					metadata: true,
					search: { param: 'search', fields: ['name'] },
				}),
		);

		api.route('GET', '/2025-09/deals/:deal_id', { scopes: ['public.deal:read'] }, (ctx) =>
			ctx.sandbox.single(ctx, 'deals', ctx.sandbox.mustGet('deals', ctx.params.deal_id)),
		);

		api.route('POST', '/2025-09/deals', { scopes: ['public.deal:write'] }, (ctx) => {
			const core = ctx.sandbox;
			const body = validate(ctx.body, CREATE, lineItemProblems);
			const contact = requireRef(core, body.contact, ['con_'], '/contact');
			let stage: Ref;
			if (body.stage !== undefined)
				stage = { id: requireRef(core, body.stage, ['dstg_'], '/stage').id };
			else {
				const first = firstStage(core);
				if (!first)
					throw invalidContent([
						{ message: "The root object is missing the required property 'stage'", pointer: null },
					]);
				stage = { id: first.id };
			}
			const record = core.insert(
				'deals',
				buildDeal(core, core.newId('deal_'), {
					...body,
					name: body.name ?? contact.full_name ?? contact.email,
					contact: { id: contact.id },
					stage,
					site: optionalRef(core, body.site, ['site_'], '/site'),
					assignee: optionalRef(core, body.assignee, ['staff_'], '/assignee'),
					line_items: body.line_items === undefined ? [] : resolveLineItems(core, body.line_items),
					creator: ctx.caller.creator,
				}),
			);
			// No `deal.created` event is documented (webhooks.md lists the 13 confirmed types): none is emitted.
			return core.single(ctx, 'deals', record, CREATED);
		});

		api.route('PATCH', '/2025-09/deals/:deal_id', { scopes: ['public.deal:write'] }, (ctx) => {
			const core = ctx.sandbox;
			const existing = core.mustGet('deals', ctx.params.deal_id);
			const body = validate(ctx.body, UPDATE, lineItemProblems);
			const changes = withMergedMetadata(existing, present(body, Object.keys(UPDATE)));
			if ('stage' in changes)
				changes.stage = { id: requireRef(core, body.stage, ['dstg_'], '/stage').id };
			if ('site' in changes) changes.site = optionalRef(core, body.site, ['site_'], '/site');
			if ('assignee' in changes)
				changes.assignee = optionalRef(core, body.assignee, ['staff_'], '/assignee');
			if ('line_items' in changes) {
				const lineItems = resolveLineItems(core, body.line_items);
				changes.line_items = lineItems;
				changes.value_estimate = valueEstimate(core, lineItems);
			}
			const record = core.update('deals', ctx.params.deal_id, changes);
			core.emit('deal.updated', record);
			return core.single(ctx, 'deals', record);
		});

		api.route('POST', '/2025-09/deals/:deal_id/win', { scopes: ['public.deal:write'] }, (ctx) => {
			const core = ctx.sandbox;
			const deal = core.mustGet('deals', ctx.params.deal_id);
			if (deal.status !== 'open')
				throw conflict(`Deal ${deal.id} is ${String(deal.status)}; only open deals can be won`);
			const record = core.update('deals', deal.id, { status: 'won', lost_reason: null });
			// `deal.won` is not among the documented event types; winning is reported as an update.
			core.emit('deal.updated', record);
			return core.single(ctx, 'deals', record);
		});

		api.route('POST', '/2025-09/deals/:deal_id/lose', { scopes: ['public.deal:write'] }, (ctx) => {
			const core = ctx.sandbox;
			const deal = core.mustGet('deals', ctx.params.deal_id);
			const body = validate(ctx.body, LOSE);
			if (deal.status !== 'open')
				throw conflict(`Deal ${deal.id} is ${String(deal.status)}; only open deals can be lost`);
			const record = core.update('deals', deal.id, {
				status: 'lost',
				lost_reason: body.lost_reason,
			});
			core.emit('deal.lost', record);
			return core.single(ctx, 'deals', record);
		});

		api.route(
			'POST',
			'/2025-09/deals/:deal_id/reopen',
			{ scopes: ['public.deal:write'] },
			(ctx) => {
				const core = ctx.sandbox;
				const deal = core.mustGet('deals', ctx.params.deal_id);
				const body = validate(ctx.body ?? {}, REOPEN);
				if (deal.status === 'open') throw conflict(`Deal ${deal.id} is already open`);
				const changes: Record<string, unknown> = { status: 'open', lost_reason: null };
				if (body.stage !== undefined)
					changes.stage = { id: requireRef(core, body.stage, ['dstg_'], '/stage').id };
				if (body.assignee !== undefined)
					changes.assignee = optionalRef(core, body.assignee, ['staff_'], '/assignee');
				const record = core.update('deals', deal.id, changes);
				core.emit('deal.updated', record);
				return core.single(ctx, 'deals', record);
			},
		);
	},
};

/** Demo seed: the four pipeline stages (positions with a gap, to prove sorting by position). */
export function seedStages(core: SandboxCore): ApiRecord[] {
	const stages: Array<[string, number]> = [
		['New enquiry', 1],
		['Viewing booked', 2],
		['Quote sent', 3],
		['Negotiation', 5],
	];
	return stages.map(([name, position], i) => {
		const at = daysAgo(core, 380 - i, 8, 30);
		return core.insert('stages', {
			id: core.newId('dstg_'),
			name,
			position,
			created_at: at,
			updated_at: at,
		});
	});
}

/** Demo seed: 12 deals on the leads (and one customer) in every status, stage and assignee. */
export function seedDeals(
	core: SandboxCore,
	contacts: ApiRecord[],
	stages: ApiRecord[],
	staff: ApiRecord[],
): ApiRecord[] {
	// Deals: [contact index, status, stage index, assignee index | null, lost_reason]
	const deals: Array<[number, string, number, number | null, string | null]> = [
		[20, 'open', 0, 0, null], // d0: open; opportunity o0 (same contact) can be associated
		[21, 'open', 1, 1, null], // d1
		[22, 'open', 2, 2, null], // d2: archived opportunity o2 of the same contact
		[23, 'open', 3, 3, null], // d3: associated with o3
		[24, 'open', 0, null, null], // d4: associated with o4, unassigned
		[25, 'open', 1, 0, null], // d5: o6 (same contact) was converted before
		[26, 'won', 3, 1, null], // d6: won, associated with o8
		[27, 'lost', 2, 2, 'price_concerns'], // d7: lost
		[5, 'won', 3, 3, null], // d8: won (a customer)
		[28, 'lost', 1, 0, 'chose_competitor'], // d9: lost
		[29, 'open', 2, 1, null], // d10
		[30, 'open', 0, 2, null], // d11
	];
	return deals.map(([c, status, stage, assignee, lostReason], i) => {
		const created = daysAgo(core, 60 - i * 3, 10 + (i % 6));
		const record = buildDeal(
			core,
			core.newId('deal_'),
			{
				name: `${contacts[c].full_name as string} – ${['5x5', '10x10', '10x15', '20x10'][i % 4]} unit`,
				contact: refAt(contacts, c),
				stage: { id: stages[stage].id },
				assignee: assignee === null ? null : refAt(staff, assignee),
				creator: refAt(staff, i),
				status,
				lost_reason: lostReason,
				note: i % 3 === 0 ? `Approx. £${40 + i * 5} per month` : null,
				starts_at: status === 'open' ? daysAgo(core, -(7 + i * 2), 9) : null,
				metadata: i % 2 === 0 ? { campaign: i % 4 === 0 ? 'spring' : 'summer' } : {},
			},
			created,
		);
		record.updated_at = later(created, 6 + i);
		return core.insert('deals', record);
	});
}
