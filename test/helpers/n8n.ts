/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test under test/, never published (n8n-core: the engine the tests run in; test/helpers/package.json has no devDependencies to read it from) */
/**
 * Runs our real node classes inside n8n-core's real execution engine (WorkflowExecute → RoutingNode → the real HTTP
 * stack), in-process. Only the parts n8n's server would provide are stand-ins: the credential store and the
 * execution hooks.
 */
import { DirectoryLoader, ExecutionLifecycleHooks, RoutingNode, WorkflowExecute } from 'n8n-core';
import type {
	IConnections,
	ICredentialDataDecryptedObject,
	ICredentialsHelper,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	INodeTypeDescription,
	INodeTypes,
	IRun,
	IRunExecutionData,
	IWorkflowExecuteAdditionalData,
	ExecutionError,
} from 'n8n-workflow';
import { createRunExecutionData, Workflow } from 'n8n-workflow';

import { StoraApi } from '../../credentials/StoraApi.credentials';
import { credentialTypeForAuthentication } from '../../nodes/Stora/helpers/authentication';
import { Stora } from '../../nodes/Stora/Stora.node';
import { StoraPollTrigger } from '../../nodes/StoraPollTrigger/StoraPollTrigger.node';
import { StoraTrigger } from '../../nodes/StoraTrigger/StoraTrigger.node';

export type CredentialStore = Record<string, ICredentialDataDecryptedObject>;

/**
 * A node as n8n's loader leaves it: n8n adds parameters of its own when it loads a package (DirectoryLoader's
 * `applySpecialNodeParameters`; for the Stora node, Settings → Request Options). Loads into the object given.
 */
export function asLoadedByN8n<T extends INodeType>(nodeType: T): T {
	DirectoryLoader.applyDeclarativeNodeOptionParameters(nodeType);
	return nodeType;
}

const nodeClasses: Record<string, INodeType> = {
	stora: asLoadedByN8n(new Stora()),
	storaTrigger: asLoadedByN8n(new StoraTrigger()),
	storaPollTrigger: asLoadedByN8n(new StoraPollTrigger()),
};

const nodeTypes: INodeTypes = {
	getByName: (name: string) => nodeClasses[name.split('.').pop() as string],
	getByNameAndVersion: (name: string) => nodeClasses[name.split('.').pop() as string],
	getKnownTypes: () => ({}),
} as unknown as INodeTypes;

/** Credentials as n8n would hand them to the node after decryption; OAuth2 token data is kept and updated here. */
function credentialsHelper(store: CredentialStore): ICredentialsHelper {
	return {
		getParentTypes: (type: string) => (type.includes('OAuth2') ? ['oAuth2Api'] : []),
		isCredentialUsableByNode: () => true,
		// The credential's own generic authenticate (its headers, `{{$credentials.x}}` filled in), as n8n applies it
		// for a credential that is not OAuth2 (the HTTP Request node's way; the Stora nodes send the header themselves).
		authenticate: async (
			credentials: ICredentialDataDecryptedObject,
			_type: string,
			options: IHttpRequestOptions,
		) => {
			const declared = new StoraApi().authenticate.properties.headers ?? {};
			const headers = Object.fromEntries(
				Object.entries(declared).map(([name, value]) => [
					name,
					String(value)
						.replace(/^=/, '')
						.replace(/\{\{\s*\$credentials\.(\w+)\s*\}\}/g, (_match, key: string) =>
							String(credentials[key] ?? ''),
						),
				]),
			);
			return { ...options, headers: { ...(options.headers ?? {}), ...headers } };
		},
		preAuthentication: async () => undefined,
		runPreAuthentication: async () => undefined,
		getCredentials: async () => ({}) as never,
		getDecrypted: async (_additionalData: unknown, _details: unknown, type: string) => ({
			...store[type],
		}),
		updateCredentials: async (
			_details: unknown,
			type: string,
			data: ICredentialDataDecryptedObject,
		) => {
			store[type] = { ...data };
		},
		updateCredentialsOauthTokenData: async (
			_details: unknown,
			type: string,
			data: ICredentialDataDecryptedObject,
		) => {
			store[type] = { ...store[type], ...data };
		},
		getCredentialsProperties: () => [],
	} as unknown as ICredentialsHelper;
}

/** `storaApi` pointing at a sandbox with a token. */
export function tokenCredentials(baseUrl: string, accessToken: string): CredentialStore {
	return { storaApi: { baseUrl, accessToken } };
}

/** `storaOAuth2Api` as n8n resolves it (token URL derived from the base URL, client id/secret sent in the body). */
export function oauthCredentials(
	baseUrl: string,
	client: { client_id: string; client_secret: string },
	grantType: 'clientCredentials' | 'authorizationCode' = 'clientCredentials',
	tokenData?: IDataObject,
): CredentialStore {
	return {
		storaOAuth2Api: {
			baseUrl,
			grantType,
			accessTokenUrl: `${baseUrl}/oauth2/token`,
			authUrl: `${baseUrl}/oauth2/authorize`,
			clientId: client.client_id,
			clientSecret: client.client_secret,
			scope: '',
			authentication: 'body',
			...(tokenData ? { oauthTokenData: tokenData } : {}),
		},
	};
}

export interface Urls {
	/** Where n8n's production webhooks live, e.g. `http://127.0.0.1:5678/webhook`. */
	webhookBaseUrl?: string;
	webhookTestBaseUrl?: string;
}

/** What n8n's server hands the engine; credentials come from `store`. */
export function additionalDataFor(
	store: CredentialStore,
	executionId: string,
	hooks?: ExecutionLifecycleHooks,
	urls: Urls = {},
): IWorkflowExecuteAdditionalData {
	return {
		credentialsHelper: credentialsHelper(store),
		hooks,
		executionId,
		currentNodeExecutionIndex: 0,
		restApiUrl: 'http://127.0.0.1/rest',
		instanceBaseUrl: 'http://127.0.0.1/',
		webhookBaseUrl: urls.webhookBaseUrl ?? 'http://127.0.0.1/webhook',
		webhookWaitingBaseUrl: 'http://127.0.0.1/webhook-waiting',
		webhookTestBaseUrl: urls.webhookTestBaseUrl ?? 'http://127.0.0.1/webhook-test',
		formBaseUrl: 'http://127.0.0.1/form',
		formWaitingBaseUrl: 'http://127.0.0.1/form-waiting',
		formTestBaseUrl: 'http://127.0.0.1/form-test',
		mcpBaseUrl: 'http://127.0.0.1/mcp',
		mcpTestBaseUrl: 'http://127.0.0.1/mcp-test',
		variables: {},
		executeWorkflow: async () => {
			throw new Error('not supported in tests');
		},
		getRunExecutionData: async () => undefined,
		getRuntimeCredential: async () => undefined,
		logAiEvent: () => {},
		startRunnerTask: async () => {
			throw new Error('not supported in tests');
		},
	} as unknown as IWorkflowExecuteAdditionalData;
}

/** A one-node workflow as n8n stores it; `timezone` is the workflow's Timezone setting (n8n's default without it). */
export function workflowWith(
	node: INode,
	staticData?: IDataObject,
	timezone?: string,
	types: INodeTypes = nodeTypes,
) {
	const workflowData = {
		id: 'wf-1',
		name: 'Stora test',
		active: false,
		activeVersionId: null,
		isArchived: false,
		createdAt: new Date(),
		updatedAt: new Date(),
		nodes: [node],
		connections: {},
		settings: { executionOrder: 'v1' as const, ...(timezone ? { timezone } : {}) },
		staticData,
	};
	return { workflowData, workflow: new Workflow({ ...workflowData, nodeTypes: types }) };
}

/** The package's nodes by their type name: the name each gets in a test workflow and its fixed ID there. */
const NODES = {
	stora: { name: 'Stora', id: 'b3f1c7e2-0000-4000-8000-000000000001' },
	storaTrigger: { name: 'Stora Trigger', id: 'c0ffee00-0000-4000-8000-000000000002' },
	storaPollTrigger: { name: 'Stora Poll Trigger', id: 'c0ffee00-0000-4000-8000-000000000003' },
} as const;

export interface StoraNodeOptions {
	/** Which node of the package: the Stora node (the default), the Stora Trigger or the Stora Polling Trigger. */
	type?: keyof typeof NODES;
	/** On error, go on with the error as output (n8n's Settings → On Error → Continue). */
	continueOnFail?: boolean;
	/** A webhook node's path ID, as n8n gives one when the node is added. */
	webhookId?: string;
}

/**
 * A node of this package as n8n stores it in a workflow, with `parameters` and the credential its Authentication
 * parameter names (the access token when not given, as the node's default).
 */
export function storaNode(parameters: INodeParameters, options: StoraNodeOptions = {}): INode {
	const type = options.type ?? 'stora';
	const authentication = (parameters.authentication as string | undefined) ?? 'accessToken';
	return {
		id: NODES[type].id,
		name: NODES[type].name,
		type: `n8n-nodes-stora.${type}`,
		typeVersion: 1,
		position: [0, 0],
		...(options.webhookId ? { webhookId: options.webhookId } : {}),
		parameters: { authentication, ...parameters },
		credentials: { [credentialTypeForAuthentication(authentication)]: { id: '1', name: 'Stora' } },
		...(options.continueOnFail ? { onError: 'continueRegularOutput' as const } : {}),
	};
}

export interface RunOptions {
	/** Node parameters (resource, operation, ...). `authentication` defaults to the access token. */
	parameters: INodeParameters;
	credentials: CredentialStore;
	/** Input items; one empty item by default. */
	items?: IDataObject[];
	continueOnFail?: boolean;
	executionId?: string;
	/** The workflow's time zone (`settings.timezone`, what `getTimezone()` answers); n8n's default when not given. */
	timezone?: string;
	/** Another class for the Stora node's type (a variant of it under test); the package's Stora node by default. */
	nodeClass?: INodeType;
}

/** A node type with `description` and the Stora node's methods, run by n8n-core's RoutingNode as n8n runs a declarative node. */
export function runByRoutingNode(description: INodeTypeDescription): INodeType {
	const node: INodeType = {
		description,
		methods: new Stora().methods,
		async execute(this: IExecuteFunctions) {
			return (await new RoutingNode(this as never, node).runNode()) ?? [];
		},
	};
	return node;
}

/** The package's node types, with one node's class replaced (the Stora node's unless `type` names another). */
export function typesWith(nodeClass: INodeType, type: keyof typeof NODES = 'stora'): INodeTypes {
	const pick = (name: string) =>
		name.split('.').pop() === type ? nodeClass : nodeClasses[name.split('.').pop() as string];
	return {
		getByName: pick,
		getByNameAndVersion: pick,
		getKnownTypes: () => ({}),
	} as unknown as INodeTypes;
}

export interface RunResult {
	items: INodeExecutionData[];
	error?: ExecutionError;
	run: IRun;
}

/**
 * Runs a workflow of several nodes in n8n-core's engine as n8n does, from `start` with `input` items, with
 * `credentials`; resolves to the finished run.
 */
export async function executeWorkflow(options: {
	workflow: { id: string; name: string; nodes: INode[]; connections: IConnections };
	nodeTypes: INodeTypes;
	credentials: CredentialStore;
	start: INode;
	input: IDataObject[];
	executionId: string;
}): Promise<IRun> {
	const workflowData = {
		...options.workflow,
		active: false,
		settings: { executionOrder: 'v1' as const },
	};
	const workflow = new Workflow({ ...workflowData, nodeTypes: options.nodeTypes });
	let finished: IRun | undefined;
	const hooks = new ExecutionLifecycleHooks('manual', options.executionId, workflowData as never);
	hooks.addHandler('workflowExecuteAfter', async (run: IRun) => {
		finished = run;
	});
	const runExecutionData = createRunExecutionData({
		executionData: {
			nodeExecutionStack: [
				{
					node: options.start,
					data: { main: [options.input.map((json) => ({ json }))] },
					source: null,
				},
			],
		},
	});
	await new WorkflowExecute(
		additionalDataFor(options.credentials, options.executionId, hooks),
		'manual',
		runExecutionData,
	).processRunExecutionData(workflow);
	if (!finished) throw new Error('The workflow did not finish');
	return finished;
}

/** Executes one Stora node over the given items exactly as n8n does, and returns its output or error. */
export async function runStora(options: RunOptions): Promise<RunResult> {
	const executionId = options.executionId ?? `exec-${Math.random().toString(36).slice(2)}`;
	const node = storaNode(options.parameters, { continueOnFail: options.continueOnFail });
	const types = options.nodeClass ? typesWith(options.nodeClass) : nodeTypes;
	const { workflowData, workflow } = workflowWith(node, undefined, options.timezone, types);

	let finished: IRun | undefined;
	const hooks = new ExecutionLifecycleHooks('manual', executionId, workflowData as never);
	hooks.addHandler('workflowExecuteAfter', async (run: IRun) => {
		finished = run;
	});
	const additionalData = additionalDataFor(options.credentials, executionId, hooks);

	const input: INodeExecutionData[] = (options.items ?? [{}]).map((json) => ({ json }));
	const runExecutionData: IRunExecutionData = createRunExecutionData({
		executionData: {
			nodeExecutionStack: [{ node, data: { main: [input] }, source: null }],
		},
	});
	const execute = new WorkflowExecute(additionalData, 'manual', runExecutionData);
	try {
		await execute.processRunExecutionData(workflow);
	} catch (error) {
		// n8n refuses to start a workflow whose parameters have issues (for example a locator failing its regex).
		return { items: [], error: error as ExecutionError, run: finished as IRun };
	}
	if (!finished) throw new Error('The workflow did not finish');

	const runData = finished.data.resultData.runData.Stora?.[0];
	return {
		items: runData?.data?.main?.[0] ?? [],
		error: finished.data.resultData.error ?? runData?.error,
		run: finished,
	};
}

/** A resource locator value as n8n stores it (`mode` "id" by default, "list" when picked from the list). */
export function locator(value: string, mode: 'id' | 'list' = 'id') {
	return { __rl: true, mode, value };
}
