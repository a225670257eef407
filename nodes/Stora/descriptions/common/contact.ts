/**
 * The members of a contact body, built once for the two places that send one: Contact → Create / Update (the
 * contact's own body) and Order → Create's New Contact (the contact created with the order, sent as the order's
 * `contact`). Where the two differ, it is said here.
 */
import type { INodeProperties } from 'n8n-workflow';

import {
	CONTACT_SOURCES,
	CONTACT_TYPES,
	MARKETING_SOURCES,
	USE_CASES,
} from '../../helpers/constants';
import { checkCountryCode } from '../../helpers/validation';
import { EMPTY_AS_NULL, enumField, metadataBodyField } from './bodies';

/** Address members: [display name, parameter, API member, description]. */
const ADDRESS_LINES: Array<[string, string, string, string]> = [
	['City', 'city', 'city', ''],
	[
		'Country Code',
		'countryAlpha2',
		'country_alpha2',
		'Two-letter ISO 3166-1 alpha-2 code, e.g. GB',
	],
	['Line 1', 'line1', 'line_1', ''],
	['Line 2', 'line2', 'line_2', ''],
	['Postal Code', 'postalCode', 'postal_code', ''],
	['State', 'state', 'state', 'State, county or region'],
];

/** Text members: [display name, parameter, API member, description]. */
const TEXTS: Array<[string, string, string, string]> = [
	[
		'Company Registration Number',
		'companyRegistrationNumber',
		'company_registration_number',
		'Registration number of a company contact',
	],
	['Full Name', 'fullName', 'full_name', 'Name of the person or company'],
	['Phone Number', 'phoneNumber', 'phone_number', 'Phone number, e.g. +44 7700 900123'],
	['Tax ID', 'taxId', 'tax_id', 'VAT or other tax identification number'],
];

/** Members from the API's documented values: [display name, parameter, API member, values]. */
const ENUMS: Array<[string, string, string, string[]]> = [
	['Marketing Source', 'marketingSource', 'marketing_source', MARKETING_SOURCES],
	['Source', 'source', 'source', CONTACT_SOURCES],
	['Type', 'type', 'type', CONTACT_TYPES],
	['Use Case', 'useCase', 'use_case', USE_CASES],
];

/** The address of Contact Create / Update, sent as one `address` object (the API replaces the whole address). */
const contactAddress = (collection: string): INodeProperties => ({
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
			values: ADDRESS_LINES.map(([displayName, name, property, description]) => ({
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
						...(name === 'countryAlpha2'
							? {
									preSend: [
										checkCountryCode(
											`${collection}.address.address.countryAlpha2`,
											'Address: Country Code',
										),
									],
								}
							: {}),
					},
				},
			})),
		},
	],
});

/**
 * The new contact of Order Create (docs: full_name, email, tax_id, phone_number, address, type, marketing_source,
 * source, use_case), sent under `contact`: the address as flat "Address ..." fields, and what is given is sent as
 * given (a new record has nothing to clear).
 */
function newContactMembers(path: string): INodeProperties[] {
	const member = (displayName: string, name: string, property: string): INodeProperties => ({
		displayName,
		name,
		type: 'string',
		default: '',
		routing: { send: { type: 'body', property: `contact.${property}` } },
	});
	return [
		...ADDRESS_LINES.map(([displayName, name, property, description]): INodeProperties => {
			const line = member(`Address ${displayName}`, name, `address.${property}`);
			if (name !== 'countryAlpha2') return description ? { ...line, description } : line;
			return {
				...line,
				routing: {
					send: {
						type: 'body',
						property: 'contact.address.country_alpha2',
						value:
							'={{ String($value).trim() === "" ? undefined : String($value).trim().toUpperCase() }}',
						preSend: [
							checkCountryCode(`${path}.countryAlpha2`, 'New Contact: Address Country Code'),
						],
					},
				},
				placeholder: 'GB',
				description: 'Two-letter ISO 3166-1 alpha-2 code of the country, e.g. GB',
			};
		}),
		...TEXTS.filter(([, name]) => name !== 'companyRegistrationNumber').map(
			([displayName, name, property]) => member(displayName, name, property),
		),
		...ENUMS.map(([displayName, name, property, values]) =>
			enumField(displayName, name, `contact.${property}`, values),
		),
	];
}

/**
 * The optional members of a contact, in alphabetical order (with `extra` among them: the email, which Update can
 * change and a new contact needs). `place` says where: the `collection` of Contact Create (Additional Fields) or Update
 * (Update Fields), where a text left empty is sent as null and clears it; or `newContact`, the path of Order Create's
 * New Contact collection.
 */
export function contactFields(
	place: { collection: string } | { newContact: string },
	extra: INodeProperties[] = [],
): INodeProperties[] {
	const members =
		'newContact' in place
			? newContactMembers(place.newContact)
			: [
					contactAddress(place.collection),
					...TEXTS.map(
						([displayName, name, property, description]): INodeProperties => ({
							displayName,
							name,
							type: 'string',
							default: '',
							description,
							routing: { send: { type: 'body', property, value: EMPTY_AS_NULL } },
						}),
					),
					...ENUMS.map(([displayName, name, property, values]) =>
						enumField(displayName, name, property, values),
					),
					metadataBodyField(place.collection),
				];
	return [...members, ...extra].sort((a, b) => a.displayName.localeCompare(b.displayName));
}
