/**
 * Create and Update bodies: the Additional Fields / Update Fields collections, members that clear when left empty,
 * metadata, enums, base prices and the line item type.
 */
import type {
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

import { sendMetadata } from '../../helpers/body';
import { BILLING_PERIODS, LINE_ITEM_ITEM_PREFIX } from '../../helpers/constants';
import { fail } from '../../helpers/validation';
import { alphabetical, optionsOf } from './choices';

/** `routing.send.value` for an optional text field: left empty it is sent as null, which clears it on the record. */
export const EMPTY_AS_NULL = '={{ $value === "" ? null : $value }}';

/** An "Additional Fields" (Create) or "Update Fields" (Update) collection. */
export function fieldsCollection(
	name: 'additionalFields' | 'updateFields',
	options: INodeProperties[],
): INodeProperties {
	return {
		displayName: name === 'additionalFields' ? 'Additional Fields' : 'Update Fields',
		name,
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: alphabetical(options),
	};
}

/**
 * Metadata rows for a Create / Update body (in its Additional Fields or Update Fields collection, named by
 * `collection`); sent as one `metadata` object.
 */
export function metadataBodyField(collection: string): INodeProperties {
	return {
		displayName: 'Metadata',
		name: 'metadata',
		type: 'fixedCollection',
		placeholder: 'Add Metadata',
		typeOptions: { multipleValues: true },
		default: {},
		description: 'Your own key/value data stored on the record, for example an ID from your CRM',
		options: [
			{
				displayName: 'Entry',
				name: 'entry',
				values: [
					{ displayName: 'Key', name: 'key', type: 'string', default: '' },
					{ displayName: 'Value', name: 'value', type: 'string', default: '' },
				],
			},
		],
		routing: { send: { preSend: [sendMetadata(`${collection}.metadata`)] } },
	};
}

/** An enum member of a body, from the API's documented values; `property` is its place in the body. */
export function enumField(
	displayName: string,
	name: string,
	property: string,
	values: string[],
): INodeProperties {
	const [first] = values;
	return {
		displayName,
		name,
		type: 'options',
		options: optionsOf(values),
		default: first,
		routing: { send: { type: 'body', property } },
	};
}

/**
 * "Base Prices" for a Set Base Price operation (unit types, products, protection levels): one row per billing period
 * with an amount in minor units, sent as `{ monthly: { amount }, weekly: { amount } }`. Checked before any request:
 * at least one row, each period once, amounts whole numbers of at least 0.
 */
export function basePriceRows(): INodeProperties {
	return {
		displayName: 'Base Prices',
		name: 'basePrices',
		type: 'fixedCollection',
		placeholder: 'Add Price',
		typeOptions: { multipleValues: true },
		default: {},
		required: true,
		description: 'The new base price per billing period. Prices of periods not listed are kept.',
		options: [
			{
				displayName: 'Price',
				name: 'price',
				values: [
					{
						displayName: 'Billing Period',
						name: 'billingPeriod',
						type: 'options',
						options: optionsOf(BILLING_PERIODS),
						default: 'monthly',
					},
					{
						displayName: 'Amount (Minor Units)',
						name: 'amount',
						type: 'number',
						typeOptions: { minValue: 0, numberPrecision: 0 },
						default: 0,
						description: 'The price in minor currency units (pence/cents), e.g. 4500 = 45.00',
						builderHint: {
							propertyHint:
								"A whole number in minor currency units (pence/cents) of the site's currency: 45.00 is 4500. Never a decimal or a currency symbol.",
						},
					},
				],
			},
		],
		routing: { send: { preSend: [sendBasePrices] } },
	};
}

async function sendBasePrices(this: IExecuteSingleFunctions, options: IHttpRequestOptions) {
	const rows = ((this.getNodeParameter('basePrices', {}) as IDataObject).price ??
		[]) as IDataObject[];
	const reject = (message: string, description: string): never => fail(this, message, description);
	if (!rows.length)
		reject(
			'Base Prices: add at least one price',
			'Give the amount for at least one billing period.',
		);
	const prices: IDataObject = {};
	for (const row of rows) {
		const period = String(row.billingPeriod ?? '');
		if (!BILLING_PERIODS.includes(period)) {
			reject(
				`Base Prices: "${period}" is not a billing period`,
				`Use one of: ${BILLING_PERIODS.join(', ')}.`,
			);
		}
		if (period in prices) {
			reject(`Base Prices: ${period} is given twice`, 'Give each billing period at most once.');
		}
		const amount = Number(row.amount);
		if (row.amount === '' || row.amount === null || !Number.isInteger(amount) || amount < 0) {
			reject(
				`Base Prices: ${String(row.amount)} is not a valid ${period} amount`,
				'An amount is a whole number of minor currency units (pence/cents) of at least 0, e.g. 4500 = 45.00.',
			);
		}
		prices[period] = { amount };
	}
	options.body = { ...((options.body as IDataObject | undefined) ?? {}), ...prices };
	return options;
}

/** The type of an order line item: what it charges for (Order Create's rows and Order Line Item Create). */
export function lineItemTypeField(name: string): INodeProperties {
	return {
		displayName: 'Type',
		name,
		type: 'options',
		options: optionsOf(Object.keys(LINE_ITEM_ITEM_PREFIX)),
		default: 'unit_type',
		description:
			'What the line charges for: a unit type (rent), a protection level, a product, or the security deposit of a unit type',
	};
}
