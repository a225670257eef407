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
import type { ResourceModule, SandboxCore } from '../../core/types';
import type { Schema } from '../../core/validate';
import { nowIso, perSandbox, refId, validate } from './shared';

interface OpportunityState {
	/** Converted to a deal before: can never be associated. */
	converted: Set<string>;
	/** `archived_at` an opportunity had when it was associated (restored on disassociation). */
	archivedBefore: Map<string, string>;
}

export const opportunityState = perSandbox<OpportunityState>(() => ({ converted: new Set(), archivedBefore: new Map() }));

/** Marks a seeded opportunity as converted to a deal in the past. */
export const markConverted = (core: SandboxCore, id: string) => opportunityState.get(core).converted.add(id);
/** Records the archived_at of a seeded opportunity that was archived before it got associated. */
export const markArchivedBefore = (core: SandboxCore, id: string, archivedAt: string) =>
	opportunityState.get(core).archivedBefore.set(id, archivedAt);

const ASSOCIATE: Schema = { deal: { type: 'ref', prefix: 'deal_', required: true } };
const SCOPES = ['public.opportunity:write', 'public.deal:write'];

export const opportunitiesModule: ResourceModule = {
	register(api) {
		api.collection({ name: 'opportunities', key: 'opportunity', prefix: 'opp_', scope: 'opportunity' });

		api.route('POST', '/2025-09/opportunities/:opportunity_id/associate_deal', { scopes: SCOPES }, (ctx) => {
			const core = ctx.sandbox;
			const opportunity = core.mustGet('opportunities', ctx.params.opportunity_id);
			const body = validate(ctx.body, ASSOCIATE);
			const deal = core.mustGet('deals', refId(body.deal) as string);
			const state = opportunityState.get(core);
			if (opportunity.status === 'associated' || refId(opportunity.deal)) {
				throw conflict(`Opportunity ${opportunity.id} is already associated with a deal`, 'opportunity_associated');
			}
			if (state.converted.has(opportunity.id)) {
				throw conflict(`Opportunity ${opportunity.id} was converted to a deal before`, 'opportunity_associated');
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
		});

		api.route('DELETE', '/2025-09/opportunities/:opportunity_id/associate_deal', { scopes: SCOPES }, (ctx) => {
			const core = ctx.sandbox;
			const opportunity = core.mustGet('opportunities', ctx.params.opportunity_id);
			if (opportunity.status !== 'associated' && !refId(opportunity.deal)) {
				throw conflict(`Opportunity ${opportunity.id} is not associated with a deal`, 'opportunity_not_associated');
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
		});
	},
};
