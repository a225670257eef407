import type { INodeProperties } from 'n8n-workflow';

import {
	dateWindows,
	EMPTY_AS_NULL,
	filtersCollection,
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

export const CONTACT_TYPES = ['domestic', 'company', 'student', 'charity', 'local_authority'];
export const CONTACT_SOURCES = [
	'pre_open',
	'incomplete_booking',
	'registered_interest',
	'price_interest',
	'quotation_request',
	'booking',
	'popup',
	'external_enquiry',
	'phone',
	'walkin',
	'import',
	'other',
];
export const MARKETING_SOURCES = [
	'used_before',
	'recommendation',
	'received_leaflet',
	'seen_building_signs',
	'seen_advert',
	'facebook_marketplace',
	'google_search',
	'other_online_search',
	'social_media',
	'email',
	'radio',
	'other',
];
export const USE_CASES = ['business_needs', 'moving_home', 'more_space', 'refurb', 'travelling', 'other'];
const STATUSES = ['lead', 'customer', 'churned'];

const getMany = showFor('contact', ['getAll']);

/** A nullable text member of the body: left empty it is sent as null (clears it on update). */
function textField(displayName: string, name: string, property: string, description: string): INodeProperties {
	return {
		displayName,
		name,
		type: 'string',
		default: '',
		description,
		routing: { send: { type: 'body', property, value: EMPTY_AS_NULL } },
	};
}

/** An enum member of the body, from the API's documented values. */
function enumField(displayName: string, name: string, property: string, values: string[]): INodeProperties {
	const first = values[0];
	return {
		displayName,
		name,
		type: 'options',
		options: optionsOf(values),
		default: first,
		routing: { send: { type: 'body', property } },
	};
}

/** Address members, sent as one `address` object (the API replaces the whole address). */
const addressLines: Array<[string, string, string, string]> = [
	['City', 'city', 'city', ''],
	['Country Code', 'countryAlpha2', 'country_alpha2', 'Two-letter ISO 3166-1 alpha-2 code, e.g. GB'],
	['Line 1', 'line1', 'line_1', ''],
	['Line 2', 'line2', 'line_2', ''],
	['Postal Code', 'postalCode', 'postal_code', ''],
	['State', 'state', 'state', 'State, county or region'],
];

const addressField: INodeProperties = {
	displayName: 'Address',
	name: 'address',
	type: 'fixedCollection',
	placeholder: 'Add Address',
	default: {},
	description: 'The postal address. Sent as a whole: members left empty are stored as empty.',
	options: [
		{
			displayName: 'Address',
			name: 'address',
			values: addressLines.map(([displayName, name, property, description]) => ({
				displayName,
				name,
				type: 'string' as const,
				default: '',
				...(description ? { description } : {}),
				routing: {
					send: {
						type: 'body' as const,
						property: `address.${property}`,
						value:
							name === 'countryAlpha2'
								? '={{ $value === "" ? null : String($value).trim().toUpperCase() }}'
								: EMPTY_AS_NULL,
					},
				},
			})),
		},
	],
};

/** The optional members of Create (Additional Fields) and Update (Update Fields). */
function contactFields(collection: string): INodeProperties[] {
	return [
		addressField,
		textField(
			'Company Registration Number',
			'companyRegistrationNumber',
			'company_registration_number',
			'Registration number of a company contact',
		),
		textField('Full Name', 'fullName', 'full_name', 'Name of the person or company'),
		enumField('Marketing Source', 'marketingSource', 'marketing_source', MARKETING_SOURCES),
		metadataBodyField(collection),
		textField('Phone Number', 'phoneNumber', 'phone_number', 'Phone number, e.g. +44 7700 900123'),
		enumField('Source', 'source', 'source', CONTACT_SOURCES),
		textField('Tax ID', 'taxId', 'tax_id', 'VAT or other tax identification number'),
		enumField('Type', 'type', 'type', CONTACT_TYPES),
		enumField('Use Case', 'useCase', 'use_case', USE_CASES),
	];
}

const properties: ResourceDefinition['properties'] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['contact'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				description:
					'Create a contact (it starts as a lead). Needs an email address; returns the new contact with its ID (con_...).',
				action: 'Create a contact',
				routing: { request: { method: 'POST', url: '/contacts' } },
			},
			{
				name: 'Delete',
				value: 'delete',
				description:
					'Delete a contact. Only a lead without invoices can be deleted; a customer, a churned contact or one with invoices is refused with a conflict error. Returns deleted: true, the ID of the contact and the message of the API.',
				action: 'Delete a contact',
				routing: { request: { method: 'DELETE' } },
			},
			{
				name: 'Get',
				value: 'get',
				description:
					'Get a contact (a person or company that enquires, books and pays) by ID, with its status (lead, customer or churned)',
				action: 'Get a contact',
				routing: { request: { method: 'GET' } },
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description:
					'List contacts, optionally filtered by email, fuzzy search on name/email/phone, type, source, status, dates or metadata',
				action: 'Get many contacts',
				routing: { request: { method: 'GET', url: '/contacts' } },
			},
			{
				name: 'Update',
				value: 'update',
				description: 'Change fields of a contact; fields not given stay unchanged. Returns the updated contact.',
				action: 'Update a contact',
				routing: { request: { method: 'PATCH' } },
			},
		],
		default: 'getAll',
	},
	resourceLocator({
		name: 'contactId',
		displayName: 'Contact',
		prefix: 'con_',
		searchListMethod: 'searchContacts',
		url: '/contacts/{id}',
		displayOptions: showFor('contact', ['delete', 'get', 'update']),
	}),

	// Create
	{
		displayName: 'Email',
		name: 'email',
		type: 'string',
		placeholder: 'name@email.com',
		default: '',
		required: true,
		description: 'Email address of the contact',
		displayOptions: showFor('contact', ['create']),
		routing: { send: { type: 'body', property: 'email' } },
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: showFor('contact', ['create']),
		options: contactFields('additionalFields'),
	},

	// Update
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: showFor('contact', ['update']),
		options: [
			...contactFields('updateFields').slice(0, 2),
			{
				displayName: 'Email',
				name: 'email',
				type: 'string',
				placeholder: 'name@email.com',
				default: '',
				description: 'New email address of the contact',
				routing: { send: { type: 'body', property: 'email' } },
			},
			...contactFields('updateFields').slice(2),
		],
	},

	// Get Many
	...returnAllAndLimit(getMany),
	filtersCollection(getMany, [
		...dateWindows(['created', 'updated']),
		{
			displayName: 'Email',
			name: 'email',
			type: 'string',
			default: '',
			placeholder: 'ann@example.com,bob@example.com',
			description: 'Only contacts with one of these exact email addresses (comma-separated)',
			routing: { send: { type: 'query', property: 'email' } },
		},
		multiValueFilter('Marketing Source', 'marketingSource', 'marketing_source', [
			...MARKETING_SOURCES,
			'unspecified',
		]),
		metadataFilter(),
		{
			displayName: 'Search',
			name: 'search',
			type: 'string',
			default: '',
			description: 'Fuzzy search on name, email or phone number (a beta feature of the API)',
			routing: { send: { type: 'query', property: 'search' } },
		},
		multiValueFilter('Source', 'source', 'source', [...CONTACT_SOURCES, 'unspecified']),
		{
			...multiValueFilter('Status', 'status', 'status', STATUSES),
			description: 'Lead: no tenancies. Customer: at least one active tenancy. Churned: all tenancies have ended.',
		},
		multiValueFilter('Type', 'type', 'type', [...CONTACT_TYPES, 'unspecified']),
		multiValueFilter('Use Case', 'useCase', 'use_case', [...USE_CASES, 'unspecified']),
	]),
	optionsCollection(getMany, sortOptions(['created_at', 'full_name', 'updated_at'])),
	...outputFormat(getMany),
	simplifyToggle(showFor('contact', ['get', 'getAll'])),
];

export const contactResource: ResourceDefinition = {
	option: { name: 'Contact', value: 'contact' },
	properties,
	simplifiedFields: ['id', 'email', 'full_name', 'phone_number', 'status', 'type', 'created_at', 'updated_at'],
};
