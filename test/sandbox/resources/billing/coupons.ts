/** Coupons: list (sort by created_at/updated_at, created/updated windows) and get. */
import type { ResourceModule } from '../../core/types';
import { registerReadable } from './shared';

export const coupons: ResourceModule = {
	register(api) {
		registerReadable(
			api,
			{ name: 'coupons', key: 'coupon', prefix: 'cpn_', scope: 'coupon' },
			{
				path: 'coupons',
				param: 'coupon_id',
				spec: { sortBy: ['created_at', 'updated_at'], windows: { created: 'created_at', updated: 'updated_at' } },
			},
		);
	},
};
