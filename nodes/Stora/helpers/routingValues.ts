/**
 * The expressions the descriptions' routing uses (`send.value` on `$value`, `send.property` on `$parent`), each with
 * the function that computes the same result. n8n's RoutingNode evaluates the expression; the node's own request
 * builder (transport/route.ts) applies the function instead, which spares an expression evaluation per parameter
 * and item. test/nodes/routedRequests.test.ts holds each function to n8n's evaluation of its expression, and fails
 * for a routing expression in the built description that is not listed here.
 */
import type { IDataObject } from 'n8n-workflow';

interface RoutingValue {
	readonly expression: string;
	readonly apply: (value: unknown, parent?: IDataObject) => unknown;
}

const listOf = (value: unknown) => (Array.isArray(value) ? value : String(value ?? '').split(','));

export const ROUTING_VALUE = {
	/** An optional text field left empty is sent as null, which clears it on the record. */
	emptyAsNull: { expression: '={{ $value === "" ? null : $value }}', apply: (value) => (value === '' ? null : value) },
	emptyAsNullUpperCase: {
		expression: '={{ $value === "" ? null : String($value).trim().toUpperCase() }}',
		apply: (value) => (value === '' ? null : String(value).trim().toUpperCase()),
	},
	emptyAsAbsentUpperCase: {
		expression: '={{ String($value).trim() === "" ? undefined : String($value).trim().toUpperCase() }}',
		apply: (value) => (String(value).trim() === '' ? undefined : String(value).trim().toUpperCase()),
	},
	joinedChoices: {
		expression: '={{ $value.length ? $value.join(",") : undefined }}',
		apply: (value) => ((value as unknown[]).length ? (value as unknown[]).join(',') : undefined),
	},
	joinedIds: {
		expression:
			'={{ (Array.isArray($value) ? $value : String($value ?? "").split(",")).map((id) => String(id).trim()).filter((id) => id !== "").join(",") || undefined }}',
		apply: (value) =>
			listOf(value)
				.map((id) => String(id).trim())
				.filter((id) => id !== '')
				.join(',') || undefined,
	},
	typeList: {
		expression:
			'={{ (Array.isArray($value) ? $value : String($value ?? "").split(",")).map((type) => String(type).trim()).filter((type) => type !== "") }}',
		apply: (value) =>
			listOf(value)
				.map((type) => String(type).trim())
				.filter((type) => type !== ''),
	},
	joinedPaths: {
		expression:
			'={{ String($value ?? "").split(",").map((path) => path.trim()).filter((path) => path !== "").join(",") || undefined }}',
		apply: (value) =>
			String(value ?? '')
				.split(',')
				.map((path) => path.trim())
				.filter((path) => path !== '')
				.join(',') || undefined,
	},
	trimmed: { expression: '={{ String($value).trim() }}', apply: (value) => String(value).trim() },
	emptyObjectWhenOn: { expression: '={{ $value ? {} : undefined }}', apply: (value) => (value ? {} : undefined) },
	idObject: { expression: '={{ $value ? { id: $value } : undefined }}', apply: (value) => (value ? { id: value } : undefined) },
	/** A metadata filter row's query parameter, named by its key. */
	metadataKey: { expression: '=metadata[{{$parent.key}}]', apply: (_value, parent) => `metadata[${String(parent?.key)}]` },
} satisfies Record<string, RoutingValue>;

/**
 * n8n's expression engine answers undefined where an expression meets a TypeError (`.join` on a text); the listed
 * functions can fail in no other way.
 */
const asN8nEvaluates =
	(apply: RoutingValue['apply']): RoutingValue['apply'] =>
	(value, parent) => {
		try {
			return apply(value, parent);
		} catch {
			return undefined;
		}
	};

const BY_EXPRESSION = new Map<string, RoutingValue>(
	Object.values(ROUTING_VALUE).map((entry) => [entry.expression, { expression: entry.expression, apply: asN8nEvaluates(entry.apply) }]),
);

/** The function for a routing expression, as n8n evaluates it; undefined for one not listed (the builder refuses it). */
export function routingValueOf(expression: string): RoutingValue | undefined {
	return BY_EXPRESSION.get(expression);
}
