/**
 * Picking records: locators, record dropdowns and plain ID fields, each checked against the record kind's prefix
 * (helpers/records.ts), and `fillRecordIds`, which puts the record IDs an operation's URL names into it.
 */
import type { IExecuteSingleFunctions, IHttpRequestOptions, INodeProperties } from 'n8n-workflow';

import { dropWhenEmpty } from '../../helpers/body';
import { checkedId, checkId, idPattern } from '../../helpers/ids';
import {
	ID_PREFIXES,
	recordKindOfParameter,
	recordOf,
	type RecordKind,
} from '../../helpers/records';
import { article } from '../../helpers/validation';

/** How a dropdown or ID filter says that an expression can give the ID instead. */
export const EXPRESSION_LINK = '<a href="https://docs.n8n.io/code/expressions/">expression</a>';

/**
 * A record picked From List (searchable), or By ID (checked against the API's prefix). The parameter is `<kind>Id`
 * unless `name` says otherwise. `send` puts the ID into the body or query; without it, the operation's URL names the
 * parameter (`/contacts/{contactId}`) and `fillRecordIds` checks and inserts it.
 */
export function locator(
	kind: RecordKind,
	options: {
		name?: string;
		displayName?: string;
		description?: string;
		/** Where the ID goes in the request, e.g. `{ type: 'body', property: 'contact.id' }`; `value` transforms it. */
		send?: { type: 'body' | 'query'; property: string; value?: string };
		/** Full parameter path for the prefix check when the locator sits in a collection, e.g. `additionalFields.contactId`. */
		path?: string;
		/** Shown as required in the editor (default true). */
		required?: boolean;
		/** Whether an empty value passes the prefix check (default: when not required). */
		optional?: boolean;
	} = {},
): INodeProperties {
	const record = recordOf(kind);
	const displayName = options.displayName ?? record.displayName;
	const name = options.name ?? `${kind}Id`;
	const prefix = ID_PREFIXES[kind];
	const required = options.required ?? true;
	return {
		displayName,
		name,
		type: 'resourceLocator',
		default: { mode: record.searchListMethod ? 'list' : 'id', value: '' },
		required,
		description: options.description,
		// What n8n's AI workflow builders read: a model tends to type a name or an invented ID here.
		builderHint: {
			propertyHint: `A ${displayName.toLowerCase()} ID starting with "${prefix}", taken from an earlier node's output (for example the id of a Stora node's item) with mode "id"; never a name or an invented ID. Mode "list" is for a person picking in the editor.`,
		},
		modes: [
			...(record.searchListMethod
				? [
						{
							displayName: 'From List',
							name: 'list',
							type: 'list' as const,
							typeOptions: { searchListMethod: record.searchListMethod, searchable: true },
						},
					]
				: []),
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: `${prefix}a1b2c3`,
				validation: [
					{
						type: 'regex',
						properties: {
							regex: idPattern(prefix),
							errorMessage: `${article(displayName) === 'an' ? 'An' : 'A'} ${displayName.toLowerCase()} ID starts with "${prefix}", for example ${prefix}a1b2c3`,
						},
					},
				],
			},
		],
		// Without `send` or `path`, the operation's URL names the locator and `fillRecordIds` reads it there.
		...(options.send || options.path
			? {
					routing: {
						send: {
							...(options.send ?? {}),
							preSend: [
								checkId(options.path ?? name, displayName, prefix, options.optional ?? !required),
							],
						},
					},
				}
			: {}),
	};
}

/**
 * A dropdown of records that live in the API (sites, deal stages, unit types, ...), checked against the prefix. With
 * `property` it is sent as `{ <property>: { id } }`; without, an operation's URL reads it.
 */
export function recordDropdown(
	kind: RecordKind,
	options: {
		description: string;
		name?: string;
		label?: string;
		/** Full parameter path for the prefix check, e.g. `additionalFields.siteId`. */
		path?: string;
		property?: string;
		required?: boolean;
	},
): INodeProperties {
	const label = options.label ?? recordOf(kind).displayName;
	const name = options.name ?? `${kind}Id`;
	return {
		displayName: `${label} Name or ID`,
		name,
		type: 'options',
		typeOptions: { loadOptionsMethod: recordOf(kind).loadOptionsMethod },
		default: '',
		...(options.required ? { required: true } : {}),
		description: `${options.description}. Choose from the list, or specify an ID using an ${EXPRESSION_LINK}.`,
		builderHint: {
			propertyHint: `A ${label.toLowerCase()} ID starting with "${ID_PREFIXES[kind]}" (from an earlier node's output, or a Stora Get Many of them); the names in the list are for a person in the editor, not values to send.`,
		},
		// Without `property` or `path`, the operation's URL names the dropdown and `fillRecordIds` reads it there.
		...(options.property || options.path
			? {
					routing: {
						send: {
							...(options.property
								? { type: 'body' as const, property: `${options.property}.id` }
								: {}),
							// Left empty, an optional dropdown is not set (required ones fail naming the field).
							preSend: [
								checkId(options.path ?? name, label, ID_PREFIXES[kind], !options.required),
								...(options.property && !options.required
									? [dropWhenEmpty(options.path ?? name, `${options.property}.id`)]
									: []),
							],
						},
					},
				}
			: {}),
	};
}

/** The parameters an operation's URL names, e.g. `['contactId']` for `/contacts/{contactId}`. */
export function urlParameters(url: string): string[] {
	return [...url.matchAll(/\{(\w+)\}/g)].map(([, name]) => name);
}

/**
 * Puts the record IDs an operation's URL names (`/contacts/{contactId}`) into it, each checked against its prefix and
 * encoded. A fixed URL with this one preSend, rather than a URL expression and a check on the field, because n8n
 * would evaluate the field's expression again for each of those on every item. The naming
 * rule gives each placeholder's record kind (`recordKindOfParameter`); descriptionsRouting.test.ts fails on a URL that names
 * anything else.
 */
export async function fillRecordIds(
	this: IExecuteSingleFunctions,
	options: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	let url = options.url;
	// Some operations (an image download) set their URL in a preSend of their own, later.
	if (url === undefined) return options;
	const resource = String(this.getNodeParameter('resource', ''));
	for (const name of urlParameters(url)) {
		const kind = recordKindOfParameter(resource, name);
		if (kind === undefined)
			throw new Error(`No record kind for the URL parameter {${name}} of ${resource}`);
		const id = checkedId(this, name, recordOf(kind).displayName, ID_PREFIXES[kind]) as string;
		url = url.replace(`{${name}}`, encodeURIComponent(id));
	}
	return url === options.url ? options : { ...options, url };
}

/** A plain ID field (records the node cannot list, such as staff members), sent as `{ <property>: { id } }`. */
export function idField(
	kind: RecordKind,
	options: {
		displayName: string;
		name: string;
		path: string;
		property: string;
		description: string;
	},
): INodeProperties {
	const prefix = ID_PREFIXES[kind];
	return {
		displayName: options.displayName,
		name: options.name,
		type: 'string',
		default: '',
		placeholder: `${prefix}a1b2c3`,
		description: options.description,
		builderHint: {
			propertyHint: `An ID starting with "${prefix}" from an earlier node's output, or empty; never a name.`,
		},
		routing: {
			send: {
				type: 'body',
				property: `${options.property}.id`,
				// Optional, and a plain text field (no list): left empty it is not set.
				preSend: [
					checkId(options.path, options.displayName.replace(/ ID$/, ''), prefix, true, false),
					dropWhenEmpty(options.path, `${options.property}.id`),
				],
			},
		},
	};
}

/** A text field for the ID of a record of one of several kinds (what a note or task is about), sent at `property`. */
export function linkedRecordField(options: {
	displayName: string;
	name: string;
	path: string;
	property: string;
	kinds: RecordKind[];
	description: string;
	required?: boolean;
}): INodeProperties {
	return {
		displayName: options.displayName,
		name: options.name,
		type: 'string',
		default: '',
		...(options.required ? { required: true } : {}),
		placeholder: `${ID_PREFIXES[options.kinds[0]]}a1b2c3`,
		description: options.description,
		builderHint: {
			propertyHint: `The record's ID with its prefix (${options.kinds.map((kind) => `"${ID_PREFIXES[kind]}"`).join(', ')}) from an earlier node's output; never a name.`,
		},
		routing: {
			send: {
				type: 'body',
				property: options.property,
				value: '={{ String($value).trim() }}',
				preSend: [
					checkId(
						options.path,
						options.displayName,
						options.kinds.map((kind) => ID_PREFIXES[kind]),
						!options.required,
						false,
					),
					...(options.required ? [] : [dropWhenEmpty(options.path, options.property)]),
				],
			},
		},
	};
}
