import type { IN8nHttpFullResponse, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { headerOf } from '../helpers/response';
import { parameterLabel } from './listFilters';

/** The API's error envelope: `{ error: { code, type, message, links, details, request_id } }`. */
interface StoraErrorBody {
	code?: string;
	type?: string;
	message?: string;
	details?: Array<{ message?: string; pointer?: string | null }>;
	request_id?: string;
}

function envelopeOf(body: unknown): StoraErrorBody | undefined {
	if (body && typeof body === 'object' && 'error' in body) {
		const error = (body as { error: unknown }).error;
		if (error && typeof error === 'object') return error as StoraErrorBody;
	}
	return undefined;
}

function decode(body: unknown): unknown {
	if (Buffer.isBuffer(body) || body instanceof ArrayBuffer) {
		const text = Buffer.from(body as Buffer).toString('utf8');
		try {
			return JSON.parse(text);
		} catch {
			return text;
		}
	}
	return body;
}

/**
 * A line of an error description as a sentence: n8n's error panel joins the lines of a description into one paragraph,
 * so each must end like a sentence or the next one runs into it.
 */
export function asSentence(line: string): string {
	const text = line.trim();
	return text === '' || /[.!?:]$/.test(text) ? text : `${text}.`;
}

/** An error description from its lines: each a sentence, one per line. */
const descriptionOf = (lines: string[]) =>
	lines.map(asSentence).filter(Boolean).join('\n') || undefined;

/** What to do about a 401 at run time: what the credential test says about a bad token. */
const REJECTED_TOKEN_HINT =
	'Stora did not accept the token (invalid, revoked or expired). For a Stora API credential, generate a new access token in BackOffice → Settings → Public API and paste it into the credential; for a Stora OAuth2 API credential, open it and click Connect again.';

/** A 404 without Stora's error format: the address is most likely not Stora's API. */
const NOT_STORA_HINT =
	"The address answered without Stora's error format, so it is probably not the Stora API: check the credential's Base URL (https://public-api.stora.co, without a path).";

/** Lines "pointer: message", one per detail; a pointer starting with "/" names the faulty field. */
function describeDetails(details: StoraErrorBody['details']): string[] {
	return (details ?? []).map((detail) => {
		const pointer = detail.pointer;
		if (pointer && pointer.startsWith('/')) return `Field ${pointer}: ${detail.message ?? ''}`;
		if (pointer) return `${detail.message ?? ''} (${pointer})`;
		return detail.message ?? '';
	});
}

/**
 * Turns an error response into a NodeApiError that shows the API's own message and code, lists every detail with its
 * field pointer, and keeps the request id and HTTP status.
 */
export function toNodeApiError(
	node: INode,
	response: IN8nHttpFullResponse,
	itemIndex?: number,
): NodeApiError {
	const status = response.statusCode;
	const body = decode(response.body);
	const envelope = envelopeOf(body);
	const requestId = envelope?.request_id ?? headerOf(response, 'x-request-id');

	if (!envelope) {
		const text =
			typeof body === 'string'
				? body
						.replace(/<[^>]*>/g, ' ')
						.replace(/\s+/g, ' ')
						.trim()
				: '';
		return new NodeApiError(node, { status, body: text.slice(0, 500) } as JsonObject, {
			message: `Stora answered with HTTP ${status} and no error details`,
			description: descriptionOf([
				...(text ? [`Response: ${text.slice(0, 300)}`] : []),
				...(status === 401 ? [REJECTED_TOKEN_HINT] : []),
				...(status === 404 ? [NOT_STORA_HINT] : []),
			]),
			httpCode: String(status),
			itemIndex,
		});
	}

	const lines = describeDetails(envelope.details);
	if (envelope.code === 'invalid_url_param') {
		// The docs list many endpoints' parameters only in part: say which node parameter sent the refused one.
		const refused = (envelope.details ?? []).filter(
			(detail) =>
				detail.pointer &&
				/not (allowed|permitted|supported|recogni[sz]ed)|unknown|unpermitted/i.test(
					detail.message ?? '',
				),
		);
		for (const pointer of new Set(refused.map((detail) => detail.pointer))) {
			const name = String(pointer).replace(/^\//, '');
			lines.push(
				`The node parameter ${parameterLabel(name)} sent "${name}", which this Stora endpoint may not support: remove it from the node.`,
			);
		}
	}
	if (envelope.code === 'too_many_requests') {
		lines.push(
			'Stora limits requests per account (by default 10 per second and 60 per minute). The node queued its requests for that limit and kept retrying for up to 5 minutes; another app or workflow is probably using the same account heavily.',
		);
	}
	if (status === 401) lines.push(REJECTED_TOKEN_HINT);
	// Not ending in a bare period: a copied ID must not take one along.
	if (requestId) lines.push(`Request ID: ${requestId} (quote it to Stora support)`);

	const error = new NodeApiError(node, body as JsonObject, {
		message: `${envelope.message ?? 'Stora rejected the request'} [${envelope.code ?? status}]`,
		description: descriptionOf(lines),
		httpCode: String(status),
		itemIndex,
	});
	error.context = {
		...error.context,
		code: envelope.code,
		requestId,
		details: envelope.details ?? [],
	};
	return error;
}
