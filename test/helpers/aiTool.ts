/**
 * The Stora node as an AI tool inside n8n-core's real engine: a workflow where a small caller node (standing in for
 * n8n's AI Agent or MCP Server Trigger, which live in @n8n/n8n-nodes-langchain) takes the Stora tool from its `ai_tool`
 * input through n8n-core's `getInputConnectionData`, which builds the tool as n8n does (`createNodeAsTool`: name,
 * description, schema from `$fromAI()`), and invokes it with a model's arguments. The tool variant is made of the
 * node as n8n's NodeTypes makes it for a node with `usableAsTool`: type `<name>Tool`, an `ai_tool` output, and the
 * declarative node run by n8n-core's RoutingNode.
 */
import { ExecutionLifecycleHooks, WorkflowExecute } from 'n8n-core';
import type {
	IDataObject,
	IExecuteFunctions,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	INodeTypeDescription,
	INodeTypes,
	IRun,
} from 'n8n-workflow';
import { createRunExecutionData, NodeConnectionTypes, Workflow } from 'n8n-workflow';

import { Stora } from '../../nodes/Stora/Stora.node';
import { additionalDataFor, runByRoutingNode, storaNode, type CredentialStore } from './n8n';

/** What the caller uses of the LangChain tool n8n-core builds (a DynamicStructuredTool). */
interface BuiltTool {
	name: string;
	description: string;
	schema: { shape?: Record<string, unknown> };
	invoke(args: IDataObject): Promise<unknown>;
}

/** n8n's tool variant of the Stora node (n8n's NodeTypes.getByNameAndVersion with convertNodeToAiTool). */
function storaTool(): INodeType {
	const stora = new Stora();
	const description: INodeTypeDescription = {
		...stora.description,
		name: `${stora.description.name}Tool`,
		displayName: `${stora.description.displayName} Tool`,
		inputs: [],
		outputs: [NodeConnectionTypes.AiTool],
	};
	delete description.usableAsTool;
	return runByRoutingNode(description);
}

export interface ToolCallResult {
	/** The tool's answer as the model reads it (JSON text), parsed. */
	answer?: unknown;
	/** The tool's error as the model reads it. */
	error?: string;
}

export interface ToolRun {
	name: string;
	description: string;
	/** The argument names of the tool's schema (every `$fromAI()` key), sorted. */
	arguments: string[];
	/** Those a model may leave out (a `$fromAI()` default), sorted. */
	optional: string[];
	calls: ToolCallResult[];
}

/** The caller: takes the one connected tool and invokes it with each of the item's `calls` (a model's arguments). */
const caller: INodeType = {
	description: {
		displayName: 'Tool caller',
		name: 'toolCaller',
		group: ['transform'],
		version: 1,
		description: 'Invokes the connected tool as an agent would',
		defaults: { name: 'Tool caller' },
		inputs: [NodeConnectionTypes.Main, { type: NodeConnectionTypes.AiTool, displayName: 'Tools' }],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	},
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const [tool] = (await this.getInputConnectionData(NodeConnectionTypes.AiTool, 0)) as BuiltTool[];
		const calls: ToolCallResult[] = [];
		for (const args of this.getInputData()[0].json.calls as IDataObject[]) {
			try {
				const text = (await tool.invoke(args)) as string;
				calls.push({ answer: JSON.parse(text) as unknown });
			} catch (error) {
				calls.push({ error: (error as Error).message });
			}
		}
		const shape = (tool.schema.shape ?? {}) as Record<string, { isOptional?: () => boolean }>;
		const optional = Object.keys(shape).filter((key) => shape[key].isOptional?.() === true).sort();
		return [[{ json: { name: tool.name, description: tool.description, arguments: Object.keys(shape).sort(), optional, calls } as unknown as IDataObject }]];
	},
};

/**
 * Runs the Stora node with `parameters` as a tool named `name`, invoked once per entry of `calls` (the arguments a
 * model gives), and returns what the caller saw.
 */
export async function runStoraTool(options: {
	parameters: INodeParameters;
	credentials: CredentialStore;
	calls: IDataObject[];
	name?: string;
}): Promise<ToolRun> {
	const tool: INode = { ...storaNode(options.parameters), name: options.name ?? 'stora_tool', type: 'n8n-nodes-stora.storaTool' };
	const callerNode: INode = { id: 'c0ffee00-0000-4000-8000-0000000000c1', name: 'Tool caller', type: 'test.toolCaller', typeVersion: 1, position: [0, 0], parameters: {} };
	const types: Record<string, INodeType> = { 'n8n-nodes-stora.storaTool': storaTool(), 'test.toolCaller': caller };
	const nodeTypes = {
		getByName: (type: string) => types[type],
		getByNameAndVersion: (type: string) => types[type],
		getKnownTypes: () => ({}),
	} as unknown as INodeTypes;
	const workflowData = {
		id: 'wf-tool',
		name: 'Stora tool test',
		active: false,
		activeVersionId: null,
		isArchived: false,
		createdAt: new Date(),
		updatedAt: new Date(),
		nodes: [callerNode, tool],
		connections: { [tool.name]: { [NodeConnectionTypes.AiTool]: [[{ node: callerNode.name, type: NodeConnectionTypes.AiTool, index: 0 }]] } },
		settings: { executionOrder: 'v1' as const },
	};
	const workflow = new Workflow({ ...workflowData, nodeTypes });
	const executionId = `exec-${Math.random().toString(36).slice(2)}`;
	let finished: IRun | undefined;
	const hooks = new ExecutionLifecycleHooks('manual', executionId, workflowData as never);
	hooks.addHandler('workflowExecuteAfter', async (run: IRun) => {
		finished = run;
	});
	// One item: n8n runs no node without input, and a model may call a tool any number of times in one turn.
	const input = [{ json: { calls: options.calls } }];
	const runExecutionData = createRunExecutionData({
		executionData: { nodeExecutionStack: [{ node: callerNode, data: { main: [input] }, source: null }] },
	});
	await new WorkflowExecute(additionalDataFor(options.credentials, executionId, hooks), 'manual', runExecutionData).processRunExecutionData(workflow);
	const run = finished?.data.resultData;
	const output = run?.runData['Tool caller']?.[0]?.data?.main?.[0]?.[0]?.json;
	if (!output) throw new Error(`the caller produced nothing: ${JSON.stringify(run?.error ?? run?.runData['Tool caller']?.[0]?.error ?? {})}`);
	return output as unknown as ToolRun;
}
