/**
 * Unit allocations: list (contact_id, tenancy_id, unit_id, site_id filters) and get. Allocations are created by the
 * unit actions (reserve, grant_access) and by the seed.
 */
import type { ApiRecord, ResourceModule, SandboxCore } from '../../core/types';
import { derivedFilter, refId, registerReadable } from '../billing/shared';

/** The contact an allocation belongs to (through its tenancy). */
export function allocationContact(core: SandboxCore, allocation: ApiRecord): string | null {
	const tenancy = core.get('tenancies', refId(allocation.tenancy) ?? '');
	return tenancy ? refId(tenancy.contact) : null;
}

/** The site of an allocation (through its unit). */
function allocationSite(core: SandboxCore, allocation: ApiRecord): string | null {
	const unit = core.get('units', refId(allocation.unit) ?? '');
	return unit ? refId(unit.site) : null;
}

export const unitAllocations: ResourceModule = {
	register(api) {
		registerReadable(
			api,
			{
				name: 'unit_allocations',
				key: 'unit_allocation',
				prefix: 'alloc_',
				scope: 'unit_allocation',
			},
			{
				path: 'unit_allocations',
				param: 'unit_allocation_id',
				spec: {
					sortBy: ['created_at'],
					filters: { tenancy_id: { field: 'tenancy.id' }, unit_id: { field: 'unit.id' } },
				},
				prefilter: (ctx, records) => {
					const byContact = derivedFilter(ctx, records, 'contact_id', (r) =>
						allocationContact(ctx.sandbox, r),
					);
					return derivedFilter(byContact.ctx, byContact.records, 'site_id', (r) =>
						allocationSite(ctx.sandbox, r),
					);
				},
			},
		);
	},
};
