import type {
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	INodeExecutionData,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { ID_PREFIXES } from './records';
import { RESOURCES } from './resources';
import { headerOf, jsonBodyOf } from './response';
import { runsAsTool, toolListAnswer } from './tool';
import { PARAMETER } from './parameters';

/** What Simplify keeps per resource, from each resource's row (resources.ts). */
export const SIMPLIFIED_FIELDS: Record<string, readonly string[]> = Object.fromEntries(
	Object.entries(RESOURCES).flatMap(([resource, facts]) =>
		'simplify' in facts ? [[resource, facts.simplify]] : [],
	),
);

/**
 * A record as a model may read it: a webhook endpoint's signing secret (the one credential a record carries) is
 * withheld, since whatever a tool answers ends up in a model's context and its provider's logs.
 */
function withoutSecrets(record: IDataObject): IDataObject {
	if (
		typeof record.secret !== 'string' ||
		!String(record.id ?? '').startsWith(ID_PREFIXES.webhookEndpoint)
	)
		return record;
	return { ...record, secret: '(withheld in tool use)' };
}

function simplify(fields: readonly string[] | undefined, record: IDataObject): IDataObject {
	if (!fields) return record;
	return Object.fromEntries(
		fields.filter((field) => field in record).map((field) => [field, record[field]]),
	);
}

function lastPathSegment(url: string | undefined): string {
	return decodeURIComponent(
		String(url ?? '')
			.split('?')[0]
			.split('/')
			.filter(Boolean)
			.pop() ?? '',
	);
}

const EXTENSIONS: Record<string, string> = { 'application/pdf': 'pdf', 'text/csv': 'csv' };

/** A document or export (PDF, CSV, image) as n8n binary data, named after the record or the list it came from. */
async function binaryItem(
	context: IExecuteSingleFunctions,
	options: IHttpRequestOptions,
	response: IN8nHttpFullResponse,
): Promise<INodeExecutionData[]> {
	const mimeType =
		(headerOf(response, 'content-type') ?? '').split(';')[0].trim() || 'application/octet-stream';
	const body = Buffer.from((response.body ?? Buffer.alloc(0)) as Buffer);
	// A JSON or empty answer where a document was asked for is an error page or a lost body, never a file.
	const accepted = String(((options.headers ?? {}) as IDataObject).Accept ?? '');
	if (
		body.length === 0 ||
		(mimeType === 'application/json' && !accepted.includes('application/json'))
	) {
		throw new NodeApiError(context.getNode(), { status: response.statusCode } as JsonObject, {
			message:
				body.length === 0
					? 'Stora answered the download with an empty body'
					: `Stora answered the download with ${mimeType} instead of a file`,
			description: `Expected: ${accepted || 'a file'}. Answer: ${body.toString('utf8').slice(0, 200)}`,
			httpCode: String(response.statusCode),
		});
	}
	const fromHeader = /filename="?([^";]+)"?/.exec(
		headerOf(response, 'content-disposition') ?? '',
	)?.[1];
	const extension = EXTENSIONS[mimeType];
	const fileName =
		fromHeader ??
		`${lastPathSegment(options.url).replace(/\.[a-z]+$/, '')}${extension ? `.${extension}` : ''}`;
	const property = context.getNodeParameter(PARAMETER.binaryPropertyName, 'data') as string;
	const binary = await context.helpers.prepareBinaryData(body, fileName, mimeType);
	return [{ json: { fileName, mimeType, url: options.url }, binary: { [property]: binary } }];
}

/** What every envelope's `meta` carries; anything else in it is an action's result. */
const ENVELOPE_META = ['request_id', 'curies', 'pagination'];

/**
 * The members of an action answer's `meta` that report what the action did (the overlock actions' `unit_ids`), kept
 * in the item beside `success` and `message`. Only `{success}` answers carry them, so no record output changes.
 */
function actionResultsOf(meta: unknown): IDataObject {
	if (!meta || typeof meta !== 'object' || Array.isArray(meta)) return {};
	return Object.fromEntries(
		Object.entries(meta as IDataObject).filter(([name]) => !ENVELOPE_META.includes(name)),
	);
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
	const resource = context.getNodeParameter(PARAMETER.resource, '') as string;
	const asTool = runsAsTool(context);
	// A model gets the simplified record unless the tool's Output asks for the full one (Simplify is not shown there).
	const simplified = asTool
		? context.getNodeParameter(PARAMETER.toolOutput, 'simplified') !== 'full'
		: context.getNodeParameter(PARAMETER.simplify, false) === true;
	const fields = simplified ? SIMPLIFIED_FIELDS[resource] : undefined;
	const shape = (record: IDataObject) =>
		asTool ? withoutSecrets(simplify(fields, record)) : simplify(fields, record);
	const toItems = (records: IDataObject[]) => records.map((record) => ({ json: shape(record) }));

	if (Array.isArray(answer)) return toItems(answer);
	if (options.encoding === 'arraybuffer') return await binaryItem(context, options, answer);

	const envelope = jsonBodyOf(context.getNode(), answer);
	if (envelope.success && typeof envelope.success === 'object') {
		const message = (envelope.success as IDataObject).message;
		if ((options.method ?? '').toUpperCase() === 'DELETE') {
			return [{ json: { deleted: true, id: lastPathSegment(options.url), message } }];
		}
		return [{ json: { success: true, message, ...actionResultsOf(envelope.meta) } }];
	}
	// Resource answers are enveloped with `meta`; the OAuth endpoints answer with a bare object.
	if (!('meta' in envelope)) return toItems([envelope]);
	const key = Object.keys(envelope).find((name) => name !== 'meta');
	const value = key === undefined ? envelope : envelope[key];
	if (Array.isArray(value) && asTool && key !== undefined) {
		// One answer for the model: the records with their count, bounded, and how to reach the rest.
		const count = Number(
			((envelope.meta as IDataObject | undefined)?.pagination as IDataObject | undefined)?.count,
		);
		return toolListAnswer(key, (value as IDataObject[]).map(shape), {
			total: Number.isFinite(count) ? count : undefined,
			limit: Number(context.getNodeParameter(PARAMETER.limit, 0)) || undefined,
			returnAll: context.getNodeParameter(PARAMETER.returnAll, false) === true,
		});
	}
	if (Array.isArray(value)) return toItems(value as IDataObject[]);
	return toItems([value as IDataObject]);
}
