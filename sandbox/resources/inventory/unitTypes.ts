/** Unit types: list, get, and POST /unit_types/:id/base_price. */
import type { ApiRecord, ResourceModule, SandboxCore } from '../../core/types';
import {
	amountOf,
	money,
	priceEntry,
	registerBasePrice,
	registerReadable,
	round100,
	type PriceEntry,
	type SeedWriter,
} from '../billing/shared';
import { absoluteImages, imageSet } from './imageFiles';
import { SITES } from './sites';
import { seedUnits } from './units';

/** Live prices: the base prices, raised 10% when dynamic pricing is on. */
export function livePrices(
	core: SandboxCore,
	dynamic: boolean,
	prices: PriceEntry[],
): PriceEntry[] {
	return prices.map((p) => ({
		...p,
		price: money(
			core,
			dynamic ? Math.round((amountOf(p.price) * 1.1) / 100) * 100 : amountOf(p.price),
		),
	}));
}

export const unitTypes: ResourceModule = {
	register(api) {
		registerReadable(
			api,
			{
				name: 'unit_types',
				key: 'unit_type',
				prefix: 'utype_',
				scope: 'unit_type',
				render: absoluteImages,
			},
			{ path: 'unit_types', param: 'unit_type_id', spec: { sortBy: ['created_at'] } },
		);
		registerBasePrice(api, {
			path: 'unit_types',
			param: 'unit_type_id',
			collection: 'unit_types',
			scope: 'unit_type',
			extra: (record: ApiRecord, prices, core) => ({
				live_prices: livePrices(core, record.dynamic_pricing === true, prices),
			}),
		});
	},
};

const UNIT_TYPES = [
	{
		name: 'Small locker',
		slug: 'small-locker',
		size: '25 sq ft',
		dims: [5, 5, 7],
		monthly: 4500,
		weekly: 1100,
		deposit: null as number | null,
	},
	{
		name: 'Medium room',
		slug: 'medium-room',
		size: '50 sq ft',
		dims: [10, 5, 8],
		monthly: 8900,
		weekly: 2200,
		deposit: 5000,
	},
	{
		name: 'Large room',
		slug: 'large-room',
		size: '100 sq ft',
		dims: [10, 10, 8],
		monthly: 15900,
		weekly: 3900,
		deposit: 10000,
	},
];

/** Demo seed: three unit types per site (the large one dynamically priced) and their units, in id order. */
export function seedUnitTypes(
	w: SeedWriter,
	sites: ApiRecord[],
	coupons: ApiRecord[],
): { unitTypes: ApiRecord[]; units: ApiRecord[] } {
	const { core, put, stamp } = w;
	const unitTypes: ApiRecord[] = [];
	const units: ApiRecord[] = [];
	sites.forEach((site, s) => {
		UNIT_TYPES.forEach((t, k) => {
			const id = core.newId('utype_');
			const prices: PriceEntry[] = [
				priceEntry(core, 'monthly', round100(t.monthly * SITES[s].factor)),
				priceEntry(core, 'weekly', round100(t.weekly * SITES[s].factor)),
			];
			const dynamic = k === 2;
			unitTypes.push(
				put('unit_types', {
					id,
					_links: {
						'sf:new_order': {
							href: `/book/${t.slug}?site=${SITES[s].code.toLowerCase()}`,
							title: `Book a ${t.name.toLowerCase()}`,
						},
					},
					dimensions: {
						height: t.dims[2],
						length: t.dims[1],
						width: t.dims[0],
						measurement_unit: 'ft',
					},
					dynamic_pricing: dynamic,
					images: { default: k < 2 ? imageSet(id, 'unit-type-photo.png') : null },
					live_prices: livePrices(core, dynamic, prices),
					prices,
					name: t.name,
					promotion: s === 0 && k === 1 ? { id: coupons[0].id } : null,
					require_insurance_coverage: k > 0,
					require_security_deposit: t.deposit !== null,
					security_deposit: t.deposit === null ? null : money(core, t.deposit),
					selling_points: [
						'Drive-up access',
						k === 0 ? 'Fits a small flat clear-out' : 'Fits a one-bedroom flat',
					],
					site: { id: site.id },
					size_description: t.size,
					slug: t.slug,
					status: 'bookable',
					payments_product_id: core.newId('prod_'),
					...stamp(850 - s * 100 - k),
				}),
			);
			units.push(...seedUnits(w, site, s, id, k));
		});
	});
	return { unitTypes, units };
}
