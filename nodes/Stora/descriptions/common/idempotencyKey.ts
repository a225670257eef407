/**
 * Options → Idempotency Key of the operations that POST (`descriptions/index.ts` adds it), and the check that one key
 * is not given to several items.
 */
import type {
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

import { fail, shown } from '../../helpers/validation';

/** Unconfirmed: the longest Idempotency Key the node sends (Stora's docs suggest a UUID and name no limit). */
const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

/** Per node run (keyed by its execute data): the items that share one Idempotency Key, if any; worked out once. */
const clashOfRun = new WeakMap<object, { key: string; items: number[] } | null>();

/** The first Idempotency Key that two input items share, with the items that have it. */
function keyClash(
	context: IExecuteSingleFunctions,
	count: number,
): { key: string; items: number[] } | null {
	const raw = (context.getNode().parameters.options as IDataObject | undefined)?.idempotencyKey;
	const firstItem = new Map<string, number>();
	for (let index = 0; index < count; index++) {
		// evaluateExpression adds the leading "=" itself.
		const key = String(
			(typeof raw === 'string' && raw.startsWith('=')
				? context.evaluateExpression(raw.slice(1), index)
				: raw) ?? '',
		).trim();
		if (key === '') continue;
		const first = firstItem.get(key);
		if (first === undefined) {
			firstItem.set(key, index);
			continue;
		}
		const items = [first, index];
		for (let later = index + 1; later < count && items.length < 6; later++) {
			const other =
				typeof raw === 'string' && raw.startsWith('=')
					? context.evaluateExpression(raw.slice(1), later)
					: raw;
			if (String(other ?? '').trim() === key) items.push(later);
		}
		return { key, items };
	}
	return null;
}

/**
 * One key on several items would make Stora answer every item after the first with the first item's answer (and act
 * once). Refused before any request, naming the items; a key that differs per item (an expression) is fine, and
 * items whose key is empty get the derived one. Any clash fails every item: n8n sends the items' requests together,
 * so failing only the clashing ones would still write the others.
 */
function checkKeyIsPerItem(context: IExecuteSingleFunctions): void {
	const run = context.getExecuteData();
	const count = run?.data?.main?.[0]?.length ?? 0;
	if (count < 2) return;
	let clash = clashOfRun.get(run);
	if (clash === undefined) {
		clash = keyClash(context, count);
		clashOfRun.set(run, clash);
	}
	if (!clash) return;
	const items = clash.items
		.slice(0, 5)
		.map((index) => index + 1)
		.join(', ');
	fail(
		context,
		`Idempotency Key "${clash.key}" is the same for items ${items}${clash.items.length > 5 ? ', ...' : ''}`,
		"Stora would act once and answer every item after the first with the first item's answer. Use an expression that differs per item, for example {{ $json.orderNumber }}, or leave Idempotency Key empty for a key derived from the execution and item.",
	);
}

/**
 * "Idempotency Key" for writes, under Options (a newcomer should not wonder whether to fill it): empty by default, in
 * which case the transport derives one from the execution, node, run and item. A key of your own (for example an
 * order number from your shop) makes repeats across executions replay the first answer too. `descriptions/index.ts`
 * adds it to the Options of every operation that POSTs.
 */
export function idempotencyKeyOption(): INodeProperties {
	return {
		displayName: 'Idempotency Key',
		name: 'idempotencyKey',
		type: 'string',
		default: '',
		description:
			'Stora answers a repeated write with the same key with its first answer instead of acting twice (for 24 hours). Leave empty to use a key derived from this execution and item; set it per item (an expression) to make repeats across executions safe.',
		routing: {
			send: {
				preSend: [
					async function (this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions) {
						const key = String(this.getNodeParameter('options.idempotencyKey', '') ?? '').trim();
						if (!key) return requestOptions;
						// A header value: visible ASCII only; the length bound is ours (the docs suggest a UUID, set none).
						if (key.length > MAX_IDEMPOTENCY_KEY_LENGTH || !/^[\x20-\x7e]+$/.test(key)) {
							fail(
								this,
								`Idempotency Key: ${shown(key)} is not a valid key`,
								`Use up to ${MAX_IDEMPOTENCY_KEY_LENGTH} letters, digits and ASCII punctuation (no line breaks or other characters), for example a UUID or your order number.`,
							);
						}
						checkKeyIsPerItem(this);
						requestOptions.headers = { ...(requestOptions.headers ?? {}), 'Idempotency-Key': key };
						return requestOptions;
					},
				],
			},
		},
	};
}
