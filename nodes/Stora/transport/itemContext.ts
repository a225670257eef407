/**
 * The item's view of one of the node's own runs (routedOperations.ts), as RoutingNode gives each item its own
 * context, with what is the same for every item of the run read once.
 *
 * Why: n8n-core copies the whole node on every `getNode()`, evaluates the run index as an expression on every ask,
 * and on every `getNodeParameter` resolves the value, then finds its property by evaluating the display conditions
 * of every property of that name (Simplify exists once per resource), which would delay the first request by the
 * whole run's reads. A value without an expression is the same for every item, so it is read once per run; one with
 * an expression is read once per item, however many checks read it, and a collection's members from one read of it.
 */
import type { IDataObject, IExecuteFunctions, IExecutePaginationFunctions, IGetNodeParameterOptions, INode, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { isPlain, isPlainData } from './plain';

/**
 * The expression n8n's contexts answer with the node's run index; transport/execute.ts asks it for each POST, and the
 * item's view answers it from the run without evaluating it.
 */
export const RUN_INDEX_EXPRESSION = '={{ $runIndex }}';

/** What one run of the node shares between its items. */
export interface RunScope {
	node: INode;
	runIndex(): number;
	/** Parameter values without an expression, by read. */
	fixed: Map<string, unknown>;
	/** Parameters not set, by read and fallback. */
	unset: Map<string, Map<unknown, unknown>>;
}

export function runScope(context: IExecuteFunctions): RunScope {
	let runIndex: number | undefined;
	return {
		node: context.getNode(),
		runIndex: () => (runIndex ??= Number(context.evaluateExpression(RUN_INDEX_EXPRESSION, 0)) || 0),
		fixed: new Map(),
		unset: new Map(),
	};
}

/** Whether a raw parameter value holds an expression anywhere (n8n marks one with a leading `=`). */
function holdsExpression(value: unknown): boolean {
	if (typeof value === 'string') return value.startsWith('=');
	if (value && typeof value === 'object') return Object.values(value).some(holdsExpression);
	return false;
}

/** The raw value at a parameter path as n8n writes them (`updateFields.useCase`, `rows.row[1].name`). */
function rawAt(parameters: IDataObject, path: string): unknown {
	let value: unknown = parameters;
	for (const key of path.split(/[.[\]]+/).filter(Boolean)) {
		if (!value || typeof value !== 'object') return undefined;
		value = (value as IDataObject)[key];
	}
	return value;
}

const isObject = (value: unknown) => value !== null && typeof value === 'object';

/** A read's options as a cache key part: `{ extractValue: false }` reads what no options read. */
const optionsKey = (options?: IGetNodeParameterOptions) =>
	JSON.stringify(Object.fromEntries(Object.entries(options ?? {}).filter(([, value]) => Boolean(value)).sort(([a], [b]) => a.localeCompare(b))));

/** The collection a plain member path (`additionalFields.fullName`, no row index) sits in, when one holds it. */
function parentOf(name: string): { parent: string; member: string } | undefined {
	if (name.includes('[')) return undefined;
	const dot = name.lastIndexOf('.');
	return dot > 0 ? { parent: name.slice(0, dot), member: name.slice(dot + 1) } : undefined;
}

export function itemContext(
	context: IExecuteFunctions,
	scope: RunScope,
	itemIndex: number,
	item: INodeExecutionData,
): IExecutePaginationFunctions {
	const perItem = new Map<string, unknown>();
	const getNodeParameter = (name: string, fallback?: unknown, options?: IGetNodeParameterOptions): unknown => {
		const read = () => context.getNodeParameter(name, itemIndex, fallback, options);
		if (options?.contextNode) return read();
		const raw = rawAt(scope.node.parameters, name);
		const readOptions = optionsKey(options);
		const key = `${name}\n${readOptions}`;
		// Not set: n8n answers the fallback (or throws, which is not kept), the same for every item. Equal fallbacks
		// share an answer (`{}` is a new object on every read).
		if (raw === undefined) {
			const byFallback = scope.unset.get(key) ?? new Map<unknown, unknown>();
			scope.unset.set(key, byFallback);
			const fallbackKey = isObject(fallback) ? `{object}${JSON.stringify(fallback)}` : fallback;
			if (!byFallback.has(fallbackKey)) byFallback.set(fallbackKey, read());
			const value = byFallback.get(fallbackKey);
			return isObject(value) && isPlainData(value) ? structuredClone(value) : value;
		}
		const cache = holdsExpression(raw) ? perItem : scope.fixed;
		if (cache.has(key)) {
			const value = cache.get(key);
			// Each read gets its own copy of an object, as from n8n.
			return isObject(value) ? structuredClone(value) : value;
		}
		const member = cache === perItem && readOptions === '{}' ? memberOfItsCollection(name) : undefined;
		const value = member ? member.value : read();
		// An object that is not plain data (a Luxon DateTime from an expression, say) is not kept: n8n reads it again.
		if (!isObject(value) || isPlainData(value)) cache.set(key, isObject(value) ? structuredClone(value) : value);
		return value;
	};
	/**
	 * A collection member's value from the whole collection read once for the item: the request reads each member
	 * (`additionalFields.fullName`) and the checks read the collection, and n8n evaluates every expression again on
	 * each read. For reads without options only. Undefined (read the member itself) where the collection is not plain
	 * data, or reading the collection fails (the member's own read then gives its own error).
	 */
	const memberOfItsCollection = (name: string): { value: unknown } | undefined => {
		const path = parentOf(name);
		if (!path || !isPlain(rawAt(scope.node.parameters, path.parent))) return undefined;
		let collection: unknown;
		try {
			collection = getNodeParameter(path.parent, undefined);
		} catch {
			return undefined;
		}
		if (!isPlain(collection) || !isPlainData(collection) || !(path.member in collection)) return undefined;
		return { value: collection[path.member] };
	};
	return Object.create(context, {
		getItemIndex: { value: () => itemIndex },
		getInputData: { value: () => item },
		getNode: { value: () => scope.node },
		getNodeParameter: { value: getNodeParameter },
		getCredentials: { value: async (type: string) => await context.getCredentials(type, itemIndex) },
		evaluateExpression: {
			value: (expression: string, index = itemIndex) =>
				expression === RUN_INDEX_EXPRESSION ? scope.runIndex() : context.evaluateExpression(expression, index),
		},
		makeRoutingRequest: {
			value: async () => {
				throw new NodeOperationError(scope.node, 'makeRoutingRequest is not available in the Stora node’s own runs');
			},
		},
	}) as IExecutePaginationFunctions;
}
