import type { IDataObject, IExecuteSingleFunctions, IHttpRequestOptions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

export type PreSend = (this: IExecuteSingleFunctions, options: IHttpRequestOptions) => Promise<IHttpRequestOptions>;

/** "a" or "an" before a label, by its sound: "an invoice ID", "a contact ID", "a unit type ID". */
export const article = (label: string) => (/^([aeio]|u(?!ni|s[aeiu]))/i.test(label) ? 'an' : 'a');
const capitalize = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

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
	return (Array.isArray(raw) ? raw : String(raw ?? '').split(','))
		.map((id) => String(id).trim())
		.filter((id) => id !== '');
}

/**
 * Checks a record ID (from a resource locator, a dropdown or a plain field) against the API's prefix before any
 * request, so a pasted contact ID in a site field fails with a message naming the parameter instead of a 404 from
 * Stora. A field that may reference records of several kinds (a note on a contact, unit, subscription or task) gives
 * several prefixes.
 */
export function checkId(
	parameter: string,
	label: string,
	prefixes: string | readonly string[],
	optional = false,
): PreSend {
	const list = typeof prefixes === 'string' ? [prefixes] : [...prefixes];
	return async function (this: IExecuteSingleFunctions, options) {
		const value = this.getNodeParameter(parameter, '', { extractValue: true }) as string | undefined;
		if ((value === '' || value === undefined || value === null) && optional) return options;
		const id = String(value ?? '').trim();
		if (isIdOf(id, list)) return options;
		if (list.length === 1) {
			fail(
				this,
				`${label}: "${id}" is not ${article(label)} ${label.toLowerCase()} ID`,
				`${capitalize(article(label))} ${label.toLowerCase()} ID starts with "${list[0]}" (for example ${list[0]}a1b2c3). Pick the record from the list or paste its ID.`,
			);
		}
		fail(
			this,
			`${label}: "${id}" is not a valid ID here`,
			`The ID must start with one of ${list.map((prefix) => `"${prefix}"`).join(', ')} (for example ${list[0]}a1b2c3).`,
		);
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
	rule: { min?: number; max?: number; above?: number; notZero?: boolean; integer?: boolean },
): PreSend {
	return async function (this: IExecuteSingleFunctions, options) {
		const raw = this.getNodeParameter(parameter, undefined) as number | string | undefined | null;
		if (raw === undefined || raw === null || raw === '') return options;
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
		if (bad) fail(this, `${label}: ${String(raw)} is out of range`, `${label} must be ${expected}.`);
		return options;
	};
}

/** Checks that a date parameter holds a real calendar date (YYYY-MM-DD) or date-time. */
export function checkDate(parameter: string, label: string, allowed: string[] = []): PreSend {
	return async function (this: IExecuteSingleFunctions, options) {
		const raw = this.getNodeParameter(parameter, '') as string;
		if (!raw || allowed.includes(raw)) return options;
		if (Number.isNaN(Date.parse(raw))) {
			fail(
				this,
				`${label}: "${raw}" is not a valid date`,
				`Use a date such as 2026-05-01${allowed.length ? ` or one of: ${allowed.join(', ')}` : ''}.`,
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
