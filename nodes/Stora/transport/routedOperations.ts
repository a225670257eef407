/**
 * Every operation of the Stora node as n8n's `customOperations`: n8n runs these for the node's runs in a workflow
 * (n8n 1.x and 2.x alike), the tool variant's included when the engine runs it as a node; RoutingNode runs the tool
 * variant only when an agent calls it through its tool input. Each builds an item's request from the descriptions
 * (route.ts) and hands it to the hook RoutingNode calls (execute.ts), with RoutingNode's item order, error handling
 * and continue-on-fail.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeApiError, NodeConnectionTypes, NodeOperationError, sleep } from 'n8n-workflow';

import { executeStoraRequest } from './execute';
import { allowedDomainsFor } from './request';
import { itemContext, runScope, type RunScope } from './itemContext';
import { routedParameters, routedRequest, unsupportedRouting } from './route';
import { REQUEST_OPTIONS, requestSettingsOf, type RequestSettings } from './requestOptions';

/** The run's items: main input, or the tool input when n8n runs the tool variant this way. */
function inputItems(context: IExecuteFunctions): INodeExecutionData[] {
	try {
		return context.getInputData();
	} catch {
		return context.getInputData(0, NodeConnectionTypes.AiTool);
	}
}

/** RoutingNode's handling of an item whose request could not be built. */
function buildError(scope: RunScope, error: unknown, itemIndex: number) {
	const runIndex = scope.runIndex();
	const nodeError =
		error instanceof NodeApiError || error instanceof NodeOperationError
			? error
			: new NodeOperationError(scope.node, error instanceof Error ? error : new Error(String(error)), { itemIndex, runIndex });
	nodeError.context = { ...(nodeError.context ?? {}), itemIndex, runIndex };
	return nodeError;
}

/** What RoutingNode says of a 429 that reached the run, pointing at the settings that exist. */
const SPACING_HINT =
	'Stora kept answering 429 (too many requests) after the node waited for its rate limit. Space the requests out with Settings → Request Options → Batching, or set the Stora credential\'s Rate Limit to your plan\'s.';

/** RoutingNode's handling of an item whose request failed. */
function requestError(scope: RunScope, reason: unknown, itemIndex: number) {
	type Failure = { message?: string; description?: string | null; statusCode?: number; httpCode?: string | null; isAxiosError?: boolean; response?: { status?: number } };
	const error = reason as Failure;
	if ((error?.statusCode === 429 || error?.httpCode === '429') && !String(error.description ?? '').includes(SPACING_HINT)) {
		error.description = error.description ? `${error.description}\n${SPACING_HINT}` : SPACING_HINT;
	}
	const runIndex = scope.runIndex();
	// Our own errors keep their type: a check a preSend makes (not a site ID) is not an API error.
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		error.context = { ...(error.context ?? {}), itemIndex, runIndex };
		return error;
	}
	const failure = error ?? {};
	return new NodeApiError(scope.node, failure as never, {
		runIndex,
		itemIndex,
		message: failure.message,
		description: failure.description ?? undefined,
		httpCode: failure.isAxiosError && failure.response ? String(failure.response.status) : 'none',
	});
}

/**
 * Building items holds the event loop for at most about this long before it gets a turn to send the requests
 * already built and take answers in. The first items get a turn each: a request takes several turns to leave (the
 * credential, the rate-limit budget, the connection), and the first one should not wait for the rest to be built.
 */
const BUILD_SLICE_MS = 4;
const ITEMS_WITH_A_TURN_EACH = 16;

/**
 * A failed item's output under On Error → Continue, as n8n's own nodes give it: the error in the item's JSON, linked
 * to its input item. `error` is the message (with the API's code), `message` the description (the field details, the
 * request ID, the operation): n8n's error output takes an item of exactly these keys as an error (n8n 1.x accepts no
 * others) and merges the input item's data into it. An item carrying the error object instead (RoutingNode's way)
 * has its JSON replaced by the message alone.
 */
function errorItem(error: NodeApiError | NodeOperationError, itemIndex: number): INodeExecutionData {
	const json: IDataObject = { error: error.message };
	if (error.description) json.message = error.description;
	return { json, pairedItem: { item: itemIndex } };
}

/**
 * One run of the node: each item's request built and checked, in item order, and sent as soon as it is, while the
 * next items are built; then every answer awaited. Settings → Request Options is read once; with Batching, a batch's
 * requests leave Batch Interval after the previous batch's. An item that cannot be built stops the run, after the
 * requests already sent have ended, unless the node continues on fail.
 */
async function runRouted(this: IExecuteFunctions, description: INodeTypeDescription): Promise<INodeExecutionData[][]> {
	// The hook RoutingNode would hand the request to (transport/execute.ts in the node as published).
	const hook = (description.requestOperations?.pagination ?? executeStoraRequest) as typeof executeStoraRequest;
	const items = inputItems(this);
	const scope = runScope(this);
	const parameters = routedParameters(description, scope.node);
	// A setting that is not valid (a proxy without a port) fails every item, as in RoutingNode.
	let settings: RequestSettings = {};
	let invalidSettings: unknown;
	try {
		settings = requestSettingsOf(this.getNodeParameter(REQUEST_OPTIONS, 0, {}), scope.node);
	} catch (error) {
		invalidSettings = error;
	}
	// As RoutingNode puts the credential's domain limit on each request; a credential that cannot be read fails the
	// first item's request instead, with the transport's error.
	if (items.length > 0) {
		const first = itemContext(this, scope, 0, items[0]);
		settings.allowedDomains = await allowedDomainsFor(first as IExecuteSingleFunctions).catch(() => undefined);
	}
	const pending: Array<Promise<INodeExecutionData[]>> = [];
	let sliceStarted = Date.now();
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		if (settings.batch && itemIndex > 0 && itemIndex % settings.batch.size === 0) {
			await sleep(settings.batch.intervalMs);
			sliceStarted = Date.now();
		} else if ((itemIndex > 0 && itemIndex <= ITEMS_WITH_A_TURN_EACH) || Date.now() - sliceStarted >= BUILD_SLICE_MS) {
			await sleep(0);
			sliceStarted = Date.now();
		}
		const single = itemContext(this, scope, itemIndex, items[itemIndex]);
		try {
			if (invalidSettings) throw invalidSettings;
			const request = routedRequest(single as IExecuteSingleFunctions, description, parameters, settings);
			const sent = (async () => {
				for (const preSend of request.preSend) request.options = await preSend.call(single, request.options as IHttpRequestOptions);
				return await hook.call(single, request);
			})();
			// Its failure is taken up once every item is sent (below); until then it is not an unhandled rejection.
			sent.catch(() => undefined);
			pending.push(sent);
		} catch (error) {
			const nodeError = buildError(scope, error, itemIndex);
			if (!this.continueOnFail()) {
				await Promise.allSettled(pending);
				throw nodeError;
			}
			pending.push(Promise.resolve([errorItem(nodeError, itemIndex)]));
		}
	}
	const settled = await Promise.allSettled(pending);
	const output: INodeExecutionData[] = [];
	settled.forEach((outcome, itemIndex) => {
		if (outcome.status === 'fulfilled') {
			output.push(...outcome.value);
			return;
		}
		const error = requestError(scope, outcome.reason, itemIndex);
		if (!this.continueOnFail()) throw error;
		output.push(errorItem(error, itemIndex));
	});
	return [output];
}

/**
 * `customOperations` for every resource and operation of the node's description. A description using a routing
 * feature the builder does not implement fails here, when n8n loads the node, never silently at run time.
 */
export function routedOperations(description: INodeTypeDescription) {
	const unsupported = unsupportedRouting(description);
	if (unsupported.length) throw new Error(`The Stora node's request builder does not implement: ${unsupported.join('; ')}`);
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
