/**
 * The inventory resource modules of the sandbox: sites, unit types, units, unit allocations, tenancies and the images
 * of sites and unit types. Their demo records are seeded with billing's (../billing/index.ts), whose seed needs them
 * registered first.
 */
import type { ResourceModule } from '../../core/types';
import { images } from './images';
import { sites } from './sites';
import { tenancies } from './tenancies';
import { unitAllocations } from './unitAllocations';
import { unitTypes } from './unitTypes';
import { units } from './units';

export const modules: ResourceModule[] = [
	sites,
	unitTypes,
	units,
	unitAllocations,
	tenancies,
	images,
];
