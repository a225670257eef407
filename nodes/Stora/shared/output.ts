import type {
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	INodeExecutionData,
} from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { simplifiedFieldsOf } from '../resources';

function simplify(fields: string[] | undefined, record: IDataObject): IDataObject {
	if (!fields) return record;
	return Object.fromEntries(fields.filter((field) => field in record).map((field) => [field, record[field]]));
}

function lastPathSegment(url: string | undefined): string {
	return decodeURIComponent(String(url ?? '').split('?')[0].split('/').filter(Boolean).pop() ?? '');
}

function header(response: IN8nHttpFullResponse, name: string): string {
	const value = response.headers?.[name];
	return String(Array.isArray(value) ? value[0] : (value ?? ''));
}

const EXTENSIONS: Record<string, string> = { 'application/pdf': 'pdf', 'text/csv': 'csv' };

/** A document or export (PDF, CSV, image) as n8n binary data, named after the record or the list it came from. */
async function binaryItem(
	context: IExecuteSingleFunctions,
	options: IHttpRequestOptions,
	response: IN8nHttpFullResponse,
): Promise<INodeExecutionData[]> {
	const mimeType = header(response, 'content-type').split(';')[0].trim() || 'application/octet-stream';
	const fromHeader = /filename="?([^";]+)"?/.exec(header(response, 'content-disposition'))?.[1];
	const extension = EXTENSIONS[mimeType];
	const fileName =
		fromHeader ?? `${lastPathSegment(options.url).replace(/\.[a-z]+$/, '')}${extension ? `.${extension}` : ''}`;
	const property = context.getNodeParameter('binaryPropertyName', 'data') as string;
	const binary = await context.helpers.prepareBinaryData(
		Buffer.from(response.body as Buffer),
		fileName,
		mimeType,
	);
	return [{ json: { fileName, mimeType, url: options.url }, binary: { [property]: binary } }];
}

/**
 * Turns an API answer into n8n items: the envelope's resource (or each record of a list) becomes an item, Delete
 * becomes `{ deleted: true, id, message }`, documents become binary data, and "Simplify" trims wide records.
 */
export async function shapeOutput(
	context: IExecuteSingleFunctions,
	options: IHttpRequestOptions,
	answer: IN8nHttpFullResponse | IDataObject[],
): Promise<INodeExecutionData[]> {
	const resource = context.getNodeParameter('resource', '') as string;
	const fields = context.getNodeParameter('simplify', false) === true ? simplifiedFieldsOf(resource) : undefined;
	const toItems = (records: IDataObject[]) => records.map((record) => ({ json: simplify(fields, record) }));

	if (Array.isArray(answer)) return toItems(answer);
	if (options.encoding === 'arraybuffer') return await binaryItem(context, options, answer);

	const body = answer.body;
	if (!body || typeof body !== 'object' || Buffer.isBuffer(body)) {
		throw new NodeApiError(context.getNode(), { body: String(body).slice(0, 300) }, {
			message: 'Stora answered with a body that is not JSON',
			description: `HTTP ${answer.statusCode}: ${String(body).slice(0, 300)}`,
			httpCode: String(answer.statusCode),
		});
	}
	const envelope = body as IDataObject;
	if (envelope.success && typeof envelope.success === 'object') {
		const message = (envelope.success as IDataObject).message;
		if ((options.method ?? '').toUpperCase() === 'DELETE') {
			return [{ json: { deleted: true, id: lastPathSegment(options.url), message } }];
		}
		return [{ json: { success: true, message } }];
	}
	// Resource answers are enveloped with `meta`; the OAuth endpoints answer with a bare object.
	if (!('meta' in envelope)) return toItems([envelope]);
	const key = Object.keys(envelope).find((name) => name !== 'meta');
	const value = key === undefined ? envelope : envelope[key];
	if (Array.isArray(value)) return toItems(value as IDataObject[]);
	return toItems([value as IDataObject]);
}
