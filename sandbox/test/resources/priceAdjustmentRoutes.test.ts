/**
 * PATCH /2025-09/price_adjustments/:id over real HTTP, rule by rule (spec endpoint 4 and the price adjustment
 * state table). The seeded adjustments are read from the control plane (`/__sandbox/state/price_adjustments`),
 * since the API has no list or get endpoint for them.
 */
import type { Json } from '../calls';
import { useSandboxWithClients } from '../fixture';

const WRITE = 'public.price_adjustment:write';
const SKIP = 'public.price_adjustment:skip_notifications';
const DAY = 86_400_000;

const fx = useSandboxWithClients({
	seed: 'demo',
	resetEach: false,
	client: { redirect: 'follow' },
});
let today: string;

beforeAll(async () => {
	today = (await fx.control.info()).now.slice(0, 10);
});

const patch = (id: string, body: unknown, token?: string) =>
	fx.call('PATCH', `/2025-09/price_adjustments/${id}`, { body, token });

const adjustments = (): Promise<Json[]> => fx.control.state('price_adjustments');

/** The seeded drafts and the pending one, fresh from the store. */
async function seeded() {
	const all = await adjustments();
	const drafts = all.filter((a) => a.status === 'draft');
	return {
		all,
		notifying: drafts.filter((a) => typeof a.notification.notice_period === 'number'),
		skipping: drafts.find((a) => a.notification.notice_period === null)!,
		pending: all.find((a) => a.status === 'pending')!,
	};
}

const subscriptionOf = async (adjustment: Json) =>
	(await fx.call('GET', `/2025-09/subscriptions/${adjustment.subscription.id as string}`)).body
		.subscription as Json;

const addDays = (date: string, days: number) =>
	new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);
function addMonths(date: string, months: number): string {
	const d = new Date(`${date}T00:00:00Z`);
	const day = d.getUTCDate();
	d.setUTCDate(1);
	d.setUTCMonth(d.getUTCMonth() + months);
	d.setUTCDate(
		Math.min(day, new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate()),
	);
	return d.toISOString().slice(0, 10);
}
const nextRenewal = (subscription: Json, date: string, k: number) =>
	subscription.billing_period === 'weekly' ? addDays(date, 7 * k) : addMonths(date, k);

function expectedEstimation(subscription: Json, percentage: number, appliesTo: Json) {
	const covers: Record<string, string[]> = {
		unit_types: ['unit_type'],
		protection_levels: ['protection'],
		products: ['custom_product', 'product'],
	};
	let pre = 0;
	let change = 0;
	for (const line of subscription.line_items as Json[]) {
		const amount = (line.price.amount as number) * (line.quantity as number);
		pre += amount;
		if (
			Object.entries(covers).some(
				([k, types]) => appliesTo[k] === true && types.includes(line.type as string),
			)
		) {
			change += Math.round((amount * percentage) / 100);
		}
	}
	return { pre, post: pre + change };
}

describe('seed', () => {
	test('drafts (one skipping notification) and a pending adjustment with the documented fields', async () => {
		const { all, notifying, skipping, pending } = await seeded();
		expect(notifying.length).toBeGreaterThanOrEqual(2);
		expect(skipping).toBeDefined();
		expect(pending).toBeDefined();
		for (const a of all) {
			expect(Object.keys(a).sort()).toEqual(
				[
					'adjust_on',
					'adjustment',
					'applies_to',
					'created_at',
					'estimation',
					'id',
					'invoice',
					'notification',
					'percentage',
					'status',
					'subscription',
					'updated_at',
				].sort(),
			);
			expect(a.id).toMatch(/^pradj_/);
			expect(a.adjust_on > today).toBe(true);
			const subscription = await subscriptionOf(a);
			const { pre, post } = expectedEstimation(
				subscription,
				a.percentage as number,
				a.applies_to as Json,
			);
			expect(a.estimation.pre_amount.amount).toBe(pre);
			expect(a.estimation.post_amount.amount).toBe(post);
		}
		expect(all.some((a) => (a.percentage as number) < 0)).toBe(true);
		expect(notifying[0].notification.scheduled_at).toBe(
			addDays(
				notifying[0].adjust_on as string,
				-(notifying[0].notification.notice_period as number),
			),
		);
	});
});

describe('PATCH /price_adjustments/:id', () => {
	test('404 for an unknown adjustment; scope public.price_adjustment:write required', async () => {
		const missing = await patch('pradj_doesnotexist0', { percentage: 5 });
		expect(missing.status).toBe(404);
		expect(missing.body.error.code).toBe('resource_not_found');
		const { notifying } = await seeded();
		const readOnly = await fx.control.token(['public.subscription:read']);
		const denied = await patch(notifying[0].id as string, { percentage: 5 }, readOnly);
		expect(denied.status).toBe(403);
		expect(denied.body.error.code).toBe('forbidden');
		expect(denied.body.error.message).toContain(WRITE);
	});

	test('a pending adjustment is 409 adjustment_already_scheduled, whatever the body', async () => {
		const { pending } = await seeded();
		for (const body of [{ percentage: 4 }, { percentage: 0 }, {}]) {
			const response = await patch(pending.id as string, body);
			expect(response.status).toBe(409);
			expect(response.body.error.code).toBe('adjustment_already_scheduled');
		}
		expect((await seeded()).pending).toEqual(pending);
	});

	test('percentage must be a non-zero number greater than -100', async () => {
		const draft = (await seeded()).notifying[0];
		for (const percentage of [0, -100, -150, '5']) {
			const response = await patch(draft.id as string, { percentage });
			expect(response.status).toBe(422);
			expect(response.body.error.code).toBe('invalid_content');
			expect(response.body.error.details[0].pointer).toBe('/percentage');
		}
		const ok = await patch(draft.id as string, { percentage: -99.5 });
		expect(ok.status).toBe(200);
		expect(ok.body.price_adjustment.percentage).toBe(-99.5);
	});

	test('omitted fields stay unchanged; estimation recomputed from the subscription on every update', async () => {
		const draft = (await seeded()).notifying[0];
		const subscription = await subscriptionOf(draft);
		const response = await patch(draft.id as string, { percentage: 12.5 });
		expect(response.status).toBe(200);
		const updated = response.body.price_adjustment as Json;
		expect(updated).toMatchObject({
			id: draft.id,
			status: 'draft',
			adjust_on: draft.adjust_on,
			applies_to: draft.applies_to,
			subscription: draft.subscription,
			notification: { notice_period: draft.notification.notice_period },
		});
		const { pre, post } = expectedEstimation(subscription, 12.5, draft.applies_to as Json);
		expect(updated.estimation.pre_amount).toMatchObject({ amount: pre, currency: 'GBP' });
		expect(updated.estimation.post_amount.amount).toBe(post);
		expect(post).not.toBe(draft.estimation.post_amount.amount);
		expect(Date.parse(updated.updated_at as string)).toBeGreaterThanOrEqual(
			Date.parse(draft.updated_at as string),
		);

		const expanded = await fx.call(
			'PATCH',
			`/2025-09/price_adjustments/${draft.id as string}?expand=subscription`,
			{ body: {} },
		);
		expect(expanded.status).toBe(200);
		expect(expanded.body.price_adjustment.subscription.billing_period).toBe(
			subscription.billing_period,
		);
	});

	test('applies_to options merge; at least one must stay true', async () => {
		const draft = (await seeded()).notifying.find(
			(a) => a.applies_to.unit_types === true && a.applies_to.protection_levels === false,
		)!;
		const subscription = await subscriptionOf(draft);
		const merged = await patch(draft.id as string, { applies_to: { protection_levels: true } });
		expect(merged.status).toBe(200);
		const appliesTo = merged.body.price_adjustment.applies_to as Json;
		expect(appliesTo).toEqual({ ...draft.applies_to, protection_levels: true });
		const { post } = expectedEstimation(subscription, draft.percentage as number, appliesTo);
		expect(merged.body.price_adjustment.estimation.post_amount.amount).toBe(post);

		const none = await patch(draft.id as string, {
			applies_to: { unit_types: false, protection_levels: false, products: false },
		});
		expect(none.status).toBe(422);
		expect(none.body.error.code).toBe('invalid_content');
		expect(none.body.error.details[0].pointer).toBe('/applies_to');
		const notBoolean = await patch(draft.id as string, { applies_to: { unit_types: 'yes' } });
		expect(notBoolean.status).toBe(422);
		expect(notBoolean.body.error.details[0].pointer).toBe('/applies_to/unit_types');
		// Nothing was applied by the rejected updates.
		expect((await adjustments()).find((a) => a.id === draft.id)!.applies_to).toEqual(appliesTo);
	});

	test('the subscription cannot be changed; unknown members are rejected', async () => {
		const draft = (await seeded()).notifying[0];
		const moved = await patch(draft.id as string, { subscription: { id: 'sub_other0000000000' } });
		expect(moved.status).toBe(422);
		expect(moved.body.error.code).toBe('invalid_content');
		expect(moved.body.error.details[0].pointer).toBe('/subscription');
		const unknown = await patch(draft.id as string, { status: 'pending' });
		expect(unknown.status).toBe(422);
		expect(unknown.body.error.details[0].pointer).toBe('/status');
		expect((await adjustments()).find((a) => a.id === draft.id)!.status).toBe('draft');
	});

	test('effective_from re-resolves adjust_on to the first renewal on or after it', async () => {
		const draft = (await seeded()).notifying.find(
			(a) => (a.notification.notice_period as number) <= 45,
		)!;
		const subscription = await subscriptionOf(draft);
		const renewal = (subscription.current_period.ends_at as string).slice(0, 10);
		// Two periods ahead exactly, then one day later (→ the renewal after that).
		const target = nextRenewal(subscription, renewal, 3);
		const exact = await patch(draft.id as string, { effective_from: target });
		expect(exact.status).toBe(200);
		expect(exact.body.price_adjustment.adjust_on).toBe(target);
		const later = await patch(draft.id as string, { effective_from: addDays(target, 1) });
		expect(later.body.price_adjustment.adjust_on).toBe(nextRenewal(subscription, renewal, 4));
		const notice = later.body.price_adjustment.notification as Json;
		expect(notice.notice_period).toBe(draft.notification.notice_period);
		expect(notice.scheduled_at).toBe(
			addDays(later.body.price_adjustment.adjust_on as string, -(notice.notice_period as number)),
		);

		for (const effective_from of ['tomorrow', '2026-02-30', '2026-13-45', 20260101]) {
			const bad = await patch(draft.id as string, { effective_from });
			expect(bad.status).toBe(422);
			expect(bad.body.error.details[0].pointer).toBe('/effective_from');
		}
	});

	test('moving adjust_on before the existing notice period reads back send_immediately', async () => {
		const draft = (await seeded()).notifying.find(
			(a) => (a.notification.notice_period as number) >= 30,
		)!;
		const subscription = await subscriptionOf(draft);
		const renewal = (subscription.current_period.ends_at as string).slice(0, 10);
		expect(addDays(renewal, -(draft.notification.notice_period as number)) < today).toBe(true);

		const response = await patch(draft.id as string, { effective_from: 'next_billing_period' });
		expect(response.status).toBe(200);
		const updated = response.body.price_adjustment as Json;
		expect(updated.adjust_on).toBe(renewal);
		expect(updated.notification).toEqual({
			notice_period: 'send_immediately',
			scheduled_at: today,
			sent_at: null,
		});

		// An explicit notice period that fits replaces it.
		const days = Math.round(
			(Date.parse(`${renewal}T00:00:00Z`) - Date.parse(`${today}T00:00:00Z`)) / DAY,
		);
		const fits = await patch(draft.id as string, { notification: { notice_period: days } });
		expect(fits.status).toBe(200);
		expect(fits.body.price_adjustment.notification).toEqual({
			notice_period: days,
			scheduled_at: today,
			sent_at: null,
		});
	});

	test('an explicit notice period that would notify in the past is invalid_notice_period', async () => {
		const draft = (await seeded()).notifying[1];
		const days = Math.round(
			(Date.parse(`${draft.adjust_on as string}T00:00:00Z`) - Date.parse(`${today}T00:00:00Z`)) /
				DAY,
		);
		const tooLong = await patch(draft.id as string, { notification: { notice_period: days + 1 } });
		expect(tooLong.status).toBe(422);
		expect(tooLong.body.error.code).toBe('invalid_notice_period');
		expect(tooLong.body.error.details[0].pointer).toBe('/notification/notice_period');
		// Moving adjust_on in the same request is taken into account.
		const moved = await patch(draft.id as string, {
			effective_from: 'next_billing_period',
			notification: { notice_period: days },
		});
		expect(moved.status).toBe(422);
		expect(moved.body.error.code).toBe('invalid_notice_period');
		expect((await adjustments()).find((a) => a.id === draft.id)!.adjust_on).toBe(draft.adjust_on);

		const exact = await patch(draft.id as string, { notification: { notice_period: days } });
		expect(exact.status).toBe(200);
		expect(exact.body.price_adjustment.notification.scheduled_at).toBe(today);
		const negative = await patch(draft.id as string, { notification: { notice_period: -1 } });
		expect(negative.status).toBe(422);
		expect(negative.body.error.code).toBe('invalid_content');
		const omitted = await patch(draft.id as string, { notification: {} });
		expect(omitted.body.price_adjustment.notification.notice_period).toBe(days);
	});

	test('skipping notification needs public.price_adjustment:skip_notifications', async () => {
		const { notifying, skipping } = await seeded();
		const writeOnly = await fx.control.token([WRITE]);
		const withSkip = await fx.control.token([WRITE, SKIP]);

		// Setting a null notice period.
		const draft = notifying[notifying.length - 1];
		const denied = await patch(
			draft.id as string,
			{ notification: { notice_period: null } },
			writeOnly,
		);
		expect(denied.status).toBe(403);
		expect(denied.body.error.code).toBe('forbidden');
		expect(denied.body.error.message).toContain(SKIP);
		expect((await adjustments()).find((a) => a.id === draft.id)!.notification.notice_period).toBe(
			draft.notification.notice_period,
		);
		const allowed = await patch(
			draft.id as string,
			{ notification: { notice_period: null } },
			withSkip,
		);
		expect(allowed.status).toBe(200);
		expect(allowed.body.price_adjustment.notification).toEqual({
			notice_period: null,
			scheduled_at: null,
			sent_at: null,
		});

		// Any update of a draft that already skips notification.
		const touch = await patch(skipping.id as string, { percentage: 2 }, writeOnly);
		expect(touch.status).toBe(403);
		expect(touch.body.error.message).toContain(SKIP);
		const touched = await patch(skipping.id as string, { percentage: 2 }, withSkip);
		expect(touched.status).toBe(200);
		expect(touched.body.price_adjustment).toMatchObject({
			percentage: 2,
			notification: { notice_period: null },
		});

		// The all-scope startup token holds the skip scope too; a notifying draft needs no extra scope.
		const plain = await patch(notifying[0].id as string, { percentage: 3 }, writeOnly);
		expect(plain.status).toBe(200);
	});
});
