import type {
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	INodeExecutionData,
} from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

/** The fields "Simplify" keeps, per resource: enough to identify and route a record in a workflow. */
export const SIMPLIFIED_FIELDS: Record<string, string[]> = {
	site: ['id', 'name', 'address', 'phone', 'opened_at', 'created_at', 'updated_at'],
};

function simplify(resource: string, record: IDataObject): IDataObject {
	const fields = SIMPLIFIED_FIELDS[resource];
	if (!fields) return record;
	return Object.fromEntries(fields.filter((field) => field in record).map((field) => [field, record[field]]));
}

function lastPathSegment(url: string | undefined): string {
	return decodeURIComponent(String(url ?? '').split('?')[0].split('/').filter(Boolean).pop() ?? '');
}

/**
 * Turns an API answer into n8n items: the envelope's resource (or each record of a list) becomes an item, Delete
 * becomes `{ deleted: true, id, message }`, and "Simplify" trims wide records.
 */
export async function shapeOutput(
	context: IExecuteSingleFunctions,
	options: IHttpRequestOptions,
	answer: IN8nHttpFullResponse | IDataObject[],
): Promise<INodeExecutionData[]> {
	const resource = context.getNodeParameter('resource', '') as string;
	const simplifyOn = context.getNodeParameter('simplify', false) === true;
	const toItems = (records: IDataObject[]) =>
		records.map((record) => ({ json: simplifyOn ? simplify(resource, record) : record }));

	if (Array.isArray(answer)) return toItems(answer);

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
	const key = Object.keys(envelope).find((name) => name !== 'meta');
	const value = key === undefined ? envelope : envelope[key];
	if (Array.isArray(value)) return toItems(value as IDataObject[]);
	return toItems([value as IDataObject]);
}
