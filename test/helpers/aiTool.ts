/**
 * The Stora node as an AI tool inside n8n-core's real engine: a workflow where a small caller node (standing in for
 * n8n's AI Agent or MCP Server Trigger, which live in @n8n/n8n-nodes-langchain) takes the Stora tool from its `ai_tool`
 * input through n8n-core's `getInputConnectionData`, which builds the tool as n8n does (`createNodeAsTool`: name,
 * description, schema from `$fromAI()`), and invokes it with a model's arguments. The tool variant is made of the
 * node as n8n's NodeTypes makes it for a node with `usableAsTool`: type `<name>Tool`, an `ai_tool` output, and the
 * declarative node run by n8n-core's RoutingNode.
 */
import type {
	IConnections,
	IDataObject,
	IExecuteFunctions,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	INodeTypeDescription,
	INodeTypes,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { Stora } from '../../nodes/Stora/Stora.node';
import {
	asLoadedByN8n,
	executeWorkflow,
	runByRoutingNode,
	storaNode,
	type CredentialStore,
} from './n8n';

/** What the caller uses of the LangChain tool n8n-core builds (a DynamicStructuredTool). */
interface BuiltTool {
	name: string;
	description: string;
	schema: { shape?: Record<string, unknown> };
	invoke(args: IDataObject): Promise<unknown>;
}

/**
 * n8n's tool variant of the Stora node, as n8n makes it: NodeTypes' `convertNodeToAiTool` builds the tool type on the
 * node's own object (`Object.create`); because the node has no `execute`, n8n gives the tool one that runs
 * RoutingNode, as the engine does when it runs the tool as a node of the workflow (an agent's engine request).
 */
function storaTool(): INodeType {
	const stora = asLoadedByN8n(new Stora());
	const description: INodeTypeDescription = {
		...stora.description,
		name: `${stora.description.name}Tool`,
		displayName: `${stora.description.displayName} Tool`,
		inputs: [],
		outputs: [NodeConnectionTypes.AiTool],
	};
	delete description.usableAsTool;
	const tool = Object.create(stora) as INodeType;
	tool.description = description;
	tool.execute = runByRoutingNode(description).execute;
	return tool;
}

interface ToolCallResult {
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
		const [tool] = (await this.getInputConnectionData(
			NodeConnectionTypes.AiTool,
			0,
		)) as BuiltTool[];
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
		const optional = Object.keys(shape)
			.filter((key) => shape[key].isOptional?.() === true)
			.sort();
		return [
			[
				{
					json: {
						name: tool.name,
						description: tool.description,
						arguments: Object.keys(shape).sort(),
						optional,
						calls,
					} as unknown as IDataObject,
				},
			],
		];
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
	const tool: INode = {
		...storaNode(options.parameters),
		name: options.name ?? 'stora_tool',
		type: 'n8n-nodes-stora.storaTool',
	};
	const callerNode: INode = {
		id: 'c0ffee00-0000-4000-8000-0000000000c1',
		name: 'Tool caller',
		type: 'test.toolCaller',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};
	const types: Record<string, INodeType> = {
		'n8n-nodes-stora.storaTool': storaTool(),
		'test.toolCaller': caller,
	};
	const nodeTypes = {
		getByName: (type: string) => types[type],
		getByNameAndVersion: (type: string) => types[type],
		getKnownTypes: () => ({}),
	} as unknown as INodeTypes;
	// One item: n8n runs no node without input, and a model may call a tool any number of times in one turn.
	const finished = await executeWorkflow({
		workflow: {
			id: 'wf-tool',
			name: 'Stora tool test',
			nodes: [callerNode, tool],
			connections: {
				[tool.name]: {
					[NodeConnectionTypes.AiTool]: [
						[{ node: callerNode.name, type: NodeConnectionTypes.AiTool, index: 0 }],
					],
				},
			},
		},
		nodeTypes,
		credentials: options.credentials,
		start: callerNode,
		input: [{ calls: options.calls }],
		executionId: `exec-${Math.random().toString(36).slice(2)}`,
	});
	const run = finished.data.resultData;
	const output = run?.runData['Tool caller']?.[0]?.data?.main?.[0]?.[0]?.json;
	if (!output)
		throw new Error(
			`the caller produced nothing: ${JSON.stringify(run?.error ?? run?.runData['Tool caller']?.[0]?.error ?? {})}`,
		);
	return output as unknown as ToolRun;
}

/** Passes its input on: the node before the agent (n8n resumes an agent's engine request from its parent). */
const start: INodeType = {
	description: {
		...caller.description,
		displayName: 'Start',
		name: 'start',
		inputs: [NodeConnectionTypes.Main],
		defaults: { name: 'Start' },
	},
	async execute(this: IExecuteFunctions) {
		return [this.getInputData()];
	},
};

/**
 * An agent that calls its tool the engine's way (n8n 2.x): its first run answers with an engine request, one action
 * per entry of `calls`; n8n then runs the tool node as a node of the workflow and runs the agent again with the tool
 * node's results.
 */
const engineCaller: INodeType = {
	description: {
		...caller.description,
		displayName: 'Engine caller',
		name: 'engineCaller',
		defaults: { name: 'Engine caller' },
	},
	async execute(
		this: IExecuteFunctions,
		response?: {
			actionResponses: Array<{ data: { data?: IDataObject; error?: { message: string } } }>;
		},
	) {
		const calls = this.getInputData()[0].json.calls as IDataObject[];
		const tool = String(this.getInputData()[0].json.tool);
		if (!response?.actionResponses?.length) {
			return {
				actions: calls.map((input, index) => ({
					actionType: 'ExecutionNodeAction',
					nodeName: tool,
					input,
					type: NodeConnectionTypes.AiTool,
					id: `call_${index}`,
					metadata: {},
				})),
				metadata: {},
			} as never;
		}
		const outputs = response.actionResponses.map(({ data }) =>
			data.error
				? { error: data.error.message }
				: {
						items: (
							(
								data.data?.[NodeConnectionTypes.AiTool] as INodeExecutionData[][] | undefined
							)?.[0] ?? []
						).map((item) => ({ json: item.json, pairedItem: item.pairedItem })),
					},
		);
		return [[{ json: { outputs } as unknown as IDataObject }]];
	},
};

/**
 * Runs the Stora tool with `parameters` the engine's way (see `engineCaller`), once per entry of `calls`, and returns
 * each call's output items (or its error) as n8n hands them back to the agent.
 */
export async function runStoraToolByEngine(options: {
	parameters: INodeParameters;
	credentials: CredentialStore;
	calls: IDataObject[];
}) {
	const tool: INode = {
		...storaNode(options.parameters),
		name: 'stora_tool',
		type: 'n8n-nodes-stora.storaTool',
	};
	const startNode: INode = {
		id: 'c0ffee00-0000-4000-8000-0000000000c2',
		name: 'Start',
		type: 'test.start',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};
	const agent: INode = {
		id: 'c0ffee00-0000-4000-8000-0000000000c3',
		name: 'Engine caller',
		type: 'test.engineCaller',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};
	const types: Record<string, INodeType> = {
		'n8n-nodes-stora.storaTool': storaTool(),
		'test.start': start,
		'test.engineCaller': engineCaller,
	};
	const nodeTypes = {
		getByName: (type: string) => types[type],
		getByNameAndVersion: (type: string) => types[type],
		getKnownTypes: () => ({}),
	} as unknown as INodeTypes;
	const finished = await executeWorkflow({
		workflow: {
			id: 'wf-tool-engine',
			name: 'Stora tool, engine request',
			nodes: [startNode, agent, tool],
			connections: {
				Start: { main: [[{ node: agent.name, type: NodeConnectionTypes.Main, index: 0 }]] },
				[tool.name]: {
					[NodeConnectionTypes.AiTool]: [
						[{ node: agent.name, type: NodeConnectionTypes.AiTool, index: 0 }],
					],
				},
			} as IConnections,
		},
		nodeTypes,
		credentials: options.credentials,
		start: startNode,
		input: [{ calls: options.calls, tool: tool.name }],
		executionId: 'exec-engine',
	});
	const runs = finished.data.resultData.runData['Engine caller'] ?? [];
	const output = runs.at(-1)?.data?.main?.[0]?.[0]?.json;
	if (!output)
		throw new Error(
			`the agent produced nothing: ${JSON.stringify(finished.data.resultData.error ?? runs.at(-1)?.error ?? {})}`,
		);
	return output.outputs as Array<{
		items?: Array<Pick<INodeExecutionData, 'json' | 'pairedItem'>>;
		error?: string;
	}>;
}
