/** Coupons: list (sort by created_at/updated_at, created/updated windows) and get. */
import type { ApiRecord, ResourceModule } from '../../core/types';
import { money, registerReadable, type SeedWriter } from './shared';

export const coupons: ResourceModule = {
	register(api) {
		registerReadable(
			api,
			{ name: 'coupons', key: 'coupon', prefix: 'cpn_', scope: 'coupon' },
			{
				path: 'coupons',
				param: 'coupon_id',
				spec: {
					sortBy: ['created_at', 'updated_at'],
					windows: { created: 'created_at', updated: 'updated_at' },
				},
			},
		);
	},
};

/** Demo seed: a repeating percentage coupon, a fixed amount and a student discount. */
export function seedCoupons(w: SeedWriter): ApiRecord[] {
	const { core, put, ago, stamp } = w;
	return [
		put('coupons', {
			id: core.newId('cpn_'),
			type: 'percentage',
			percent: 50,
			auto_apply_to: { products: false, protections: false, subscriptions: true, unit_types: true },
			billing_period: 'monthly',
			code: 'HALF3',
			duration: 'repeating',
			months: 3,
			max_redemptions: 100,
			name: 'Half price for 3 months',
			public: true,
			title: '50% off your first 3 months',
			...stamp(400),
		}),
		put('coupons', {
			id: core.newId('cpn_'),
			type: 'amount',
			amount: money(core, 1000),
			auto_apply_to: {
				products: false,
				protections: false,
				subscriptions: false,
				unit_types: false,
			},
			billing_period: null,
			code: 'TENOFF',
			duration: 'forever',
			months: null,
			max_redemptions: null,
			name: '£10 off',
			public: false,
			title: null,
			created_at: ago(300),
			updated_at: ago(20),
		}),
		put('coupons', {
			id: core.newId('cpn_'),
			type: 'percentage',
			percent: 10,
			auto_apply_to: { products: true, protections: true, subscriptions: true, unit_types: true },
			billing_period: null,
			code: null,
			duration: 'forever',
			months: null,
			max_redemptions: null,
			name: 'Student discount',
			public: true,
			title: '10% off for students',
			...stamp(120),
		}),
	];
}
