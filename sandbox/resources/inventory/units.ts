/**
 * Units: list, get, reserve, grant_access, deallocate, and overlock / remove overlock of every unit of a contact.
 *
 * State rules (409 `conflict` otherwise):
 * - reserve: `available` → `reserved` (new allocation, `reserved_at` set).
 * - grant_access: `available` → `occupied` (new allocation, `reserved_at` and `granted_access_at` set), or
 *   `reserved` for the same tenancy → `occupied` (`granted_access_at` set on the existing allocation).
 * - deallocate: `reserved` or `occupied` → `available` (allocation removed from the unit and the tenancy).
 * - overlock by contact: the contact's `occupied` units → `overlocked`; remove overlock: `overlocked` → `occupied`.
 * The tenancy must be active (not ended) and at the unit's site. Every unit change emits `unit.updated`.
 */
import { conflict, invalidContent } from '../../core/errors';
import type { ApiRecord, RequestContext, ResourceModule, SandboxCore } from '../../core/types';
import { validateBody, type Schema } from '../../core/validate';
import { allocationContact } from './unitAllocations';
import {
	V,
	arr,
	derivedFilter,
	iso,
	ref,
	refId,
	registerReadable,
	successWithMeta,
	type SeedWriter,
} from '../billing/shared';
import { SITES } from './sites';

export const UNIT_STATUSES = [
	'available',
	'reserved',
	'occupied',
	'overlocked',
	'repossessed',
	'unavailable',
];

function activeTenancy(core: SandboxCore, unit: ApiRecord, tenancyId: string): ApiRecord {
	const tenancy = core.mustGet('tenancies', tenancyId);
	const ends = typeof tenancy.ends_at === 'string' ? Date.parse(tenancy.ends_at) : NaN;
	if (!isNaN(ends) && ends <= core.now().getTime()) {
		throw conflict(`Tenancy ${tenancyId} has ended`);
	}
	if (refId(tenancy.site) !== refId(unit.site)) {
		throw invalidContent([
			{ message: `Tenancy ${tenancyId} is not at the unit's site`, pointer: '/tenancy_id' },
		]);
	}
	return tenancy;
}

function allocate(
	core: SandboxCore,
	unit: ApiRecord,
	tenancy: ApiRecord,
	granted: boolean,
): ApiRecord {
	const now = iso(core.now());
	const allocation = core.insert('unit_allocations', {
		id: core.newId('alloc_'),
		created_at: now,
		updated_at: now,
		granted_access_at: granted ? now : null,
		reserved_at: now,
		tenancy: { id: tenancy.id },
		unit: { id: unit.id },
	});
	core.update('tenancies', tenancy.id, {
		unit_allocations: [...arr(tenancy.unit_allocations), { id: allocation.id }],
	});
	return allocation;
}

function changed(ctx: RequestContext, unit: ApiRecord, changes: Record<string, unknown>) {
	const updated = ctx.sandbox.update('units', unit.id, changes);
	ctx.sandbox.emit('unit.updated', updated);
	return updated;
}

const tenancyBody: Schema = { tenancy_id: { type: 'string', pattern: /^ten_/, required: true } };
const contactBody: Schema = { contact_id: { type: 'string', pattern: /^con_/, required: true } };

/** Units of a contact (through the current allocation's tenancy) with the given status. */
function contactUnits(core: SandboxCore, contactId: string, status: string): ApiRecord[] {
	return core.all('units').filter((unit) => {
		if (unit.status !== status) return false;
		const allocation = core.get('unit_allocations', refId(unit.unit_allocation) ?? '');
		return !!allocation && allocationContact(core, allocation) === contactId;
	});
}

export const units: ResourceModule = {
	register(api) {
		const write = { scopes: ['public.unit:write'] };

		// Fixed paths first so they never read as a unit id.
		api.route('POST', `${V}/units/overlock`, write, (ctx) => {
			const body = validateBody(ctx.body, contactBody);
			const contact = ctx.sandbox.mustGet('contacts', String(body.contact_id));
			const hit = contactUnits(ctx.sandbox, contact.id, 'occupied').map(
				(u) => changed(ctx, u, { status: 'overlocked' }).id,
			);
			return successWithMeta(ctx, `${hit.length} unit(s) overlocked`, { unit_ids: hit });
		});
		api.route('POST', `${V}/units/remove_overlock`, write, (ctx) => {
			const body = validateBody(ctx.body, contactBody);
			const contact = ctx.sandbox.mustGet('contacts', String(body.contact_id));
			const hit = contactUnits(ctx.sandbox, contact.id, 'overlocked').map(
				(u) => changed(ctx, u, { status: 'occupied' }).id,
			);
			return successWithMeta(ctx, `Overlock removed from ${hit.length} unit(s)`, { unit_ids: hit });
		});

		registerReadable(
			api,
			{ name: 'units', key: 'unit', prefix: 'unit_', scope: 'unit' },
			{
				path: 'units',
				param: 'unit_id',
				spec: {
					sortBy: ['created_at'],
					filters: { unit_type_id: { field: 'unit_type.id' }, site_id: { field: 'site.id' } },
				},
				// The list filter spells the overlocked status `overlock` (docs); both spellings are accepted.
				prefilter: (ctx, records) =>
					derivedFilter(
						ctx,
						records,
						'status',
						(r) => String(r.status),
						[...UNIT_STATUSES, 'overlock'],
						{ overlock: 'overlocked' },
					),
			},
		);

		api.route('POST', `${V}/units/:unit_id/reserve`, write, (ctx) => {
			const core = ctx.sandbox;
			const unit = core.mustGet('units', ctx.params.unit_id);
			const body = validateBody(ctx.body, tenancyBody);
			const tenancy = activeTenancy(core, unit, String(body.tenancy_id));
			if (unit.status !== 'available')
				throw conflict(`Unit ${unit.id} is ${String(unit.status)} and cannot be reserved`);
			const allocation = allocate(core, unit, tenancy, false);
			return core.single(
				ctx,
				'units',
				changed(ctx, unit, { status: 'reserved', unit_allocation: ref(allocation.id) }),
			);
		});

		api.route('POST', `${V}/units/:unit_id/grant_access`, write, (ctx) => {
			const core = ctx.sandbox;
			const unit = core.mustGet('units', ctx.params.unit_id);
			const body = validateBody(ctx.body, tenancyBody);
			const tenancy = activeTenancy(core, unit, String(body.tenancy_id));
			if (unit.status === 'available') {
				const allocation = allocate(core, unit, tenancy, true);
				return core.single(
					ctx,
					'units',
					changed(ctx, unit, { status: 'occupied', unit_allocation: ref(allocation.id) }),
				);
			}
			if (unit.status === 'reserved') {
				const allocation = core.mustGet('unit_allocations', refId(unit.unit_allocation) ?? '');
				if (refId(allocation.tenancy) !== tenancy.id) {
					throw conflict(`Unit ${unit.id} is reserved for another tenancy`);
				}
				core.update('unit_allocations', allocation.id, { granted_access_at: iso(core.now()) });
				return core.single(ctx, 'units', changed(ctx, unit, { status: 'occupied' }));
			}
			throw conflict(
				`Unit ${unit.id} is ${String(unit.status)}; access can only be granted to an available or reserved unit`,
			);
		});

		api.route('POST', `${V}/units/:unit_id/deallocate`, write, (ctx) => {
			const core = ctx.sandbox;
			const unit = core.mustGet('units', ctx.params.unit_id);
			if (unit.status !== 'reserved' && unit.status !== 'occupied') {
				throw conflict(`Unit ${unit.id} is ${String(unit.status)} and cannot be deallocated`);
			}
			const allocation = core.get('unit_allocations', refId(unit.unit_allocation) ?? '');
			const tenancy = allocation
				? core.get('tenancies', refId(allocation.tenancy) ?? '')
				: undefined;
			if (tenancy && allocation) {
				core.update('tenancies', tenancy.id, {
					unit_allocations: arr(tenancy.unit_allocations).filter((a) => refId(a) !== allocation.id),
				});
			}
			return core.single(
				ctx,
				'units',
				changed(ctx, unit, { status: 'available', unit_allocation: null }),
			);
		});
	},
};

const UNITS_PER_TYPE = 5;

/** Demo seed: five units of unit type `id` (k-th of its site) at site `s`; the last of some types is out of service or repossessed. */
export function seedUnits(
	w: SeedWriter,
	site: ApiRecord,
	s: number,
	id: string,
	k: number,
): ApiRecord[] {
	const { core, put, stamp } = w;
	const units: ApiRecord[] = [];
	for (let u = 0; u < UNITS_PER_TYPE; u++) {
		units.push(
			put('units', {
				id: core.newId('unit_'),
				reference_id: `${SITES[s].code}-${'SML'[k]}${String(u + 1).padStart(2, '0')}`,
				site: { id: site.id },
				unit_type: { id },
				// The last unit of some types is out of service or repossessed; the rest start available.
				status:
					u === UNITS_PER_TYPE - 1 && k === 0
						? 'unavailable'
						: u === UNITS_PER_TYPE - 1 && k === 1 && s < 2
							? 'repossessed'
							: 'available',
				unit_allocation: null,
				...stamp(840 - s * 100 - k, u),
			}),
		);
	}
	return units;
}

/** Finds a unit still available at a site for a unit type (the seed hands them out in order). */
export const freeUnitIn = (units: ApiRecord[]) => (siteId: string, typeId: string) =>
	units.find(
		(u) =>
			u.status === 'available' &&
			u.site &&
			(u.site as { id: string }).id === siteId &&
			(u.unit_type as { id: string }).id === typeId,
	);
