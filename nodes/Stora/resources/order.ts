import type { IDataObject, IExecuteSingleFunctions, IHttpRequestOptions, INodeProperties } from 'n8n-workflow';

import {
	BILLING_PERIODS,
	dateWindows,
	expandOption,
	filtersCollection,
	idListFilter,
	metadataBodyField,
	metadataFilter,
	multiValueFilter,
	optionsCollection,
	optionsOf,
	outputFormat,
	resourceLocator,
	returnAllAndLimit,
	showFor,
	simplifyToggle,
	sortOptions,
	type ResourceDefinition,
} from '../shared/descriptions';
import { CONTACT_SOURCES, CONTACT_TYPES, MARKETING_SOURCES, USE_CASES } from './contact';
import { checkDate, checkIdPrefix, fail } from '../shared/validation';
import { lineItemRowsField } from './orderLineItem';

const getMany = showFor('order', ['getAll']);
const create = showFor('order', ['create']);
const EXPAND = [
	'contact',
	'contract_template',
	'coupon',
	'line_items',
	'line_items.item',
	'site',
	'subscription',
	'tenancy',
];
const STATUSES = ['draft', 'finalized', 'completed', 'abandoned'];
const SOURCES = ['backoffice', 'storefront', 'storefront_multi_step', 'import', 'public_api', 'unspecified'];


/** Create: an existing contact or a new one, not both; a new contact needs an email; Cancel Redirect URL needs Finalize. */
async function checkCreate(this: IExecuteSingleFunctions, options: IHttpRequestOptions) {
	const fields = this.getNodeParameter('additionalFields', {}) as IDataObject;
	const newContact = (fields.newContact ?? undefined) as IDataObject | undefined;
	if (fields.contact !== undefined && newContact !== undefined) {
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
 * A resource locator inside a collection (Additional Fields): sent to the body at `property`, its prefix checked under
 * the collection's path. Once added, it must hold an ID.
 */
function locatorInCollection(
	collection: string,
	options: {
		name: string;
		displayName: string;
		prefix: string;
		searchListMethod: string;
		property: string;
		description: string;
	},
): INodeProperties {
	const locator = resourceLocator({
		...options,
		displayOptions: {},
		required: false,
	});
	delete locator.displayOptions;
	return {
		...locator,
		routing: {
			send: {
				type: 'body',
				property: options.property,
				preSend: [checkIdPrefix(`${collection}.${options.name}`, options.displayName, options.prefix)],
			},
		},
	};
}

/** A body field of the new inline contact (`contact.<field>`). */
const contactField = (displayName: string, name: string, property: string, extra: Partial<INodeProperties> = {}) =>
	({
		displayName,
		name,
		type: 'string',
		default: '',
		routing: { send: { type: 'body', property: `contact.${property}` } },
		...extra,
	}) as INodeProperties;

const contactEnum = (displayName: string, name: string, property: string, values: string[]) =>
	contactField(displayName, name, property, {
		type: 'options',
		options: optionsOf(values),
		default: values[0],
	});

const properties: ResourceDefinition['properties'] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['order'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				description:
					"Create an order (a contact's intent to rent storage at a site) as a draft, optionally with its contact, line items and coupon, or finalize it at once. Returns the order with its totals.",
				action: 'Create an order',
				routing: { request: { method: 'POST', url: '/orders' } },
			},
			{
				name: 'Finalize',
				value: 'finalize',
				description:
					'Finalize a draft order for payment. The order must pass validation. Returns the order with status finalized and the hosted checkout link in payment_url.',
				action: 'Finalize an order',
				routing: { request: { method: 'POST' } },
			},
			{
				name: 'Get',
				value: 'get',
				description:
					'Get an order by ID. Returns its status, source, billing period, contact, site, start date, line item references and totals.',
				action: 'Get an order',
				routing: { request: { method: 'GET' } },
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description:
					'List orders, newest first, filtered by contact, site, status, source, billing period, metadata or creation, update and start dates. Returns one item per order.',
				action: 'Get many orders',
				routing: { request: { method: 'GET', url: '/orders' } },
			},
			{
				name: 'Validate',
				value: 'validate',
				description:
					'Check whether an order is ready to be finalized. Returns the order when it is; otherwise fails with one problem per missing piece (start date, billing period, contact, a unit type line item).',
				action: 'Validate an order',
				routing: { request: { method: 'GET' } },
			},
		],
		default: 'getAll',
	},
	{
		displayName:
			'Stora has announced a breaking change to the protection-level parts of order validation: protection levels are becoming site-scoped. Validation results for protection line items may change with the next API version.',
		name: 'protectionLevelNotice',
		type: 'notice',
		default: '',
		displayOptions: showFor('order', ['validate']),
	},
	resourceLocator({
		name: 'orderId',
		displayName: 'Order',
		prefix: 'order_',
		searchListMethod: 'searchOrders',
		url: '/orders/{id}',
		actions: { finalize: '/finalize', validate: '/validate' },
		displayOptions: showFor('order', ['finalize', 'get', 'validate']),
	}),
	optionsCollection(showFor('order', ['get', 'validate']), [expandOption(EXPAND)]),

	// Create
	{
		displayName: 'Site Name or ID',
		name: 'siteId',
		type: 'options',
		required: true,
		typeOptions: { loadOptionsMethod: 'getSites' },
		default: '',
		description:
			'The site (storage location) the order is for. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		displayOptions: create,
		routing: {
			send: {
				type: 'body',
				property: 'site.id',
				preSend: [checkIdPrefix('siteId', 'Site', 'site_'), checkCreate],
			},
		},
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: create,
		options: [
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
				routing: {
					send: { type: 'body', property: 'emails.booking_confirmation' },
				},
			},
			{
				displayName: 'Cancel Redirect URL',
				name: 'cancelRedirectUrl',
				type: 'string',
				default: '',
				placeholder: 'https://example.com/booking-cancelled',
				description: 'With Finalize Immediately: where the hosted checkout sends the customer who cancels the payment',
				routing: {
					send: { type: 'body', property: 'finalize.cancel_redirect_url' },
				},
			},
			locatorInCollection('additionalFields', {
				name: 'contact',
				displayName: 'Contact',
				prefix: 'con_',
				searchListMethod: 'searchContacts',
				property: 'contact.id',
				description: 'An existing contact who places the order. To create a new contact instead, use New Contact.',
			}),
			{
				displayName: 'Contract Template Name or ID',
				name: 'contractTemplateId',
				type: 'options',
				typeOptions: { loadOptionsMethod: 'getContractTemplates' },
				default: '',
				description:
					'The contract the customer signs. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
				routing: {
					send: {
						type: 'body',
						property: 'contract_template.id',
						preSend: [checkIdPrefix('additionalFields.contractTemplateId', 'Contract Template', 'ctpl_')],
					},
				},
			},
			locatorInCollection('additionalFields', {
				name: 'coupon',
				displayName: 'Coupon',
				prefix: 'cpn_',
				searchListMethod: 'searchCoupons',
				property: 'coupon.id',
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
					send: {
						type: 'body',
						property: 'finalize',
						value: '={{ $value ? {} : undefined }}',
					},
				},
			},
			lineItemRowsField('additionalFields'),
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
				options: [
					contactField('Address City', 'city', 'address.city'),
					contactField('Address Line 1', 'line1', 'address.line_1'),
					contactField('Address Line 2', 'line2', 'address.line_2'),
					contactField('Address Postal Code', 'postalCode', 'address.postal_code'),
					contactField('Company Registration Number', 'companyRegistrationNumber', 'company_registration_number'),
					contactField('Email', 'email', 'email', {
						placeholder: 'name@email.com',
					}),
					contactField('Full Name', 'fullName', 'full_name'),
					contactEnum('Marketing Source', 'marketingSource', 'marketing_source', MARKETING_SOURCES),
					contactField('Phone Number', 'phoneNumber', 'phone_number'),
					contactEnum('Source', 'source', 'source', CONTACT_SOURCES),
					contactField('Tax ID', 'taxId', 'tax_id'),
					contactEnum('Type', 'type', 'type', CONTACT_TYPES),
					contactEnum('Use Case', 'useCase', 'use_case', USE_CASES),
				],
			},
			{
				displayName: 'Payment Details Email',
				name: 'paymentDetailsEmail',
				type: 'boolean',
				default: true,
				description: 'Whether Stora emails the customer the payment details',
				routing: { send: { type: 'body', property: 'emails.payment_details' } },
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
				default: '',
				description: 'When the storage starts (the move-in date)',
				routing: {
					send: {
						type: 'body',
						property: 'starts_at',
						value: '={{ $value ? (isNaN(Date.parse($value)) ? $value : new Date($value).toISOString()) : undefined }}',
						preSend: [checkDate('additionalFields.startsAt', 'Starts At')],
					},
				},
			},
		],
	},

	// Finalize
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: showFor('order', ['finalize']),
		options: [
			{
				displayName: 'Cancel Redirect URL',
				name: 'cancelRedirectUrl',
				type: 'string',
				default: '',
				placeholder: 'https://example.com/booking-cancelled',
				description: 'Where the hosted checkout sends the customer who cancels the payment',
				routing: {
					send: { type: 'body', property: 'finalize.cancel_redirect_url' },
				},
			},
		],
	},

	// Get Many
	...returnAllAndLimit(getMany),
	filtersCollection(getMany, [
		multiValueFilter('Billing Period', 'billingPeriod', 'billing_period', BILLING_PERIODS),
		idListFilter({ displayName: 'Contact IDs', name: 'contactIds', queryName: 'contact_id', prefix: 'con_' }),
		...dateWindows(['created']),
		metadataFilter(),
		idListFilter({ displayName: 'Site Names or IDs', name: 'siteIds', queryName: 'site_id', prefix: 'site_', loadOptionsMethod: 'getSites' }),
		multiValueFilter('Source', 'source', 'source', SOURCES),
		...dateWindows(['starts']),
		multiValueFilter('Status', 'status', 'status', STATUSES),
		...dateWindows(['updated']),
	]),
	optionsCollection(getMany, [expandOption(EXPAND), ...sortOptions(['created_at', 'updated_at'])]),
	...outputFormat(getMany),
	simplifyToggle({
		...showFor('order', ['create', 'finalize', 'get', 'getAll', 'validate']),
		hide: { outputFormat: ['csv'] },
	}),
];

export const orderResource: ResourceDefinition = {
	option: { name: 'Order', value: 'order' },
	properties,
	simplifiedFields: [
		'id',
		'status',
		'source',
		'billing_period',
		'contact',
		'site',
		'starts_at',
		'total',
		'payment_url',
		'created_at',
	],
};
