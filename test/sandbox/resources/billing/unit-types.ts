/** Unit types: list, get, and POST /unit_types/:id/base_price. */
import type { ApiRecord, ResourceModule, SandboxCore } from '../../core/types';
import { absoluteImages, amountOf, money, registerBasePrice, registerReadable, type PriceEntry } from './shared';

/** Live prices: the base prices, raised 10% when dynamic pricing is on. */
export function livePrices(core: SandboxCore, dynamic: boolean, prices: PriceEntry[]): PriceEntry[] {
	return prices.map((p) => ({
		...p,
		price: money(core, dynamic ? Math.round((amountOf(p.price) * 1.1) / 100) * 100 : amountOf(p.price)),
	}));
}

export const unitTypes: ResourceModule = {
	register(api) {
		registerReadable(
			api,
			{ name: 'unit_types', key: 'unit_type', prefix: 'utype_', scope: 'unit_type', render: absoluteImages },
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
