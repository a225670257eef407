import type {
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { checkNumber, fail } from '../../helpers/validation';
import { fieldsCollection } from '../common/bodies';
import { locator } from '../common/records';

const NEXT_BILLING_PERIOD = 'next_billing_period';

const withBody = (options: IHttpRequestOptions, fields: IDataObject): IHttpRequestOptions => ({
	...options,
	body: { ...((options.body as IDataObject | undefined) ?? {}), ...fields },
});

/**
 * `effective_from`: a calendar date (YYYY-MM-DD; the date part of a date-time from an expression is used) or the
 * literal `next_billing_period`. Anything else, or an impossible date such as 2026-02-30, fails before the request.
 */
async function sendEffectiveFrom(this: IExecuteSingleFunctions, options: IHttpRequestOptions) {
	const raw = String(this.getNodeParameter('updateFields.effectiveFrom', '') ?? '').trim();
	if (raw === NEXT_BILLING_PERIOD) return withBody(options, { effective_from: raw });
	const match = /^(\d{4})-(\d{2})-(\d{2})(?:[T ].*)?$/.exec(raw);
	const date = match
		? new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])))
		: undefined;
	if (!match || !date || date.toISOString().slice(0, 10) !== raw.slice(0, 10)) {
		fail(
			this,
			`Effective From: "${raw}" is not a valid date`,
			`Use a calendar date such as 2026-05-01 (in the operator's time zone) or ${NEXT_BILLING_PERIOD}.`,
		);
	}
	return withBody(options, { effective_from: raw.slice(0, 10) });
}

/** `notification.notice_period`: whole days before the adjustment date, or null when notification is skipped. */
async function sendNotification(this: IExecuteSingleFunctions, options: IHttpRequestOptions) {
	const fields = this.getNodeParameter('updateFields', {}) as IDataObject;
	const skip = fields.skipNotification === true;
	const days = fields.noticePeriod;
	if (skip && days !== undefined) {
		fail(
			this,
			'Notice Period (Days) and Skip Customer Notification cannot be used together',
			'Give a notice period to notify the customer, or skip the notification, but not both.',
		);
	}
	if (skip) return withBody(options, { notification: { notice_period: null } });
	if (days !== undefined && days !== null && days !== '') {
		return withBody(options, { notification: { notice_period: Number(days) } });
	}
	return options;
}

/** `applies_to` cannot end up all false: the API needs at least one option to schedule the adjustment. */
async function checkAppliesTo(this: IExecuteSingleFunctions, options: IHttpRequestOptions) {
	const fields = this.getNodeParameter('updateFields', {}) as IDataObject;
	const given = ['applyToProducts', 'applyToProtectionLevels', 'applyToUnitTypes'].filter(
		(name) => name in fields,
	);
	if (given.length === 3 && given.every((name) => fields[name] === false)) {
		fail(
			this,
			'The price adjustment must apply to something',
			'At least one of Apply to Products, Apply to Protection Levels and Apply to Unit Types must be true.',
		);
	}
	return options;
}

const properties: INodeProperties[] = [
	locator('priceAdjustment', {
		description: 'ID of the draft price adjustment (the API cannot list price adjustments)',
	}),
	{
		...fieldsCollection('updateFields', [
			{
				displayName: 'Apply to Products',
				name: 'applyToProducts',
				type: 'boolean',
				default: true,
				description: 'Whether the adjustment changes the prices of products on the subscription',
				routing: { send: { type: 'body', property: 'applies_to.products' } },
			},
			{
				displayName: 'Apply to Protection Levels',
				name: 'applyToProtectionLevels',
				type: 'boolean',
				default: true,
				description:
					'Whether the adjustment changes the price of protection (insurance) on the subscription',
				routing: { send: { type: 'body', property: 'applies_to.protection_levels' } },
			},
			{
				displayName: 'Apply to Unit Types',
				name: 'applyToUnitTypes',
				type: 'boolean',
				default: true,
				description: 'Whether the adjustment changes the storage unit rent on the subscription',
				routing: { send: { type: 'body', property: 'applies_to.unit_types' } },
			},
			{
				displayName: 'Effective From',
				name: 'effectiveFrom',
				type: 'string',
				builderHint: {
					propertyHint:
						"A calendar date YYYY-MM-DD in the operator's time zone (the date part of a date-time is used), or the text next_billing_period.",
				},
				default: NEXT_BILLING_PERIOD,
				placeholder: 'e.g. 2026-05-01 or next_billing_period',
				description:
					"A calendar date (YYYY-MM-DD, in the operator's time zone) or next_billing_period. The adjustment moves to the subscription's first renewal on or after it (returned as adjust_on).",
				routing: { send: { preSend: [sendEffectiveFrom] } },
			},
			{
				displayName: 'Notice Period (Days)',
				name: 'noticePeriod',
				type: 'number',
				typeOptions: { minValue: 0, numberPrecision: 0 },
				default: 30,
				description:
					'How many days before the adjustment date the customer is notified. It must not fall in the past.',
				routing: {
					send: {
						preSend: [
							checkNumber('updateFields.noticePeriod', 'Notice Period (Days)', {
								min: 0,
								integer: true,
							}),
							sendNotification,
						],
					},
				},
			},
			{
				displayName: 'Percentage',
				name: 'percentage',
				type: 'number',
				typeOptions: { numberPrecision: 2 },
				default: 5,
				description:
					'The price change in percent: positive raises prices, negative lowers them (e.g. 5 or -10). Not zero, and greater than -100.',
				routing: {
					send: {
						type: 'body',
						property: 'percentage',
						preSend: [
							checkNumber('updateFields.percentage', 'Percentage', { above: -100, notZero: true }),
						],
					},
				},
			},
			{
				displayName: 'Skip Customer Notification',
				name: 'skipNotification',
				type: 'boolean',
				default: false,
				description:
					'Whether to apply the adjustment without notifying the customer. Needs the public.price_adjustment:skip_notifications scope on the token.',
				routing: { send: { preSend: [sendNotification] } },
			},
		]),
		routing: { send: { preSend: [checkAppliesTo] } },
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['priceAdjustment'], operation: ['update'] } },
	properties,
);
