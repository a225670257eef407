import type {
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { BILLING_PERIODS, LINE_ITEM_ITEM_PREFIX } from '../../helpers/constants';
import { isIdOf } from '../../helpers/ids';
import { fail } from '../../helpers/validation';
import { fieldsCollection, lineItemTypeField, metadataBodyField } from '../common/bodies';
import { optionsOf } from '../common/choices';
import { contactFields } from '../common/contact';
import { DATE_TIME_HINT, dateTimeSend } from '../common/dateTime';
import { simplifyToggle } from '../common/getMany';
import { locator, recordDropdown } from '../common/records';

/** Create: an existing contact or a new one, not both; a new contact needs an email; Cancel Redirect URL needs Finalize. */
async function checkCreate(this: IExecuteSingleFunctions, options: IHttpRequestOptions) {
	const fields = this.getNodeParameter('additionalFields', {}) as IDataObject;
	const newContact = (fields.newContact ?? undefined) as IDataObject | undefined;
	if (fields.contactId !== undefined && newContact !== undefined) {
		fail(
			this,
			'Contact and New Contact cannot be used together',
			'Pick an existing contact, or give the details of a new contact, but not both.',
		);
	}
	if (newContact !== undefined && !String(newContact.email ?? '').trim()) {
		fail(this, 'New Contact: Email is required', 'A new contact needs at least an email address.');
	}
	if (fields.cancelRedirectUrl !== undefined && fields.finalize !== true) {
		fail(
			this,
			'Cancel Redirect URL needs Finalize Immediately',
			'The cancel redirect URL belongs to the hosted checkout of a finalized order: turn on Finalize Immediately, or remove the URL.',
		);
	}
	return options;
}

/**
 * The "Line Items" rows as the API's `line_items` array, checked before any request: the item ID must match the
 * type's prefix, the quantity must be a whole number of at least 1, and a price override (minor units) a whole number
 * of at least 0. A blank price override means the item's own price for the order's billing period.
 */
async function sendLineItems(this: IExecuteSingleFunctions, options: IHttpRequestOptions) {
	const rows = ((this.getNodeParameter('additionalFields.lineItems', {}) as IDataObject).lineItem ??
		[]) as IDataObject[];
	const reject = (row: number, message: string, description: string): never =>
		fail(this, `Line Items, row ${row}: ${message}`, description);
	const lineItems = rows.map((row, index) => {
		const type = String(row.type ?? '');
		const prefix = LINE_ITEM_ITEM_PREFIX[type];
		if (!prefix) {
			reject(
				index + 1,
				`"${type}" is not a line item type`,
				`Use one of: ${Object.keys(LINE_ITEM_ITEM_PREFIX).join(', ')}.`,
			);
		}
		const itemId = String(row.itemId ?? '').trim();
		if (!isIdOf(itemId, prefix)) {
			reject(
				index + 1,
				`"${itemId}" is not a valid item ID for a ${type} line`,
				`A ${type} line item charges for an item whose ID starts with "${prefix}".`,
			);
		}
		const quantity = Number(row.quantity ?? 1);
		if (!Number.isInteger(quantity) || quantity < 1) {
			reject(
				index + 1,
				`quantity ${String(row.quantity)} is out of range`,
				'Quantity must be a whole number of at least 1.',
			);
		}
		const line: IDataObject = { type, item: { id: itemId }, quantity };
		const price = String(row.price ?? '').trim();
		if (price !== '') {
			if (!/^\d+$/.test(price)) {
				reject(
					index + 1,
					`price "${price}" is not an amount in minor units`,
					'Give the unit price as a whole number of pence/cents of at least 0 (e.g. 4500 = 45.00), or leave it empty.',
				);
			}
			line.price = { amount: Number(price) };
		}
		return line;
	});
	if (lineItems.length) {
		options.body = { ...((options.body as IDataObject | undefined) ?? {}), line_items: lineItems };
	}
	return options;
}

const site = recordDropdown('site', {
	name: 'orderSiteId',
	required: true,
	property: 'site',
	description: 'The site (storage location) the order is for',
});

const properties: INodeProperties[] = [
	{
		...site,
		routing: {
			send: {
				...site.routing?.send,
				preSend: [...(site.routing?.send?.preSend ?? []), checkCreate],
			},
		},
	},
	fieldsCollection('additionalFields', [
		{
			displayName: 'Billing Period',
			name: 'billingPeriod',
			type: 'options',
			options: optionsOf(BILLING_PERIODS),
			default: 'monthly',
			description: 'How often the storage is billed',
			routing: { send: { type: 'body', property: 'billing_period' } },
		},
		{
			displayName: 'Booking Confirmation Email',
			name: 'bookingConfirmationEmail',
			type: 'boolean',
			default: true,
			description: 'Whether Stora emails the customer a booking confirmation',
			routing: { send: { type: 'body', property: 'emails.booking_confirmation' } },
		},
		{
			displayName: 'Cancel Redirect URL',
			name: 'cancelRedirectUrl',
			type: 'string',
			default: '',
			placeholder: 'https://example.com/booking-cancelled',
			description:
				'With Finalize Immediately: where the hosted checkout sends the customer who cancels the payment',
			routing: { send: { type: 'body', property: 'finalize.cancel_redirect_url' } },
		},
		// Once added, the contact and coupon must hold an ID.
		locator('contact', {
			name: 'contactId',
			path: 'additionalFields.contactId',
			send: { type: 'body', property: 'contact.id' },
			required: false,
			optional: false,
			description:
				'An existing contact who places the order. To create a new contact instead, use New Contact.',
		}),
		recordDropdown('contractTemplate', {
			path: 'additionalFields.contractTemplateId',
			property: 'contract_template',
			description: 'The contract the customer signs',
		}),
		locator('coupon', {
			name: 'couponId',
			path: 'additionalFields.couponId',
			send: { type: 'body', property: 'coupon.id' },
			required: false,
			optional: false,
			description: 'A coupon (promotion) applied to the order',
		}),
		{
			displayName: 'Finalize Immediately',
			name: 'finalize',
			type: 'boolean',
			default: false,
			description:
				'Whether to finalize the order at once (it must then be complete: start date, billing period, contact and a unit type line item). The order is created only if it can be finalized.',
			routing: {
				send: { type: 'body', property: 'finalize', value: '={{ $value ? {} : undefined }}' },
			},
		},
		{
			displayName: 'Line Items',
			name: 'lineItems',
			type: 'fixedCollection',
			placeholder: 'Add Line Item',
			typeOptions: { multipleValues: true, sortable: true },
			default: {},
			description:
				'The charges of the order. A finalized order needs at least one unit type line item.',
			options: [
				{
					displayName: 'Line Item',
					name: 'lineItem',
					values: [
						lineItemTypeField('type'),
						{
							displayName: 'Item ID',
							name: 'itemId',
							type: 'string',
							default: '',
							placeholder: 'utype_a1b2c3',
							description:
								'ID of the unit type (utype_…; also for a security deposit), protection level (plvl_…) or product (prod_…)',
						},
						{
							displayName: 'Quantity',
							name: 'quantity',
							type: 'number',
							typeOptions: { minValue: 1, numberPrecision: 0 },
							default: 1,
						},
						{
							displayName: 'Price Override (Minor Units)',
							name: 'price',
							type: 'string',
							default: '',
							placeholder: 'e.g. 4500',
							description:
								"Unit price in minor currency units (pence/cents), e.g. 4500 = 45.00. Leave empty to use the item's own price for the order's billing period.",
							builderHint: {
								propertyHint:
									"A whole number in minor currency units (pence/cents) of the site's currency: 45.00 is 4500. Never a decimal or a currency symbol.",
							},
						},
					],
				},
			],
			routing: { send: { preSend: [sendLineItems] } },
		},
		metadataBodyField('additionalFields'),
		{
			displayName: 'Move-In Day Email',
			name: 'moveInDayEmail',
			type: 'boolean',
			default: true,
			description: 'Whether Stora emails the customer on the move-in day',
			routing: { send: { type: 'body', property: 'emails.move_in_day' } },
		},
		{
			displayName: 'New Contact',
			name: 'newContact',
			type: 'collection',
			placeholder: 'Add Contact Field',
			default: {},
			description:
				'Details of a new contact who places the order (an existing contact with the same email is used instead). Email is required.',
			options: contactFields({ newContact: 'additionalFields.newContact' }, [
				{
					displayName: 'Email',
					name: 'email',
					type: 'string',
					default: '',
					routing: { send: { type: 'body', property: 'contact.email' } },
					placeholder: 'name@email.com',
				},
			]),
		},
		{
			displayName: 'Payment Method',
			name: 'paymentMethod',
			type: 'string',
			default: 'card',
			description: 'How the customer pays, e.g. card',
			routing: { send: { type: 'body', property: 'payment_method' } },
		},
		{
			displayName: 'Purchase Order Number',
			name: 'purchaseOrderNumber',
			type: 'string',
			default: '',
			routing: { send: { type: 'body', property: 'purchase_order_number' } },
		},
		{
			displayName: 'Starts At',
			name: 'startsAt',
			type: 'dateTime',
			builderHint: DATE_TIME_HINT,
			default: '',
			description: 'When the storage starts (the move-in date)',
			routing: {
				send: dateTimeSend('body', 'starts_at', 'additionalFields.startsAt', 'Starts At'),
			},
		},
	]),
	simplifyToggle(),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['order'], operation: ['create'] } },
	properties,
);
