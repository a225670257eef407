/**
 * What the Stora node shows only as an AI tool (`@tool`, n8n's `storaTool` variant for an AI Agent or the MCP Server
 * Trigger): the Description a model reads for each operation, and the Output the model gets.
 *
 * n8n gives a tool node a Tool Description of its own only when the node has none; set automatically, that is the
 * operation's `action` ("Get many contacts in Stora"), the same short text for every tool of that operation, saying
 * nothing of what the tool needs or returns. So the node brings its own `toolDescription` parameter, one per
 * operation, whose default n8n hands to the model: what the operation does (its editor description), what it needs
 * (its required parameters, IDs with their prefix), and what it returns in tool use. Editable like n8n's own.
 */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { MAX_PAGE_SIZE } from '../helpers/constants';
import { SIMPLIFIED_FIELDS } from '../helpers/output';
import { recordKindOfParameter, RECORDS } from '../helpers/records';
import { resourceFacts } from '../helpers/resources';
import { TOOL_MAX_RECORDS } from '../helpers/tool';
import { PARAMETER } from '../helpers/parameters';

const sentence = (text: string) => {
	const trimmed = text.trim();
	return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
};

/** "Base Prices" → "base prices"; "URL" and "ID of ..." stay. */
const lower = (text: string) => text.replace(/\b[A-Z][a-z]+\b/g, (word) => word.toLowerCase());

/** The record a resource's operation returns, named as a model reads it ("unit type"). */
const recordName = (resource: string) =>
	(resource in RECORDS
		? RECORDS[resource as keyof typeof RECORDS].displayName
		: resource
	).toLowerCase();

/**
 * Whether a property is shown for this resource and operation whatever else is set: its show conditions name only
 * those two (a field shown for one line item type is needed only then, so it is not listed as needed).
 */
function alwaysShownFor(property: INodeProperties, resource: string, operation: string): boolean {
	const { show = {}, hide } = property.displayOptions ?? {};
	const resources = show.resource as string[] | undefined;
	const operations = show.operation as string[] | undefined;
	const others = Object.keys(show).filter(
		(key) => !['resource', 'operation', '@tool'].includes(key),
	);
	return (
		!hide &&
		others.length === 0 &&
		(!resources || resources.includes(resource)) &&
		(!operations || operations.includes(operation))
	);
}

/** A required parameter as the model must give it: an ID with its prefix, a choice with its values, or its name. */
function need(resource: string, property: INodeProperties): string {
	const kind = recordKindOfParameter(resource, property.name);
	if (kind)
		return `the ${RECORDS[kind].displayName.toLowerCase()} ID (starts with ${RECORDS[kind].prefix})`;
	if (/RecordId$/.test(property.name) && property.description)
		return lower(property.description.replace(/\.$/, ''));
	if (
		property.type === 'options' &&
		property.options?.length &&
		!property.typeOptions?.loadOptionsMethod
	) {
		const values = (property.options as INodePropertyOptions[]).map((option) =>
			String(option.value),
		);
		return `${lower(property.displayName)} (one of ${values.join(', ')})`;
	}
	return lower(property.displayName);
}

/** The editor description's sentences, without those about n8n items (a tool answers with one JSON text). */
function sentencesOf(description: string): string[] {
	return sentence(description)
		.split(/(?<=[.!?])\s+(?=[A-Z])/)
		.map((part) => part.trim())
		.filter(
			(part) =>
				part && !/^Returns (one item|an item)/.test(part) && !/binary (data|field)/.test(part),
		);
}

/** What the operation hands back in tool use, where its editor description does not say. */
function returns(resource: string, option: INodePropertyOptions, said: boolean): string[] {
	const method = String(option.routing?.request?.method ?? 'GET');
	const url = String(option.routing?.request?.url ?? '');
	const name = recordName(resource);
	const fields = SIMPLIFIED_FIELDS[resource];
	const main = fields ? `Each ${name} comes with its main fields: ${fields.join(', ')}.` : '';
	const money = resourceFacts(resource)?.money
		? 'Money is { amount in minor units (14300 is 143.00), currency, formatted }.'
		: '';
	if (/download|pdf/i.test(String(option.value)))
		return ['The file comes back as binary data, which a model cannot read.'];
	if (option.value === 'getAll') {
		const list = url.split('/').filter(Boolean).pop() ?? 'records';
		return [
			`Returns { ${list}: [...], count, total }: at most Limit of them (1 to ${MAX_PAGE_SIZE}, default 50; Return All gives at most ${TOOL_MAX_RECORDS}); ` +
				'when more match, "more" says how many and how to narrow the list.',
			main,
			money,
		];
	}
	if (method === 'DELETE') return said ? [] : ['Returns deleted: true and the ID.'];
	const generic =
		method === 'GET'
			? `Returns the ${name}.`
			: method === 'PATCH'
				? `Returns the updated ${name}.`
				: !url.includes('{')
					? `Returns the new ${name}.`
					: '';
	// Record answers only: an action answering { success, message } says so itself.
	const record =
		generic !== '' ||
		new RegExp(`Returns the (new |updated )?${name}`, 'i').test(String(option.description));
	return [said ? '' : generic, record ? main : '', money];
}

/** The text a model reads for one operation of a resource: what it does, what it needs, what it returns. */
function toolDescriptionOf(
	resource: string,
	option: INodePropertyOptions,
	properties: INodeProperties[],
): string {
	const operation = String(option.value);
	const toolNote = resourceFacts(resource)?.toolNotes?.[operation];
	const [does, ...details] = sentencesOf(
		String(option.description ?? option.action ?? option.name),
	).filter((part) => !toolNote?.drop.test(part));
	const needs = properties
		.filter(
			(property) =>
				property.required &&
				property.name !== 'operation' &&
				alwaysShownFor(property, resource, operation),
		)
		.map((property) => need(resource, property));
	const text = [does, ...details].join(' ');
	const said = /\breturns\b/i.test(text) || toolNote !== undefined;
	return [
		does,
		needs.length && !/\bneeds\b/i.test(text) ? `Needs ${needs.join('; ')}.` : '',
		...details,
		toolNote?.note ?? '',
		...returns(resource, option, said),
	]
		.filter(Boolean)
		.join(' ');
}

/**
 * The tool-only parameters for every operation of `resources`: a Description per operation (its default what
 * `toolDescriptionOf` writes) and, where Simplify exists, the Output a model gets.
 */
export function toolProperties(
	resources: Record<string, { description: INodeProperties[] }>,
): INodeProperties[] {
	const descriptions: INodeProperties[] = Object.entries(resources).flatMap(
		([resource, { description }]) => {
			const operation = description.find((property) => property.name === 'operation');
			return ((operation?.options ?? []) as INodePropertyOptions[]).map((option) => ({
				displayName: 'Description',
				name: 'toolDescription',
				type: 'string' as const,
				typeOptions: { rows: 4 },
				default: toolDescriptionOf(resource, option, description),
				description:
					'What the model reads about this tool, written for the chosen operation. Say more here when two tools do the same operation with different settings.',
				// '@tool' first: the Stora node itself skips these at the first condition.
				displayOptions: {
					show: { '@tool': [true], resource: [resource], operation: [String(option.value)] },
				},
			}));
		},
	);
	return [
		...descriptions,
		{
			displayName: 'Output',
			name: PARAMETER.toolOutput,
			type: 'options',
			default: 'simplified',
			options: [
				{
					name: 'Simplified Records',
					value: 'simplified',
					description:
						'The fields that identify a record and say what it is (what Simplify keeps): fewer tokens for the model',
				},
				{ name: 'Full Records', value: 'full', description: 'Every field Stora returns' },
			],
			description: 'What the model gets of each record',
			displayOptions: { show: { '@tool': [true], resource: Object.keys(SIMPLIFIED_FIELDS) } },
		},
	];
}
