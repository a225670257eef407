/** Tenancies: list (sort by created_at) and get. A tenancy is active while `ends_at` is null or in the future. */
import type { ApiRecord, ResourceModule } from '../../core/types';
import { ORDER_SOURCES, type OrderSeeder } from '../billing/orders';
import {
	addDays,
	addPeriods,
	iso,
	money,
	priceFor,
	registerReadable,
	startOfDay,
	type SeedWriter,
} from '../billing/shared';

export const tenancies: ResourceModule = {
	register(api) {
		registerReadable(
			api,
			{ name: 'tenancies', key: 'tenancy', prefix: 'ten_', scope: 'tenancy' },
			{ path: 'tenancies', param: 'tenancy_id', spec: { sortBy: ['created_at'] } },
		);
	},
};

const CUSTOMERS = 15;
const CHURNED = 5;

/**
 * Demo seed: for contacts 0..14 an active tenancy (order, unit allocation, subscription; even index monthly, odd
 * weekly, an occupied unit; contact 3 overlocked; 10 and 11 also hold a reserved unit); for 15..19 an ended one
 * (cancelled subscription, unit released). One function because the ids of these records interleave per contact.
 * Returns the subscriptions and tenancies by contact index.
 */
export function seedTenancies(
	w: SeedWriter,
	seeder: OrderSeeder,
	catalogue: {
		contacts: ApiRecord[];
		sites: ApiRecord[];
		unitTypes: ApiRecord[];
		freeUnit: (siteId: string, typeId: string) => ApiRecord | undefined;
		protectionLevels: ApiRecord[];
		parking: ApiRecord;
	},
) {
	const { core, put, ago, stamp, now, today } = w;
	const { contacts, sites, unitTypes, freeUnit, protectionLevels, parking } = catalogue;
	const subscriptionsByContact: ApiRecord[] = [];
	const tenancyByContact: ApiRecord[] = [];

	for (let i = 0; i < Math.min(contacts.length, CUSTOMERS + CHURNED); i++) {
		const contact = contacts[i];
		const churned = i >= CUSTOMERS;
		const site = sites[i % sites.length];
		const siteTypes = unitTypes.filter((t) => (t.site as { id: string }).id === site.id);
		const type = siteTypes[i % siteTypes.length];
		const unit = freeUnit(site.id, type.id) ?? freeUnit(site.id, siteTypes[0].id);
		if (!unit) continue;
		const period = i % 2 === 0 ? 'monthly' : 'weekly';
		const startDays = churned ? 400 + i * 7 : 30 * (i + 2);
		const start = ago(startDays);
		const endDays = 20 + (i - CUSTOMERS) * 10;
		const protection = i % 3 === 2 ? null : protectionLevels[i % protectionLevels.length];

		const subscriptionId = core.newId('sub_');
		const tenancyId = core.newId('ten_');
		const allocationId = core.newId('alloc_');
		const orderRecord = seeder.order({
			contact: contact.id,
			site,
			status: 'completed',
			source: ORDER_SOURCES[i % 4],
			period,
			created: ago(startDays + 2, i + 1),
			updated: ago(startDays, i + 1),
			startsAt: start,
			lines: [
				{ type: 'unit_type', item: type },
				...(protection ? [{ type: 'protection', item: protection }] : []),
				...(type.security_deposit ? [{ type: 'security_deposit', item: type }] : []),
			],
			subscription: subscriptionId,
			tenancy: tenancyId,
		});

		const allocations = [{ id: allocationId }];
		put('unit_allocations', {
			id: allocationId,
			created_at: ago(startDays + 1),
			updated_at: ago(churned ? endDays : startDays),
			granted_access_at: ago(startDays),
			reserved_at: ago(startDays + 1),
			tenancy: { id: tenancyId },
			unit: { id: unit.id },
		});
		if (churned) {
			unit.updated_at = ago(endDays);
		} else {
			unit.status = i === 3 ? 'overlocked' : 'occupied';
			unit.unit_allocation = { id: allocationId };
			unit.updated_at = ago(i === 3 ? 5 : startDays);
		}
		if (!churned && (i === 10 || i === 11)) {
			// A second unit reserved ahead of a move-in next week.
			const other = siteTypes.find((t) => t.id !== type.id && freeUnit(site.id, t.id));
			const spare = other ? freeUnit(site.id, other.id) : undefined;
			if (spare) {
				const reservedId = core.newId('alloc_');
				put('unit_allocations', {
					id: reservedId,
					...stamp(1, i),
					granted_access_at: null,
					reserved_at: ago(1, i),
					tenancy: { id: tenancyId },
					unit: { id: spare.id },
				});
				spare.status = 'reserved';
				spare.unit_allocation = { id: reservedId };
				spare.updated_at = ago(1, i);
				allocations.push({ id: reservedId });
			}
		}

		// Renewal dates: the next one a few days ahead (active) or the end date (churned).
		const renewal = churned
			? startOfDay(addDays(now, -endDays))
			: addDays(today, period === 'monthly' ? 3 + i : 1 + (i % 6));
		const periodStart = addPeriods(renewal, period, -1)!;
		const lineItems = [
			{
				created_at: start,
				updated_at: start,
				item: { id: type.id },
				price: money(core, priceFor(type, period) ?? 0),
				quantity: 1,
				type: 'unit_type',
			},
			...(protection
				? [
						{
							created_at: start,
							updated_at: start,
							item: { id: protection.id },
							price: money(core, priceFor(protection, period) ?? 0),
							quantity: 1,
							type: 'protection',
						},
					]
				: []),
			...(i % 5 === 0
				? [
						{
							created_at: start,
							updated_at: start,
							item: { id: parking.id },
							price: money(core, priceFor(parking, period) ?? 0),
							quantity: 1,
							type: 'custom_product',
						},
					]
				: []),
		];
		const subscription = put('subscriptions', {
			id: subscriptionId,
			billing_period: period,
			cancellation_reason: churned ? (i % 2 ? 'no_longer_needed' : 'moved_out') : null,
			cancelled: churned,
			contact: { id: contact.id },
			site: { id: site.id },
			order: { id: orderRecord.id },
			tenancy: { id: tenancyId },
			current_period: { starts_at: iso(periodStart), ends_at: iso(renewal) },
			starts_at: start,
			ends_at: churned ? ago(endDays) : null,
			line_items: lineItems,
			payments_subscription_id: core.newId('sub_'),
			payments_subscription_schedule_id: i % 4 === 0 ? core.newId('sub_sched_') : null,
			created_at: start,
			updated_at: churned ? ago(endDays) : iso(periodStart),
		});
		const tenancy = put('tenancies', {
			id: tenancyId,
			contact: { id: contact.id },
			site: { id: site.id },
			order: { id: orderRecord.id },
			subscription: { id: subscriptionId },
			unit_allocations: churned ? [] : allocations,
			starts_at: start,
			ends_at: churned ? ago(endDays) : null,
			created_at: ago(startDays + 1),
			updated_at: churned ? ago(endDays) : ago(startDays),
		});
		subscriptionsByContact[i] = subscription;
		tenancyByContact[i] = tenancy;
	}
	return { subscriptionsByContact, tenancyByContact };
}
