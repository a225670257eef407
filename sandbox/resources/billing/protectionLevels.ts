/** Protection levels: list (sort by created_at), get, and POST /protection_levels/:id/base_price. */
import type { ApiRecord, ResourceModule } from '../../core/types';
import { money, priceEntry, registerBasePrice, registerReadable, type SeedWriter } from './shared';

export const protectionLevels: ResourceModule = {
	register(api) {
		registerReadable(
			api,
			{
				name: 'protection_levels',
				key: 'protection_level',
				prefix: 'plvl_',
				scope: 'protection_level',
			},
			{ path: 'protection_levels', param: 'protection_level_id', spec: { sortBy: ['created_at'] } },
		);
		registerBasePrice(api, {
			path: 'protection_levels',
			param: 'protection_level_id',
			collection: 'protection_levels',
			scope: 'protection_level',
		});
	},
};

/** Demo seed: three cover levels, the first without an account code, the last not public. */
export function seedProtectionLevels(w: SeedWriter): ApiRecord[] {
	const { core, put, stamp } = w;
	return [100000, 250000, 500000].map((cover, i) =>
		put('protection_levels', {
			id: core.newId('plvl_'),
			account_code: i === 0 ? null : `PROT-${i + 1}`,
			cover_level: money(core, cover),
			prices: [
				priceEntry(core, 'monthly', 500 + i * 500),
				priceEntry(core, 'weekly', 150 + i * 120),
			],
			public: i < 2,
			payments_product_id: core.newId('prod_'),
			...stamp(500 - i),
		}),
	);
}
