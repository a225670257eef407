/**
 * Price adjustments: PATCH /price_adjustments/:id (spec endpoint 4 and the price adjustment state table).
 *
 * Order of checks: 404 → 409 `adjustment_already_scheduled` (pending) → 422 body schema (percentage non-zero and
 * > -100, effective_from a date or `next_billing_period`, unknown members such as `subscription`) → 403 `forbidden`
 * naming `public.price_adjustment:skip_notifications` (null notice period, or the draft already skips
 * notification) → 422 `/applies_to` (nothing left true) → 422 `invalid_notice_period` (an explicit notice period
 * that would notify before today). Then `adjust_on` is re-resolved (when `effective_from` is given) to the
 * subscription's first renewal on or after it, the notice reads back `send_immediately` when the existing one no
 * longer fits, and the estimation is recomputed.
 */
import { ApiError, conflict, forbidden, invalidContent } from '../../core/errors';
import type { ApiRecord, ErrorDetail, ResourceModule, SandboxCore } from '../../core/types';
import { validateBody, type Schema } from '../../core/validate';
import { renewalOnOrAfter } from './subscriptions';
import {
	V,
	addDays,
	amountOf,
	arr,
	dateOnly,
	money,
	num,
	obj,
	parseDate,
	refId,
	startOfDay,
	type SeedWriter,
} from './shared';

export const SKIP_NOTIFICATIONS = 'public.price_adjustment:skip_notifications';
export const SEND_IMMEDIATELY = 'send_immediately';

const SCHEMA: Schema = {
	percentage: { type: 'number', notZero: true, exclusiveMin: -100 },
	effective_from: { type: 'string', pattern: /^(\d{4}-\d{2}-\d{2}|next_billing_period)$/ },
	applies_to: {
		type: 'object',
		fields: {
			unit_types: { type: 'boolean' },
			protection_levels: { type: 'boolean' },
			products: { type: 'boolean' },
		},
	},
	notification: {
		type: 'object',
		fields: { notice_period: { type: 'integer', min: 0, nullable: true } },
	},
};

/** Which subscription line item types an `applies_to` option covers. */
const COVERS: Record<string, string[]> = {
	unit_types: ['unit_type'],
	protection_levels: ['protection'],
	products: ['custom_product', 'product'],
};

/** `{pre_amount, post_amount}`: the subscription's recurring amount before and after the adjustment. */
export function estimation(
	core: SandboxCore,
	subscription: ApiRecord | undefined,
	percentage: number,
	appliesTo: Record<string, unknown>,
) {
	let pre = 0;
	let change = 0;
	for (const line of arr(subscription?.line_items).map(obj)) {
		const amount = amountOf(line.price) * (num(line.quantity) || 1);
		pre += amount;
		const covered = Object.entries(COVERS).some(
			([option, types]) => appliesTo[option] === true && types.includes(String(line.type)),
		);
		if (covered) change += Math.round((amount * percentage) / 100);
	}
	return { pre_amount: money(core, pre), post_amount: money(core, pre + change) };
}

/** The notification object for a notice period and adjustment date. */
export function notification(
	noticePeriod: number | string | null,
	adjustOn: string,
	today: Date,
	sentAt: unknown = null,
) {
	const scheduled =
		noticePeriod === null
			? null
			: noticePeriod === SEND_IMMEDIATELY
				? dateOnly(today)
				: dateOnly(addDays(parseDate(adjustOn), -Number(noticePeriod)));
	return { notice_period: noticePeriod, scheduled_at: scheduled, sent_at: sentAt ?? null };
}

/** A real calendar date (no 2026-02-30). */
function isCalendarDate(value: string): boolean {
	const date = parseDate(value);
	return !isNaN(date.getTime()) && dateOnly(date) === value;
}

/** The `invalid_content` details of a schema check (none when the body is valid). */
function schemaProblems(body: unknown): ErrorDetail[] {
	try {
		validateBody(body, SCHEMA);
		return [];
	} catch (error) {
		return error instanceof ApiError ? error.details : [{ message: String(error), pointer: null }];
	}
}

function validate(body: unknown): Record<string, unknown> {
	const details = schemaProblems(body).map((d) =>
		d.pointer === '/subscription'
			? { message: 'The subscription of a price adjustment cannot be changed', pointer: d.pointer }
			: d,
	);
	if (!body || typeof body !== 'object') throw invalidContent(details);
	const from = (body as Record<string, unknown>).effective_from;
	if (typeof from === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(from) && !isCalendarDate(from)) {
		details.push({
			message:
				'The value at /effective_from must be a valid date (YYYY-MM-DD) or next_billing_period',
			pointer: '/effective_from',
		});
	}
	if (details.length) throw invalidContent(details);
	return body as Record<string, unknown>;
}

export const priceAdjustments: ResourceModule = {
	register(api) {
		api.collection({
			name: 'price_adjustments',
			key: 'price_adjustment',
			prefix: 'pradj_',
			scope: 'price_adjustment',
		});
		api.route(
			'PATCH',
			`${V}/price_adjustments/:price_adjustment_id`,
			{ scopes: ['public.price_adjustment:write'] },
			(ctx) => {
				const core = ctx.sandbox;
				const record = core.mustGet('price_adjustments', ctx.params.price_adjustment_id);
				if (record.status !== 'draft') {
					throw conflict(
						`Price adjustment ${record.id} is already scheduled; delete it and create a new one to change it`,
						'adjustment_already_scheduled',
					);
				}
				const body = validate(ctx.body);
				const current = obj(record.notification);
				const bodyNotification =
					body.notification === undefined ? undefined : obj(body.notification);
				const givesNotice = bodyNotification !== undefined && 'notice_period' in bodyNotification;
				const skips =
					(givesNotice && bodyNotification.notice_period === null) ||
					current.notice_period === null;
				if (skips && !ctx.caller.scopes.includes(SKIP_NOTIFICATIONS))
					throw forbidden(SKIP_NOTIFICATIONS);

				const appliesTo = { ...obj(record.applies_to), ...obj(body.applies_to) };
				if (!['unit_types', 'protection_levels', 'products'].some((k) => appliesTo[k] === true)) {
					throw invalidContent([
						{
							message:
								'At least one of applies_to unit_types, protection_levels or products must be true',
							pointer: '/applies_to',
						},
					]);
				}

				const today = startOfDay(core.now());
				const subscription = core.get('subscriptions', refId(record.subscription) ?? '');
				let adjustOn = String(record.adjust_on);
				if (typeof body.effective_from === 'string') {
					const from =
						body.effective_from === 'next_billing_period' ? today : parseDate(body.effective_from);
					const renewal = subscription ? renewalOnOrAfter(subscription, from, today) : null;
					if (!renewal) {
						throw invalidContent([
							{
								message: 'The subscription has no renewal on or after effective_from',
								pointer: '/effective_from',
							},
						]);
					}
					adjustOn = dateOnly(renewal);
				}

				let noticePeriod = current.notice_period as number | string | null;
				if (givesNotice) {
					noticePeriod = bodyNotification.notice_period as number | null;
					if (noticePeriod !== null && addDays(parseDate(adjustOn), -noticePeriod) < today) {
						throw new ApiError(
							422,
							'invalid_notice_period',
							`A notice period of ${noticePeriod} days before ${adjustOn} would notify the customer in the past`,
							[
								{
									message: `The notice period must be at most ${Math.max(0, Math.round((parseDate(adjustOn).getTime() - today.getTime()) / 86_400_000))} days`,
									pointer: '/notification/notice_period',
								},
							],
						);
					}
				} else if (
					typeof noticePeriod === 'number' &&
					adjustOn !== record.adjust_on &&
					addDays(parseDate(adjustOn), -noticePeriod) < today
				) {
					noticePeriod = SEND_IMMEDIATELY;
				}

				const percentage =
					typeof body.percentage === 'number' ? body.percentage : num(record.percentage);
				const updated = core.update('price_adjustments', record.id, {
					percentage,
					adjust_on: adjustOn,
					applies_to: appliesTo,
					notification: notification(noticePeriod, adjustOn, today, current.sent_at),
					estimation: estimation(core, subscription, percentage, appliesTo),
				});
				return core.single(ctx, 'price_adjustments', updated);
			},
		);
	},
};

/** Demo seed: three drafts (one skips notification, one lowers prices) and one pending adjustment on the subscriptions of contacts 0..4. */
export function seedPriceAdjustments(w: SeedWriter, subscriptionsByContact: ApiRecord[]) {
	const { core, put, stamp, today } = w;
	const adjustmentSpecs: Array<{
		contact: number;
		status: string;
		percentage: number;
		notice: number | null;
		from: number;
		applies: [boolean, boolean, boolean];
	}> = [
		{
			contact: 0,
			status: 'draft',
			percentage: 5,
			notice: 30,
			from: 40,
			applies: [true, false, false],
		},
		{
			contact: 2,
			status: 'draft',
			percentage: 3.5,
			notice: null,
			from: 35,
			applies: [true, true, false],
		},
		{
			contact: 1,
			status: 'pending',
			percentage: 7,
			notice: 14,
			from: 21,
			applies: [true, false, false],
		},
		{
			contact: 4,
			status: 'draft',
			percentage: -10,
			notice: 45,
			from: 60,
			applies: [true, true, true],
		},
	];
	adjustmentSpecs.forEach((spec, n) => {
		const subscription = subscriptionsByContact[spec.contact];
		if (!subscription) return;
		const adjustOn = renewalOnOrAfter(subscription, addDays(today, spec.from), today);
		if (!adjustOn) return;
		const appliesTo = {
			products: spec.applies[2],
			protection_levels: spec.applies[1],
			unit_types: spec.applies[0],
		};
		put('price_adjustments', {
			id: core.newId('pradj_'),
			adjust_on: dateOnly(adjustOn),
			adjustment: null,
			applies_to: appliesTo,
			estimation: estimation(core, subscription, spec.percentage, appliesTo),
			invoice: null,
			notification: notification(spec.notice, dateOnly(adjustOn), today),
			percentage: spec.percentage,
			status: spec.status,
			subscription: { id: subscription.id },
			...stamp(10 - n),
		});
	});
}
