import type { INodeParameters } from 'n8n-workflow';

import { locator as rl, runStora, tokenCredentials } from '../../helpers/n8n';
import { type StateRecord } from '../../../sandbox/client';
import { useResourceFixture } from '../../helpers/sandboxFixture';

type Notification = { notice_period: number | string | null; scheduled_at: string | null };

const SKIP_SCOPE = 'public.price_adjustment:skip_notifications';
const addDays = (date: string, days: number) =>
	new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

describe('Stora node: Price Adjustment', () => {
	const fixture = useResourceFixture();
	const { client } = fixture;

	const adjustments = async () => await client.state('price_adjustments');
	/** A draft that notifies the customer (the seed also has a draft that skips notification, and a pending one). */
	const notifyingDraft = async () =>
		(await adjustments()).find(
			(record) =>
				record.status === 'draft' &&
				typeof (record.notification as Notification).notice_period === 'number',
		) as StateRecord;
	const update = (
		id: string,
		updateFields: Record<string, unknown>,
		token = fixture.sandbox.token,
	) =>
		runStora({
			credentials: tokenCredentials(fixture.sandbox.url, token),
			parameters: {
				resource: 'priceAdjustment',
				operation: 'update',
				priceAdjustmentId: rl(id),
				updateFields: updateFields as INodeParameters,
			},
		});

	it('updates a draft: percentage, effective date, what it applies to and the notice period', async () => {
		const draft = await notifyingDraft();
		const from = addDays(String(draft.adjust_on), 10);
		const result = await update(draft.id, {
			percentage: 7.5,
			effectiveFrom: from,
			applyToUnitTypes: true,
			applyToProtectionLevels: true,
			applyToProducts: false,
			noticePeriod: 20,
		});
		expect(result.error).toBeUndefined();
		const requests = await client.requests();
		expect(requests).toHaveLength(1);
		expect(requests[0]).toMatchObject({
			method: 'PATCH',
			path: `/2025-09/price_adjustments/${draft.id}`,
		});
		expect(requests[0].body).toEqual({
			percentage: 7.5,
			effective_from: from,
			applies_to: { unit_types: true, protection_levels: true, products: false },
			notification: { notice_period: 20 },
		});
		const updated = (await adjustments()).find((record) => record.id === draft.id)!;
		expect(result.items.map((item) => item.json)).toEqual([updated]);
		expect(updated).toMatchObject({
			percentage: 7.5,
			status: 'draft',
			applies_to: { unit_types: true, protection_levels: true, products: false },
		});
		// adjust_on is re-resolved to the first renewal on or after the date, and the notice follows it.
		expect(String(updated.adjust_on) >= from).toBe(true);
		expect(updated.notification).toMatchObject({
			notice_period: 20,
			scheduled_at: addDays(String(updated.adjust_on), -20),
		});
		expect(updated.estimation).not.toEqual(draft.estimation);
	});

	it('sends next_billing_period as is, and the calendar date of a date-time from an expression', async () => {
		const draft = await notifyingDraft();
		const subscription = (await client.state('subscriptions')).find(
			(record) => record.id === (draft.subscription as { id: string }).id,
		)!;
		const next = await update(draft.id, { effectiveFrom: 'next_billing_period' });
		expect(next.error).toBeUndefined();
		// The next renewal is days away: the 30-day notice no longer fits and reads back as send_immediately.
		const renewal = String((subscription.current_period as { ends_at: string }).ends_at).slice(
			0,
			10,
		);
		expect(next.items[0].json).toMatchObject({
			adjust_on: renewal,
			notification: { notice_period: 'send_immediately' },
		});

		const at = addDays(String(draft.adjust_on), 3);
		const later = await update(draft.id, { effectiveFrom: `${at}T10:30:00.000+01:00` });
		expect(later.error).toBeUndefined();
		expect(String(later.items[0].json.adjust_on) >= at).toBe(true);
		const bodies = (await client.requests()).map((request) => request.body);
		expect(bodies).toEqual([{ effective_from: 'next_billing_period' }, { effective_from: at }]);
	});

	it('surfaces 409 adjustment_already_scheduled for a pending adjustment', async () => {
		const pending = (await adjustments()).find((record) => record.status === 'pending')!;
		const result = await update(pending.id, { percentage: 4 });
		expect(result.error?.message).toMatch(/\[adjustment_already_scheduled\]$/);
		expect((result.error as { httpCode?: string }).httpCode).toBe('409');
		expect((await client.requests())[0].body).toEqual({ percentage: 4 });
		expect((await adjustments()).find((record) => record.id === pending.id)).toEqual(pending);
	});

	it('surfaces invalid_notice_period when the notice would fall in the past', async () => {
		const draft = await notifyingDraft();
		const result = await update(draft.id, { noticePeriod: 400 });
		expect(result.error?.message).toMatch(/\[invalid_notice_period\]$/);
		expect(result.error?.description).toContain('Field /notification/notice_period: ');
		expect((await client.requests())[0].body).toEqual({ notification: { notice_period: 400 } });
		expect((await adjustments()).find((record) => record.id === draft.id)).toEqual(draft);
	});

	it('skips the customer notification with the skip_notifications scope, and names the scope without it', async () => {
		const draft = await notifyingDraft();
		const writeOnly = await client.token(['public.price_adjustment:write']);
		const refused = await update(draft.id, { skipNotification: true }, writeOnly);
		expect(refused.error?.message).toMatch(/\[forbidden\]$/);
		expect(refused.error?.message).toContain(SKIP_SCOPE);
		expect((refused.error as { httpCode?: string }).httpCode).toBe('403');
		expect((await client.requests())[0].body).toEqual({ notification: { notice_period: null } });
		expect((await adjustments()).find((record) => record.id === draft.id)).toEqual(draft);

		const allowed = await client.token(['public.price_adjustment:write', SKIP_SCOPE]);
		const result = await update(draft.id, { skipNotification: true }, allowed);
		expect(result.error).toBeUndefined();
		expect(result.items[0].json.notification).toMatchObject({
			notice_period: null,
			scheduled_at: null,
		});
	});

	it('needs the skip_notifications scope for any update of a draft that already skips notification', async () => {
		const skipping = (await adjustments()).find(
			(record) =>
				record.status === 'draft' && (record.notification as Notification).notice_period === null,
		)!;
		const writeOnly = await client.token(['public.price_adjustment:write']);
		const refused = await update(skipping.id, { percentage: 2 }, writeOnly);
		expect(refused.error?.message).toContain(SKIP_SCOPE);
		const result = await update(skipping.id, { percentage: 2 });
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ id: skipping.id, percentage: 2 });
	});

	it('checks percentage, date, notice and applies-to before any request', async () => {
		const draft = await notifyingDraft();
		const cases: Array<[Record<string, unknown>, string]> = [
			[{ percentage: 0 }, 'Percentage: 0 is out of range'],
			[{ percentage: -100 }, 'Percentage: -100 is out of range'],
			[{ percentage: -150.5 }, 'Percentage: -150.5 is out of range'],
			[{ effectiveFrom: '2027-02-30' }, 'Effective From: "2027-02-30" is not a valid date'],
			[{ effectiveFrom: 'tomorrow' }, 'Effective From: "tomorrow" is not a valid date'],
			[{ effectiveFrom: '01/05/2027' }, 'Effective From: "01/05/2027" is not a valid date'],
			[{ noticePeriod: 2.5 }, 'Notice Period (Days): 2.5 is out of range'],
			[{ noticePeriod: -1 }, 'Notice Period (Days): -1 is out of range'],
			[
				{ noticePeriod: 10, skipNotification: true },
				'Notice Period (Days) and Skip Customer Notification cannot be used together',
			],
			[
				{ applyToUnitTypes: false, applyToProtectionLevels: false, applyToProducts: false },
				'The price adjustment must apply to something',
			],
		];
		for (const [updateFields, message] of cases) {
			const result = await update(draft.id, updateFields);
			expect(result.error?.message).toBe(message);
		}
		const percentage = await update(draft.id, { percentage: -99.5 });
		expect(percentage.error).toBeUndefined();
		expect((await client.requests()).map((request) => request.body)).toEqual([
			{ percentage: -99.5 },
		]);
	});

	it('accepts the ID only (the API cannot list price adjustments) and checks its prefix', async () => {
		const { Stora } = await import('../../../nodes/Stora/Stora.node');
		const locator = new Stora().description.properties.find(
			(property) => property.name === 'priceAdjustmentId',
		);
		expect(locator?.modes?.map((mode) => mode.name)).toEqual(['id']);
		expect(locator?.default).toEqual({ mode: 'id', value: '' });

		const [subscription] = await client.state('subscriptions');
		const result = await update(subscription.id, { percentage: 3 });
		expect(result.error?.message).toMatch(/A price adjustment ID starts with "pradj_"/);
		expect(await client.requests()).toEqual([]);
	});
});
