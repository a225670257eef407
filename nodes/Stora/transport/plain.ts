import type { IDataObject } from 'n8n-workflow';

/**
 * A plain object as lodash's merge sees one: made by `{}` or `Object.create(null)`, in any realm (a test's vm context
 * too). A Luxon DateTime or a Date from an expression is not.
 */
export function isPlain(value: unknown): value is IDataObject {
	if (Object.prototype.toString.call(value) !== '[object Object]') return false;
	const prototype = Object.getPrototypeOf(value) as object | null;
	return prototype === null || (Object.getPrototypeOf(prototype) === null && (prototype.constructor as { name?: string })?.name === 'Object');
}

/** Whether a value is data all the way down: primitives in plain objects and arrays, nothing with behaviour. */
export function isPlainData(value: unknown): boolean {
	if (value === null || typeof value !== 'object') return typeof value !== 'function' && typeof value !== 'symbol';
	if (Array.isArray(value)) return value.every(isPlainData);
	return isPlain(value) && Object.values(value).every(isPlainData);
}
