/**
 * The Resource parameter's checks over the whole selected operation: required values present, fixed choices chosen
 * from their lists (an expression can give anything).
 */
import type {
	IDataObject,
	IExecuteSingleFunctions,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

import { NOT_SENT, sentValue } from './sent';
import { shownFor } from './shownFor';
import { fail, failEmpty, isEmptyValue, type PreSend, shown } from './validation';

/**
 * Every required text, ID, date or choice of the operation that comes out empty fails before any request, naming it
 * (`failEmpty`). Required numbers and switches always have a value; record IDs in the URL are checked where they are
 * filled in.
 */
export function checkRequired(properties: INodeProperties[]): PreSend {
	const kinds = ['string', 'dateTime', 'options', 'resourceLocator'];
	const candidates = properties.filter(
		(property) => property.required && kinds.includes(property.type),
	);
	return async function (this: IExecuteSingleFunctions, options) {
		const parameters = this.getNode().parameters;
		const shownHere = candidates.filter((property) => plainlyShown(property, parameters));
		for (const property of shownHere) {
			// extractValue only for a locator: n8n looks the property up for it, and a name several operations
			// define differently would not be found.
			const extract = property.type === 'resourceLocator' ? { extractValue: true } : undefined;
			const sent = sentValue(options, property);
			const value =
				sent !== NOT_SENT ? sent : this.getNodeParameter(property.name, NOT_SET, extract);
			if (value !== NOT_SET && isEmptyValue(value))
				failEmpty(this, property.name, property.displayName);
		}
		return options;
	};
}

/**
 * Whether the editor shows `property` for these node parameters, where that is plain to see: every `show` and `hide`
 * condition a list of values compared with a top-level parameter set as a fixed value. Anything else (an expression in
 * a parameter a condition reads, a condition object) counts as not plainly shown, and its checks are left to Stora.
 */
function plainlyShown(property: INodeProperties, parameters: IDataObject): boolean {
	const { show = {}, hide = {} } = property.displayOptions ?? {};
	const valueOf = (name: string) => parameters[name.replace(/^\//, '')];
	const plain = (values: unknown) =>
		Array.isArray(values) &&
		values.every((value) => ['string', 'number', 'boolean'].includes(typeof value));
	for (const [name, values] of Object.entries(show)) {
		if (name.startsWith('@')) continue;
		const value = valueOf(name);
		if (
			!plain(values) ||
			(typeof value === 'string' && value.startsWith('=')) ||
			!(values as unknown[]).includes(value)
		)
			return false;
	}
	for (const [name, values] of Object.entries(hide)) {
		if (name.startsWith('@')) continue;
		const value = valueOf(name);
		if (
			!plain(values) ||
			(typeof value === 'string' && value.startsWith('=')) ||
			(values as unknown[]).includes(value)
		)
			return false;
	}
	return true;
}

/** Whether a field offers a fixed list of choices (choices loaded from the API are checked by the ID checks). */
function hasChoices(property: INodeProperties): boolean {
	return (
		['options', 'multiOptions'].includes(property.type) &&
		!property.typeOptions?.loadOptionsMethod &&
		Boolean(property.options?.length)
	);
}

/** Whether a parameter value holds an expression anywhere (n8n evaluates it; a fixed value is what it says). */
function holdsExpression(value: unknown): boolean {
	if (typeof value === 'string') return value.startsWith('=');
	if (Array.isArray(value)) return value.some(holdsExpression);
	if (value && typeof value === 'object') return Object.values(value).some(holdsExpression);
	return false;
}

/** The first value of an options (or multi-options) parameter that is not one of its choices, if any. */
function notAChoice(
	property: INodeProperties,
	value: unknown,
): { bad: unknown; allowed: unknown[] } | undefined {
	if (value === undefined || !hasChoices(property)) return undefined;
	const allowed = (property.options as INodePropertyOptions[]).map((option) => option.value);
	// An expression may give a multi-select as a comma-separated text.
	const values =
		property.type !== 'multiOptions'
			? [value]
			: (Array.isArray(value)
					? value
					: typeof value === 'string'
						? value.split(',').map((entry) => entry.trim())
						: [value]
				).filter((entry) => entry !== '');
	const bad = values.find((candidate) => !allowed.includes(candidate as string));
	return values.every((candidate) => allowed.includes(candidate as string))
		? undefined
		: { bad, allowed };
}

const NOT_SET = Symbol('not set') as unknown as object;

/**
 * The Resource parameter's preSend: every fixed-choice parameter of the operation (and of its collections) must hold
 * one of its choices. The editor only offers those, but an expression can give anything, and a value outside the
 * list silently drops that choice's routing (for example the request URL).
 */
export function checkChoices(properties: INodeProperties[]): PreSend {
	const candidates = properties.filter(
		(property) =>
			['options', 'multiOptions', 'collection'].includes(property.type) &&
			!['resource', 'operation', 'authentication'].includes(property.name),
	);
	const byOperation = new Map<string, INodeProperties[]>();
	return async function (this: IExecuteSingleFunctions, options) {
		const resource = String(this.getNodeParameter('resource', ''));
		const operation = String(this.getNodeParameter('operation', ''));
		const key = `${resource}\n${operation}`;
		if (!byOperation.has(key))
			byOperation.set(
				key,
				candidates.filter((property) => shownFor(property, resource, operation)),
			);
		const parameters = this.getNode().parameters;
		// Only a value from an expression can be off the list: a fixed one is read as it is, and an expression is
		// evaluated only where it sets a choice (each evaluation costs per item). n8n throws for a parameter the
		// current settings hide unless the fallback is defined.
		const read = (path: string, raw: unknown) =>
			holdsExpression(raw) ? (this.getNodeParameter(path, NOT_SET) as unknown) : raw;
		for (const property of byOperation.get(key)!) {
			const raw = parameters[property.name];
			if (raw === undefined) continue;
			const fields =
				property.type === 'collection' && raw && typeof raw === 'object' && !Array.isArray(raw)
					? (raw as IDataObject)
					: undefined;
			const members = fields
				? ((property.options ?? []) as INodeProperties[])
						.filter(
							(member) =>
								member.name in fields &&
								hasChoices(member) &&
								shownFor(member, resource, operation),
						)
						.map((member) => ({
							member,
							value: read(`${property.name}.${member.name}`, fields[member.name]),
							label: `${property.displayName} → ${member.displayName}`,
						}))
				: [{ member: property, value: read(property.name, raw), label: property.displayName }];
			for (const { member, value: memberValue, label } of members) {
				if (memberValue === NOT_SET) continue;
				const problem = notAChoice(member, memberValue);
				if (problem) {
					const path = member === property ? property.name : `${property.name}.${member.name}`;
					fail(
						this,
						`${label}: ${shown(problem.bad)} is not one of the choices`,
						`Choose one of: ${problem.allowed.map((choice) => shown(choice)).join(', ')}.`,
						{ path, label },
					);
				}
			}
		}
		return options;
	};
}
