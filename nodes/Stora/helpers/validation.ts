import type { IDataObject, IExecuteSingleFunctions, IHttpRequestOptions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

export type PreSend = (this: IExecuteSingleFunctions, options: IHttpRequestOptions) => Promise<IHttpRequestOptions>;

/** "a" or "an" before a label, by its sound: "an invoice ID", "a contact ID", "a unit type ID". */
export const article = (label: string) => (/^([aeio]|u(?!ni|s[aeiu]))/i.test(label) ? 'an' : 'a');
const capitalize = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/** A value as an error message quotes it: text in quotes (shortened), anything else (an expression's object) as JSON. */
export function shown(value: unknown): string {
	if (value === undefined || value === null || value === '') return '(empty)';
	const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
	const short = text.length > 80 ? `${text.slice(0, 77)}...` : text;
	return typeof value === 'string' ? `"${short}"` : short;
}

/**
 * Whether `text` is a real calendar date (YYYY-MM-DD) or an ISO 8601 date-time: `Date.parse` alone accepts "0",
 * "-1" and 30 February.
 */
export function isIsoDate(text: string): boolean {
	const match = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/.exec(text);
	if (!match) return false;
	const [year, month, day, hour = 0, minute = 0, second = 0] = match.slice(1).map((part) => Number(part ?? 0));
	const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
	return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth && hour < 24 && minute < 60 && second < 60;
}

/** Stops before any request with an error naming the parameter (`message`) and how to fix it (`description`). */
export function fail(context: IExecuteSingleFunctions, message: string, description: string): never {
	throw new NodeOperationError(context.getNode(), message, { description, itemIndex: context.getItemIndex() });
}

/** The pattern of a record ID: one of the API's prefixes (`con_`, `site_`, ...) followed by letters or digits. */
export function idPattern(prefixes: string | readonly string[]): string {
	return `^(?:${(typeof prefixes === 'string' ? [prefixes] : prefixes).join('|')})[A-Za-z0-9]+$`;
}

/** Whether `id` is the ID of a record of a kind `prefixes` stands for. */
export function isIdOf(id: string, prefixes: string | readonly string[]): boolean {
	return new RegExp(idPattern(prefixes)).test(id);
}

/** The IDs of a multi-select or a comma-separated text (an expression may give either), trimmed, blanks dropped. */
export function idsOf(raw: unknown): string[] {
	const asText = (value: unknown) => (typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value)));
	if (raw !== null && typeof raw === 'object' && !Array.isArray(raw)) return [asText(raw)];
	return (Array.isArray(raw) ? raw : String(raw ?? '').split(','))
		.map((id) => asText(id).trim())
		.filter((id) => id !== '');
}

/**
 * The record ID in `parameter`, trimmed, after checking it against the API's prefix before any request, so a pasted
 * contact ID in a site field fails with a message naming the parameter instead of a 404 from Stora. A field that may
 * reference records of several kinds (a note on a contact, unit, subscription or task) gives several prefixes.
 * Undefined for an empty optional field.
 */
export function checkedId(
	context: IExecuteSingleFunctions,
	parameter: string,
	label: string,
	prefixes: string | readonly string[],
	optional = false,
): string | undefined {
	const list = typeof prefixes === 'string' ? [prefixes] : [...prefixes];
	const value = context.getNodeParameter(parameter, '', { extractValue: true }) as string | undefined;
	if ((value === '' || value === undefined || value === null) && optional) return undefined;
	const id = typeof value === 'string' ? value.trim() : '';
	if (isIdOf(id, list)) return id;
	if (list.length === 1) {
		fail(
			context,
			`${label}: ${shown(typeof value === 'string' ? id : value)} is not ${article(label)} ${label.toLowerCase()} ID`,
			`${capitalize(article(label))} ${label.toLowerCase()} ID starts with "${list[0]}" (for example ${list[0]}a1b2c3). Pick the record from the list or paste its ID.`,
		);
	}
	fail(
		context,
		`${label}: ${shown(typeof value === 'string' ? id : value)} is not a valid ID here`,
		`The ID must start with one of ${list.map((prefix) => `"${prefix}"`).join(', ')} (for example ${list[0]}a1b2c3).`,
	);
}

/** `checkedId` as a field's preSend. */
export function checkId(
	parameter: string,
	label: string,
	prefixes: string | readonly string[],
	optional = false,
): PreSend {
	return async function (this: IExecuteSingleFunctions, options) {
		checkedId(this, parameter, label, prefixes, optional);
		return options;
	};
}

/**
 * Checks every ID of a list filter against the prefixes before any request, so a site ID pasted into a contact
 * filter fails instead of matching nothing. `unspecified` lets the API's own "unspecified" (no such reference) through.
 */
export function checkIdList(
	parameter: string,
	label: string,
	prefixes: readonly string[],
	unspecified = false,
): PreSend {
	return async function (this: IExecuteSingleFunctions, options) {
		const bad = idsOf(this.getNodeParameter(parameter, [])).find(
			(id) => !(unspecified && id === 'unspecified') && !isIdOf(id, prefixes),
		);
		if (bad !== undefined) {
			const starts =
				prefixes.length === 1
					? `start with "${prefixes[0]}"`
					: `start with one of ${prefixes.map((prefix) => `"${prefix}"`).join(', ')}`;
			fail(
				this,
				`${label}: "${bad}" is not a valid ID`,
				`Each ID must ${starts} (for example ${prefixes[0]}a1b2c3)${unspecified ? ', or be "unspecified"' : ''}; separate several with commas.`,
			);
		}
		return options;
	};
}

/** Checks a number parameter's range before any request. */
export function checkNumber(
	parameter: string,
	label: string,
	rule: { min?: number; max?: number; above?: number; notZero?: boolean; integer?: boolean; required?: boolean },
): PreSend {
	return async function (this: IExecuteSingleFunctions, options) {
		const raw = this.getNodeParameter(parameter, null) as number | string | undefined | null;
		if ((raw === undefined || raw === null || raw === '') && !rule.required) return options;
		const value = Number(raw);
		const expected = [
			rule.integer ? 'a whole number' : 'a number',
			rule.above !== undefined ? `greater than ${rule.above}` : undefined,
			rule.min !== undefined ? `at least ${rule.min}` : undefined,
			rule.max !== undefined ? `at most ${rule.max}` : undefined,
			rule.notZero ? 'not zero' : undefined,
		]
			.filter(Boolean)
			.join(', ');
		const bad =
			!Number.isFinite(value) ||
			(rule.integer && !Number.isInteger(value)) ||
			(rule.above !== undefined && value <= rule.above) ||
			(rule.min !== undefined && value < rule.min) ||
			(rule.max !== undefined && value > rule.max) ||
			(rule.notZero && value === 0);
		if (bad) fail(this, `${label}: ${shown(raw)} is out of range`, `${label} must be ${expected}.`);
		return options;
	};
}

/**
 * A date parameter's value as text: a string as given, and the date objects an expression can give (`{{ $now }}`,
 * `{{ $today }}` are luxon DateTimes, with their offset; a JS Date is UTC). Undefined for anything else.
 */
export function dateText(raw: unknown): string | undefined {
	if (typeof raw === 'string') return raw.trim();
	if (raw instanceof Date) return Number.isNaN(raw.getTime()) ? undefined : raw.toISOString();
	const toISO = (raw as { toISO?: unknown } | null | undefined)?.toISO;
	if (typeof toISO === 'function') {
		const text: unknown = toISO.call(raw);
		return typeof text === 'string' ? text : undefined;
	}
	return undefined;
}

/** Checks that a date parameter holds a real calendar date (YYYY-MM-DD) or date-time. */
export function checkDate(parameter: string, label: string, allowed: string[] = []): PreSend {
	return async function (this: IExecuteSingleFunctions, options) {
		const raw = this.getNodeParameter(parameter, '') as unknown;
		if (raw === '' || raw === undefined || raw === null || (typeof raw === 'string' && allowed.includes(raw))) return options;
		const text = dateText(raw);
		if (text === undefined || !isIsoDate(text)) {
			fail(
				this,
				`${label}: ${shown(raw)} is not a valid date`,
				`Use a date such as 2026-05-01${allowed.length ? ` or one of: ${allowed.join(', ')}` : ''}.`,
			);
		}
		return options;
	};
}

/**
 * Checks a country code (ISO 3166-1 alpha-2, e.g. GB) before any request: the API's `country_alpha2` takes exactly two
 * letters, and a name or a three-letter code would only come back as a 422. Empty passes (not given, or cleared).
 */
export function checkCountryCode(parameter: string, label: string): PreSend {
	return async function (this: IExecuteSingleFunctions, options) {
		const raw = this.getNodeParameter(parameter, '') as unknown;
		if (raw === '' || raw === undefined || raw === null) return options;
		if (typeof raw !== 'string' || !/^[A-Za-z]{2}$/.test(raw.trim())) {
			fail(
				this,
				`${label}: ${shown(raw)} is not a two-letter country code`,
				'Use the ISO 3166-1 alpha-2 code of the country, e.g. GB, IE or US.',
			);
		}
		return options;
	};
}

/** Rows of a key/value fixedCollection (`{ entry: [{ key, value }] }`) as an object. */
export function keyValues(collection: IDataObject | undefined): IDataObject {
	const rows = ((collection?.entry as IDataObject[] | undefined) ?? []).filter((row) => String(row.key ?? '') !== '');
	return Object.fromEntries(rows.map((row) => [String(row.key), row.value as string]));
}

/**
 * Puts the metadata rows of a Create / Update into the body as one object. Done here rather than with dot-path
 * routing so keys containing dots or brackets stay literal.
 */
export function sendMetadata(parameter: string): PreSend {
	return async function (this: IExecuteSingleFunctions, options) {
		const metadata = keyValues(this.getNodeParameter(parameter, {}) as IDataObject);
		if (Object.keys(metadata).length) {
			options.body = { ...((options.body as IDataObject | undefined) ?? {}), metadata };
		}
		return options;
	};
}

/**
 * Puts the rows of a key/value fixedCollection into the body as one object under `property` (e.g. a timeline
 * event's `variables`), keys kept literally.
 */
export function sendKeyValues(parameter: string, property: string): PreSend {
	return async function (this: IExecuteSingleFunctions, options) {
		const values = keyValues(this.getNodeParameter(parameter, {}) as IDataObject);
		if (Object.keys(values).length) {
			options.body = { ...((options.body as IDataObject | undefined) ?? {}), [property]: values };
		}
		return options;
	};
}

function shownFor(property: INodeProperties, resource: string, operation: string): boolean {
	const show = property.displayOptions?.show ?? {};
	const resources = show.resource as string[] | undefined;
	const operations = show.operation as string[] | undefined;
	return (!resources || resources.includes(resource)) && (!operations || operations.includes(operation));
}

/** The first value of an options (or multi-options) parameter that is not one of its choices, if any. */
function notAChoice(property: INodeProperties, value: unknown): { bad: unknown; allowed: unknown[] } | undefined {
	if (value === undefined || !['options', 'multiOptions'].includes(property.type)) return undefined;
	// Choices loaded from the API are checked by the ID checks instead.
	if (property.typeOptions?.loadOptionsMethod || !property.options?.length) return undefined;
	const allowed = (property.options as INodePropertyOptions[]).map((option) => option.value);
	// An expression may give a multi-select as a comma-separated text.
	const values =
		property.type !== 'multiOptions'
			? [value]
			: (Array.isArray(value) ? value : typeof value === 'string' ? value.split(',').map((entry) => entry.trim()) : [value]).filter(
					(entry) => entry !== '',
				);
	const bad = values.find((candidate) => !allowed.includes(candidate as string));
	return values.every((candidate) => allowed.includes(candidate as string)) ? undefined : { bad, allowed };
}

const NOT_SET = Symbol('not set') as unknown as object;

/**
 * The Resource parameter's preSend: every fixed-choice parameter of the operation (and of its collections) must hold
 * one of its choices. The editor only offers those, but an expression can give anything, and a value outside the
 * list silently drops that choice's routing (for example the request URL).
 */
export function checkChoices(properties: INodeProperties[]): PreSend {
	return async function (this: IExecuteSingleFunctions, options) {
		const resource = String(this.getNodeParameter('resource', ''));
		const operation = String(this.getNodeParameter('operation', ''));
		for (const property of properties) {
			if (!['options', 'multiOptions', 'collection'].includes(property.type)) continue;
			if (!shownFor(property, resource, operation) || ['resource', 'operation', 'authentication'].includes(property.name)) continue;
			// n8n throws for a parameter the current settings hide unless the fallback is defined.
			const value = this.getNodeParameter(property.name, NOT_SET) as unknown;
			if (value === NOT_SET) continue;
			const members =
				property.type === 'collection' && value && typeof value === 'object' && !Array.isArray(value)
					? ((property.options ?? []) as INodeProperties[])
							.filter((member) => member.name in (value as IDataObject))
							.map((member) => ({ member, value: (value as IDataObject)[member.name], label: `${property.displayName} → ${member.displayName}` }))
					: [{ member: property, value, label: property.displayName }];
			for (const { member, value: memberValue, label } of members) {
				const problem = notAChoice(member, memberValue);
				if (problem) {
					fail(
						this,
						`${label}: ${shown(problem.bad)} is not one of the choices`,
						`Choose one of: ${problem.allowed.map((choice) => shown(choice)).join(', ')}.`,
					);
				}
			}
		}
		return options;
	};
}

/** Checks an e-mail address's shape before any request (Stora's own check is stricter; this catches the obvious). */
export function checkEmail(parameter: string, label: string, optional = false): PreSend {
	return async function (this: IExecuteSingleFunctions, options) {
		const value = this.getNodeParameter(parameter, '') as unknown;
		if (optional && (value === '' || value === undefined || value === null)) return options;
		if (typeof value !== 'string' || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value.trim())) {
			fail(this, `${label}: ${shown(value)} is not an email address`, 'Use an address such as name@example.com.');
		}
		return options;
	};
}
