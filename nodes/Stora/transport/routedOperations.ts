/**
 * Every operation of the Stora node as n8n's `customOperations`: n8n runs these instead of its RoutingNode for the
 * node's main runs (n8n 1.x and 2.x alike), and RoutingNode still runs the tool variant n8n makes of the node. Each
 * builds an item's request from the same descriptions (route.ts) and hands it to the same hook RoutingNode calls
 * (execute.ts), with RoutingNode's item order, error handling and continue-on-fail.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	IExecutePaginationFunctions,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeApiError, NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { executeStoraRequest } from './execute';
import { routedParameters, routedRequest } from './route';

/** The item's view of a run, as RoutingNode gives each item its own ExecuteSingleContext. */
function itemContext(context: IExecuteFunctions, itemIndex: number, item: INodeExecutionData): IExecutePaginationFunctions {
	return Object.create(context, {
		getItemIndex: { value: () => itemIndex },
		getInputData: { value: () => item },
		getNodeParameter: {
			value: (name: string, fallback?: unknown, options?: IDataObject) => context.getNodeParameter(name, itemIndex, fallback, options),
		},
		getCredentials: { value: async (type: string) => await context.getCredentials(type, itemIndex) },
		evaluateExpression: { value: (expression: string, index = itemIndex) => context.evaluateExpression(expression, index) },
		makeRoutingRequest: {
			value: async () => {
				throw new NodeOperationError(context.getNode(), 'makeRoutingRequest is not available in the Stora node’s own runs');
			},
		},
	}) as IExecutePaginationFunctions;
}

/** The run's items: main input, or the tool input when n8n runs the tool variant this way. */
function inputItems(context: IExecuteFunctions): INodeExecutionData[] {
	try {
		return context.getInputData();
	} catch {
		return context.getInputData(0, NodeConnectionTypes.AiTool);
	}
}

const runIndexOf = (context: IExecuteFunctions) => Number(context.evaluateExpression('={{ $runIndex }}', 0)) || 0;

/** RoutingNode's handling of an item whose request could not be built. */
function buildError(context: IExecuteFunctions, error: unknown, itemIndex: number) {
	const runIndex = runIndexOf(context);
	const nodeError =
		error instanceof NodeApiError || error instanceof NodeOperationError
			? error
			: new NodeOperationError(context.getNode(), error instanceof Error ? error : new Error(String(error)), { itemIndex, runIndex });
	nodeError.context = { ...(nodeError.context ?? {}), itemIndex, runIndex };
	return nodeError;
}

/** RoutingNode's handling of an item whose request failed. */
function requestError(context: IExecuteFunctions, reason: unknown, itemIndex: number) {
	type Failure = { message?: string; description?: string | null; statusCode?: number; isAxiosError?: boolean; response?: { status?: number } };
	const error = reason as Failure;
	if (error?.statusCode === 429) error.message = "Try spacing your requests out using the batching settings under 'Options'";
	const runIndex = runIndexOf(context);
	if (error instanceof NodeApiError) {
		error.context = { ...(error.context ?? {}), itemIndex, runIndex };
		return error;
	}
	const failure = error ?? {};
	return new NodeApiError(context.getNode(), failure as never, {
		runIndex,
		itemIndex,
		message: failure.message,
		description: failure.description ?? undefined,
		httpCode: failure.isAxiosError && failure.response ? String(failure.response.status) : 'none',
	});
}

/** One run of the node: every item's request built first (as RoutingNode does), then all sent and awaited. */
async function runRouted(this: IExecuteFunctions, description: INodeTypeDescription): Promise<INodeExecutionData[][]> {
	// The hook RoutingNode would hand the request to (transport/execute.ts in the node as published).
	const hook = (description.requestOperations?.pagination ?? executeStoraRequest) as typeof executeStoraRequest;
	const items = inputItems(this);
	const parameters = routedParameters(description, this.getNode());
	const pending: Array<Promise<INodeExecutionData[]>> = [];
	const contexts: IExecutePaginationFunctions[] = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		const single = itemContext(this, itemIndex, items[itemIndex]);
		contexts.push(single);
		try {
			const request = routedRequest(single as IExecuteSingleFunctions, description, parameters);
			pending.push(
				(async () => {
					for (const preSend of request.preSend) request.options = await preSend.call(single, request.options as IHttpRequestOptions);
					return await hook.call(single, request);
				})(),
			);
		} catch (error) {
			const nodeError = buildError(this, error, itemIndex);
			if (!this.continueOnFail()) throw nodeError;
			pending.push(Promise.resolve([{ json: {}, error: nodeError } as INodeExecutionData]));
		}
	}
	const settled = await Promise.allSettled(pending);
	const output: INodeExecutionData[] = [];
	settled.forEach((outcome, itemIndex) => {
		if (outcome.status === 'fulfilled') {
			output.push(...outcome.value);
			return;
		}
		const error = requestError(this, outcome.reason, itemIndex);
		if (!this.continueOnFail()) throw error;
		output.push({ json: {}, error } as INodeExecutionData);
	});
	return [output];
}

/** `customOperations` for every resource and operation of the node's description. */
export function routedOperations(description: INodeTypeDescription) {
	const operations: Record<string, Record<string, (this: IExecuteFunctions) => Promise<INodeExecutionData[][]>>> = {};
	const run = async function (this: IExecuteFunctions) {
		return await runRouted.call(this, description);
	};
	for (const property of description.properties as INodeProperties[]) {
		if (property.name !== 'operation') continue;
		for (const resource of (property.displayOptions?.show?.resource ?? []) as string[]) {
			operations[resource] ??= {};
			for (const option of (property.options ?? []) as INodePropertyOptions[]) operations[resource][String(option.value)] = run;
		}
	}
	return operations;
}
