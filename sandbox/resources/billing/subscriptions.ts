/**
 * Subscriptions: list and get. `current_period.ends_at` is the next renewal date; later renewals follow every
 * `billing_period` (see `renewalOnOrAfter`, used by price adjustments).
 */
import type { ApiRecord, ResourceModule } from '../../core/types';
import { addPeriods, obj, parseDate, registerReadable } from './shared';

/** The subscription's first renewal date on or after `date` (and after `today`); null if it never renews. */
export function renewalOnOrAfter(subscription: ApiRecord, date: Date, today: Date): Date | null {
	const ends = obj(subscription.current_period).ends_at;
	if (typeof ends !== 'string' || subscription.cancelled === true) return null;
	const first = parseDate(ends);
	const floor = Math.max(date.getTime(), today.getTime() + 1);
	for (let k = 0; k < 1000; k++) {
		const renewal = addPeriods(first, String(subscription.billing_period), k);
		if (!renewal) return k === 0 && first.getTime() >= floor ? first : null;
		if (renewal.getTime() >= floor) return renewal;
	}
	return null;
}

export const subscriptions: ResourceModule = {
	register(api) {
		registerReadable(
			api,
			{ name: 'subscriptions', key: 'subscription', prefix: 'sub_', scope: 'subscription' },
			{ path: 'subscriptions', param: 'subscription_id', spec: { sortBy: ['created_at'] } },
		);
	},
};
