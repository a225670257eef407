// Inventory resources' list searches (sites, unit types, units, tenancies, unit allocations).
import type { IDataObject } from 'n8n-workflow';

import { searchListMethod } from './searchList';

const idOf = (value: unknown) => String((value as IDataObject | null | undefined)?.id ?? '');
const day = (value: unknown) => (typeof value === 'string' ? value.slice(0, 10) : '');

export const searchSites = searchListMethod({
	path: '/sites',
	label: (site) => String(site.name ?? site.id),
	searchParam: 'search',
});

/** Unit types: names repeat across sites, so the site is part of the label. */
export const searchUnitTypes = searchListMethod({
	path: '/unit_types',
	label: (unitType) =>
		`${String(unitType.name ?? unitType.id)}${idOf(unitType.site) ? ` (${idOf(unitType.site)})` : ''}`,
});

export const searchUnits = searchListMethod({
	path: '/units',
	label: (unit) =>
		`${String(unit.reference_id ?? unit.id)} · ${String(unit.status ?? '')} (${idOf(unit.site)})`,
});

export const searchTenancies = searchListMethod({
	path: '/tenancies',
	label: (tenancy) =>
		`${String(tenancy.id)} · contact ${idOf(tenancy.contact)} · from ${day(tenancy.starts_at)}${
			tenancy.ends_at ? ` to ${day(tenancy.ends_at)}` : ''
		}`,
});

export const searchUnitAllocations = searchListMethod({
	path: '/unit_allocations',
	label: (allocation) =>
		`${String(allocation.id)} · unit ${idOf(allocation.unit)} · tenancy ${idOf(allocation.tenancy)}`,
});
