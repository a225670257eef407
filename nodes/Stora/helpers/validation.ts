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

/**
 * Said after every check made before a request: n8n's declarative engine shows what a check throws as an API error
 * ("From Stora", error code none), which would make a newcomer think Stora refused the request.
 */
export const NOTHING_SENT = 'Checked in n8n before sending: nothing was sent to Stora.';

/** Stops before any request with an error naming the parameter (`message`) and how to fix it (`description`). */
export function fail(context: IExecuteSingleFunctions, message: string, description: string): never {
	throw new NodeOperationError(context.getNode(), message, {
		description: `${description}\n${NOTHING_SENT}`,
		itemIndex: context.getItemIndex(),
	});
}

/** The parameter as the user set it (before expressions are evaluated), by its path (`additionalFields.assigneeId`). */
function rawParameter(context: IExecuteSingleFunctions, path: string): unknown {
	let value: unknown = context.getNode().parameters;
	for (const key of path.split('.')) value = value && typeof value === 'object' ? (value as IDataObject)[key] : undefined;
	// A resource locator keeps the typed value under `value`.
	if (value && typeof value === 'object' && '__rl' in value) return (value as IDataObject).value;
	return value;
}

/** Whether a value counts as not given: empty text (or only spaces), null or undefined. */
export const isEmptyValue = (value: unknown) =>
	value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/**
 * A required parameter that came out empty: the error names it as the user sees it, the item, and whether an
 * expression gave nothing (a typo in a field name, say) or the field was left blank.
 */
export function failEmpty(context: IExecuteSingleFunctions, path: string, label: string): never {
	const raw = rawParameter(context, path);
	const expression = typeof raw === 'string' && raw.startsWith('=') ? raw.slice(1) : undefined;
	const item = context.getItemIndex();
	if (expression !== undefined) {
		fail(
			context,
			`${label} is empty for item ${item}: its expression gave no value`,
			`The expression ${shown(expression)} gave nothing for this item. Check the field it reads (for example {{ $json.full_name }}) in the input item, or give a fallback ({{ $json.name || 'Unknown' }}).`,
		);
	}
	fail(context, `${label} is empty for item ${item}`, `Fill in ${label}: Stora needs it.`);
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
	/** The field offers a list to pick from (a resource locator or dropdown); a plain ID field does not. */
	fromList = true,
): string | undefined {
	const list = typeof prefixes === 'string' ? [prefixes] : [...prefixes];
	const value = context.getNodeParameter(parameter, '', { extractValue: true }) as string | undefined;
	if (isEmptyValue(value)) {
		if (optional) return undefined;
		failEmpty(context, parameter, label);
	}
	const id = typeof value === 'string' ? value.trim() : '';
	if (isIdOf(id, list)) return id;
	if (list.length === 1) {
		fail(
			context,
			`${label}: ${shown(typeof value === 'string' ? id : value)} is not ${article(label)} ${label.toLowerCase()} ID`,
			`${capitalize(article(label))} ${label.toLowerCase()} ID starts with "${list[0]}" (for example ${list[0]}a1b2c3). ${fromList ? 'Pick the record from the list or paste its ID.' : 'Paste the ID as Stora shows it.'}`,
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
	fromList = true,
): PreSend {
	return async function (this: IExecuteSingleFunctions, options) {
		checkedId(this, parameter, label, prefixes, optional, fromList);
		return options;
	};
}

/**
 * An optional body member left empty is not set: the member at `property` (a dotted path such as `assignee.id`) is
 * dropped from the body, with the object that held it when that is left empty, as in n8n's own nodes.
 */
export function dropWhenEmpty(parameter: string, property: string): PreSend {
	return async function (this: IExecuteSingleFunctions, options) {
		if (!isEmptyValue(this.getNodeParameter(parameter, '', { extractValue: true }))) return options;
		const body = options.body as IDataObject | undefined;
		if (!body || typeof body !== 'object') return options;
		const [head, ...rest] = property.split('.');
		const copy = { ...body };
		if (rest.length === 0) delete copy[head];
		else if (copy[head] && typeof copy[head] === 'object') {
			const inner = { ...(copy[head] as IDataObject) };
			delete inner[rest.join('.')];
			if (Object.keys(inner).length === 0) delete copy[head];
			else copy[head] = inner;
		}
		return { ...options, body: copy };
	};
}

/**
 * Every required text, ID, date or choice of the operation that comes out empty fails before any request, naming it
 * (`failEmpty`). Required numbers and switches always have a value; record IDs in the URL are checked where they are
 * filled in.
 */
export function checkRequired(properties: INodeProperties[]): PreSend {
	const kinds = ['string', 'dateTime', 'options', 'resourceLocator'];
	return async function (this: IExecuteSingleFunctions, options) {
		const parameters = this.getNode().parameters;
		for (const property of properties) {
			if (!property.required || !kinds.includes(property.type) || !plainlyShown(property, parameters)) continue;
			// extractValue only for a locator: n8n looks the property up for it, and a name several operations
			// define differently would not be found.
			const extract = property.type === 'resourceLocator' ? { extractValue: true } : undefined;
			const value = this.getNodeParameter(property.name, NOT_SET, extract) as unknown;
			if (value !== NOT_SET && isEmptyValue(value)) failEmpty(this, property.name, property.displayName);
		}
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

/**
 * Whether the editor shows `property` for these node parameters, where that is plain to see: every `show` and `hide`
 * condition a list of values compared with a top-level parameter set as a fixed value. Anything else (an expression in
 * a parameter a condition reads, a condition object) counts as not plainly shown, and its checks are left to Stora.
 */
function plainlyShown(property: INodeProperties, parameters: IDataObject): boolean {
	const { show = {}, hide = {} } = property.displayOptions ?? {};
	const valueOf = (name: string) => parameters[name.replace(/^\//, '')];
	const plain = (values: unknown) => Array.isArray(values) && values.every((value) => ['string', 'number', 'boolean'].includes(typeof value));
	for (const [name, values] of Object.entries(show)) {
		if (name.startsWith('@')) continue;
		const value = valueOf(name);
		if (!plain(values) || (typeof value === 'string' && value.startsWith('=')) || !(values as unknown[]).includes(value)) return false;
	}
	for (const [name, values] of Object.entries(hide)) {
		if (name.startsWith('@')) continue;
		const value = valueOf(name);
		if (!plain(values) || (typeof value === 'string' && value.startsWith('=')) || (values as unknown[]).includes(value)) return false;
	}
	return true;
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
