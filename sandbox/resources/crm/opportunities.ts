/**
 * Opportunities: the `opportunities` collection and POST/DELETE /2025-09/opportunities/:id/associate_deal.
 *
 * State machine (spec "States and transitions"):
 *   open | archived --POST associate_deal--> associated   (associated_at, deal set; archived_at cleared)
 *   associated      --DELETE associate_deal--> open, or archived when it was archived before
 *   POST on an associated / previously converted / other-contact opportunity → 409 opportunity_associated
 *   DELETE on an opportunity without a deal → 409 opportunity_not_associated
 * The deal record is never changed. Facts that records cannot carry (records are closed objects) live in
 * per-sandbox state: whether the opportunity was converted to a deal before, and its archived_at before
 * association.
 */
import { conflict } from '../../core/errors';
import type { ApiRecord, ResourceModule, SandboxCore } from '../../core/types';
import type { Schema } from '../../core/validate';
import { daysAgo, later, nowIso, perSandbox, refAt, refId, validate } from './shared';

interface OpportunityState {
	/** Converted to a deal before: can never be associated. */
	converted: Set<string>;
	/** `archived_at` an opportunity had when it was associated (restored on disassociation). */
	archivedBefore: Map<string, string>;
}

export const opportunityState = perSandbox<OpportunityState>(() => ({
	converted: new Set(),
	archivedBefore: new Map(),
}));

/** Marks a seeded opportunity as converted to a deal in the past. */
export const markConverted = (core: SandboxCore, id: string) =>
	opportunityState.get(core).converted.add(id);
/** Records the archived_at of a seeded opportunity that was archived before it got associated. */
export const markArchivedBefore = (core: SandboxCore, id: string, archivedAt: string) =>
	opportunityState.get(core).archivedBefore.set(id, archivedAt);

const ASSOCIATE: Schema = { deal: { type: 'ref', prefix: 'deal_', required: true } };
const SCOPES = ['public.opportunity:write', 'public.deal:write'];

export const opportunitiesModule: ResourceModule = {
	register(api) {
		api.collection({
			name: 'opportunities',
			key: 'opportunity',
			prefix: 'opp_',
			scope: 'opportunity',
		});

		api.route(
			'POST',
			'/2025-09/opportunities/:opportunity_id/associate_deal',
			{ scopes: SCOPES },
			(ctx) => {
				const core = ctx.sandbox;
				const opportunity = core.mustGet('opportunities', ctx.params.opportunity_id);
				const body = validate(ctx.body, ASSOCIATE);
				const deal = core.mustGet('deals', refId(body.deal) as string);
				const state = opportunityState.get(core);
				if (opportunity.status === 'associated' || refId(opportunity.deal)) {
					throw conflict(
						`Opportunity ${opportunity.id} is already associated with a deal`,
						'opportunity_associated',
					);
				}
				if (state.converted.has(opportunity.id)) {
					throw conflict(
						`Opportunity ${opportunity.id} was converted to a deal before`,
						'opportunity_associated',
					);
				}
				if (refId(opportunity.contact) !== refId(deal.contact)) {
					throw conflict(
						`Opportunity ${opportunity.id} belongs to a different contact than deal ${deal.id}`,
						'opportunity_associated',
					);
				}
				if (opportunity.status === 'archived' && typeof opportunity.archived_at === 'string') {
					state.archivedBefore.set(opportunity.id, opportunity.archived_at);
				} else state.archivedBefore.delete(opportunity.id);
				const record = core.update('opportunities', opportunity.id, {
					status: 'associated',
					associated_at: nowIso(core),
					archived_at: null,
					deal: { id: deal.id },
				});
				return core.single(ctx, 'opportunities', record);
			},
		);

		api.route(
			'DELETE',
			'/2025-09/opportunities/:opportunity_id/associate_deal',
			{ scopes: SCOPES },
			(ctx) => {
				const core = ctx.sandbox;
				const opportunity = core.mustGet('opportunities', ctx.params.opportunity_id);
				if (opportunity.status !== 'associated' && !refId(opportunity.deal)) {
					throw conflict(
						`Opportunity ${opportunity.id} is not associated with a deal`,
						'opportunity_not_associated',
					);
				}
				const state = opportunityState.get(core);
				const archivedAt = state.archivedBefore.get(opportunity.id);
				state.archivedBefore.delete(opportunity.id);
				const record = core.update('opportunities', opportunity.id, {
					status: archivedAt ? 'archived' : 'open',
					archived_at: archivedAt ?? null,
					associated_at: null,
					deal: null,
				});
				return core.single(ctx, 'opportunities', record);
			},
		);
	},
};

/** Demo seed: 10 opportunities in every state, for the associate / disassociate rules (see the comments per row). */
export function seedOpportunities(
	core: SandboxCore,
	contacts: ApiRecord[],
	deals: ApiRecord[],
	staff: ApiRecord[],
): ApiRecord[] {
	// Opportunities: [contact index, status, source, deal index | null, converted before, archived before association]
	const opps: Array<[number, string, string | null, number | null, boolean, boolean]> = [
		[20, 'open', 'incomplete_booking', null, false, false], // o0: associate with d0 works
		[21, 'open', 'price_reveal', null, false, false], // o1: associate with d1 works
		[22, 'archived', 'quote_requested', null, false, false], // o2: archived; associate with d2 works, disassociate → archived
		[23, 'associated', 'unit_type_interest', 3, false, false], // o3: associated with d3
		[24, 'associated', 'popup_form', 4, false, false], // o4: associated with d4
		[31, 'open', 'public_api', null, false, false], // o5: contact without deals (associate → 409 contact mismatch)
		[25, 'open', 'incomplete_booking', null, true, false], // o6: converted before (associate with d5 → 409)
		[32, 'archived', 'pre_opening_lead', null, false, false], // o7: archived
		[26, 'associated', 'quote_requested', 6, false, true], // o8: associated with d6, archived before (disassociate → archived)
		[33, 'open', null, null, false, false], // o9: unknown origin
	];
	const out: ApiRecord[] = [];
	const state = opportunityState.get(core);
	state.converted.clear();
	state.archivedBefore.clear();
	opps.forEach(([c, status, source, deal, converted, archivedBefore], i) => {
		const created = daysAgo(core, 50 - i * 3, 11 + (i % 5));
		const archivedAt = status === 'archived' || archivedBefore ? later(created, 48) : null;
		const associatedAt = status === 'associated' ? later(created, 72) : null;
		const storefront =
			source !== null &&
			[
				'incomplete_booking',
				'price_reveal',
				'quote_requested',
				'popup_form',
				'unit_type_interest',
			].includes(source);
		const record: ApiRecord = {
			id: core.newId('opp_'),
			status,
			source,
			archived_at: status === 'archived' ? archivedAt : null,
			associated_at: associatedAt,
			contact: refAt(contacts, c),
			site: null,
			deal: deal === null ? null : { id: deals[deal].id },
			creator: storefront ? refAt(contacts, c) : refAt(staff, i),
			line_items: [],
			metadata: i % 3 === 0 ? { utm_source: 'google' } : {},
			created_at: created,
			updated_at: associatedAt ?? archivedAt ?? created,
		};
		out.push(core.insert('opportunities', record));
		if (converted) markConverted(core, record.id);
		if (archivedBefore && archivedAt) markArchivedBefore(core, record.id, archivedAt);
	});
	return out;
}
