/** Products: list, get, and POST /products/:id/base_price. */
import type { ApiRecord, ResourceModule } from '../../core/types';
import {
	priceEntry,
	registerBasePrice,
	registerReadable,
	round100,
	type SeedWriter,
} from './shared';

export const products: ResourceModule = {
	register(api) {
		registerReadable(
			api,
			{ name: 'products', key: 'product', prefix: 'prod_', scope: 'product' },
			{ path: 'products', param: 'product_id', spec: { sortBy: ['created_at'] } },
		);
		registerBasePrice(api, {
			path: 'products',
			param: 'product_id',
			collection: 'products',
			scope: 'product',
		});
	},
};

/** Demo seed: five products (one-time and recurring), one site each in turn; the fourth is the parking space. */
export function seedProducts(
	w: SeedWriter,
	categories: ApiRecord[],
	sites: ApiRecord[],
): ApiRecord[] {
	const { core, put, stamp } = w;
	const productSpecs = [
		{ name: 'Disc padlock', category: 1, charge: 'one_time', amount: 999, sku: 'LOCK-DISC' },
		{ name: 'Large double-wall box', category: 0, charge: 'one_time', amount: 450, sku: 'BOX-L' },
		{ name: 'Bubble wrap roll', category: 0, charge: 'one_time', amount: 1200, sku: null },
		{ name: 'Parking space', category: 2, charge: 'recurring', amount: 3500, sku: 'PARK' },
		{ name: 'Van hire (half day)', category: 2, charge: 'one_time', amount: 2500, sku: 'VAN-HALF' },
	];
	return productSpecs.map((p, i) =>
		put('products', {
			id: core.newId('prod_'),
			name: p.name,
			description: `${p.name} available at reception.`,
			accounting_code: `PRD-${100 + i}`,
			sku: p.sku,
			category: { id: categories[p.category].id },
			charge_type: p.charge,
			prices:
				p.charge === 'one_time'
					? [priceEntry(core, 'one_time', p.amount)]
					: [
							priceEntry(core, 'monthly', p.amount),
							priceEntry(core, 'weekly', round100(p.amount / 4)),
						],
			site: { id: sites[i % sites.length].id },
			...stamp(450 - i),
		}),
	);
}
