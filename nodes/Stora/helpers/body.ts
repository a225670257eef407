/** How optional body members are left out, and key/value rows (metadata, template variables) sent as one object. */
import type { IDataObject, IExecuteSingleFunctions } from 'n8n-workflow';

import { isEmptyValue, type PreSend } from './validation';

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

/** Rows of a key/value fixedCollection (`{ entry: [{ key, value }] }`) as an object. */
function keyValues(collection: IDataObject | undefined): IDataObject {
	const rows = ((collection?.entry as IDataObject[] | undefined) ?? []).filter(
		(row) => String(row.key ?? '') !== '',
	);
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
