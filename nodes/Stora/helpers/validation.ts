/**
 * The checks every field makes before any request, and how they fail: an error naming the parameter, said to come
 * from n8n, not Stora. Record IDs are checked in ids.ts, a whole operation's parameters in operationChecks.ts.
 */
import type { IDataObject, IExecuteSingleFunctions, IHttpRequestOptions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { NOT_SENT, sentValue } from './sent';
import { argumentOf, namingTheArgument, runsAsTool } from './tool';

export type PreSend = (
	this: IExecuteSingleFunctions,
	options: IHttpRequestOptions,
) => Promise<IHttpRequestOptions>;

/** "a" or "an" before a label, by its sound: "an invoice ID", "a contact ID", "a unit type ID". */
export const article = (label: string) => (/^([aeio]|u(?!ni|s[aeiu]))/i.test(label) ? 'an' : 'a');

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
	const match =
		/^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/.exec(
			text,
		);
	if (!match) return false;
	const [year, month, day, hour = 0, minute = 0, second = 0] = match
		.slice(1)
		.map((part) => Number(part ?? 0));
	const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
	return (
		month >= 1 &&
		month <= 12 &&
		day >= 1 &&
		day <= daysInMonth &&
		hour < 24 &&
		minute < 60 &&
		second < 60
	);
}

/**
 * Said after every check made before a request: n8n's declarative engine shows what a check throws as an API error
 * ("From Stora", error code none), which would make a newcomer think Stora refused the request.
 */
export const NOTHING_SENT = 'Checked in n8n before sending: nothing was sent to Stora.';

/** The parameter a check is about: its path (`additionalFields.assigneeId`) and the label its message starts with. */
export interface Checked {
	path: string;
	label: string;
}

/**
 * Stops before any request with an error naming the parameter (`message`) and how to fix it (`description`). In tool
 * use the message names the model's argument instead (`checked`, when the parameter reads one with `$fromAI()`):
 * that is the name the model knows the value by.
 */
export function fail(
	context: IExecuteSingleFunctions,
	message: string,
	description: string,
	checked?: Checked,
): never {
	const argument =
		checked && runsAsTool(context) ? argumentOf(context.getNode(), checked.path) : undefined;
	if (argument !== undefined && checked)
		message = namingTheArgument(message, checked.label, argument);
	throw new NodeOperationError(context.getNode(), message, {
		description: `${description}\n${NOTHING_SENT}`,
		itemIndex: context.getItemIndex(),
	});
}

/** Where a check's failure waits in the request options for the hook (`transport/execute.ts`) to report it. */
const FAILED_CHECK = Symbol('failed check');

/**
 * The node's description with every check (`routing.send.preSend`) deferred to the hook that sends the request: a
 * check that fails hands its error on in the options instead of throwing, and the checks after it are skipped.
 * RoutingNode reports what a preSend throws as an API error and, under On Error → Continue, as an item without its
 * input's link; the hook reports it as the node's own error, linked to its item.
 */
export function withChecksDeferred<T>(value: T): T {
	if (Array.isArray(value)) return value.map((entry: unknown) => withChecksDeferred(entry)) as T;
	if (!value || typeof value !== 'object') return value;
	const copy: IDataObject = {};
	for (const [key, entry] of Object.entries(value as IDataObject)) {
		copy[key] =
			key === 'preSend' && Array.isArray(entry)
				? (entry as PreSend[]).map(deferred)
				: withChecksDeferred(entry);
	}
	return copy as T;
}

const checkOf = new WeakMap<PreSend, PreSend>();

function deferred(check: PreSend): PreSend {
	const wrapped: PreSend = async function (this: IExecuteSingleFunctions, options) {
		if (FAILED_CHECK in options) return options;
		try {
			return await check.call(this, options);
		} catch (error) {
			return { ...options, [FAILED_CHECK]: error } as IHttpRequestOptions;
		}
	};
	checkOf.set(wrapped, check);
	return wrapped;
}

/** The check a deferred preSend runs (the node's description holds the deferred ones). */
export const deferredCheck = (preSend: PreSend): PreSend => checkOf.get(preSend) ?? preSend;

/** The error of the check that failed for this request, if one did (`withChecksDeferred`). */
export const failedCheck = (options: IHttpRequestOptions): unknown =>
	(options as { [FAILED_CHECK]?: unknown })[FAILED_CHECK];

/** The parameter as the user set it (before expressions are evaluated), by its path (`additionalFields.assigneeId`). */
export function rawParameter(context: IExecuteSingleFunctions, path: string): unknown {
	let value: unknown = context.getNode().parameters;
	for (const key of path.split('.'))
		value = value && typeof value === 'object' ? (value as IDataObject)[key] : undefined;
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
	if (runsAsTool(context)) {
		// A model calls with one set of arguments: no item, and its expression is the `$fromAI()` that read the argument.
		fail(context, `${label} is empty`, `Give ${label} a value: Stora needs it.`, { path, label });
	}
	if (expression !== undefined) {
		fail(
			context,
			`${label} is empty for item ${item}: its expression gave no value`,
			`The expression ${shown(expression)} gave nothing for this item. Check the field it reads (for example {{ $json.full_name }}) in the input item, or give a fallback ({{ $json.name || 'Unknown' }}).`,
		);
	}
	fail(context, `${label} is empty for item ${item}`, `Fill in ${label}: Stora needs it.`);
}

/** Checks a number parameter's range before any request. */
export function checkNumber(
	parameter: string,
	label: string,
	rule: {
		min?: number;
		max?: number;
		above?: number;
		notZero?: boolean;
		integer?: boolean;
		required?: boolean;
	},
): PreSend {
	return async function (this: IExecuteSingleFunctions, options) {
		const raw = this.getNodeParameter(parameter, null) as number | string | undefined | null;
		if ((raw === undefined || raw === null || raw === '') && !rule.required) return options;
		// An expression may give a boolean or an object, which Number() would turn into a number and the query would not.
		const value = typeof raw === 'number' || typeof raw === 'string' ? Number(raw) : Number.NaN;
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
		const example = Math.min(rule.max ?? 10, Math.max(rule.min ?? (rule.above ?? 0) + 1, 10));
		if (bad) {
			fail(
				this,
				`${label}: ${shown(raw)} is out of range`,
				`${label} must be ${expected}, for example ${example}.`,
				{ path: parameter, label },
			);
		}
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
		if (
			raw === '' ||
			raw === undefined ||
			raw === null ||
			(typeof raw === 'string' && allowed.includes(raw))
		)
			return options;
		const text = dateText(raw);
		if (text === undefined || !isIsoDate(text)) {
			fail(
				this,
				`${label}: ${shown(raw)} is not a valid date`,
				`Use a date such as 2026-05-01 or a date-time such as 2026-05-01T09:00:00Z${allowed.length ? `, or one of: ${allowed.join(', ')}` : ''}.`,
				{ path: parameter, label },
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
				{ path: parameter, label },
			);
		}
		return options;
	};
}

/**
 * Checks an e-mail address's shape before any request (Stora's own check is stricter; this catches the obvious). It
 * reads the body member `sentAs` where the request carries it (the value RoutingNode already resolved).
 */
export function checkEmail(
	parameter: string,
	label: string,
	{ optional = false, sentAs }: { optional?: boolean; sentAs?: string } = {},
): PreSend {
	return async function (this: IExecuteSingleFunctions, options) {
		const sent =
			sentAs === undefined
				? NOT_SENT
				: sentValue(options, { routing: { send: { type: 'body', property: sentAs } } });
		const value = sent !== NOT_SENT ? sent : (this.getNodeParameter(parameter, '') as unknown);
		if (optional && (value === '' || value === undefined || value === null)) return options;
		if (typeof value !== 'string' || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value.trim())) {
			fail(
				this,
				`${label}: ${shown(value)} is not an email address`,
				'Use an address such as name@example.com.',
				{ path: parameter, label },
			);
		}
		return options;
	};
}
