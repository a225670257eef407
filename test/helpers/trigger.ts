/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test harness under test/, never published */
/**
 * Drives the Stora Trigger the way n8n does, with n8n-core's real HookContext (checkExists → create on activation,
 * delete on deactivation) and WebhookContext (one per delivery), and a real HTTP receiver standing in for n8n's
 * webhook server so the sandbox's signed deliveries arrive over the network.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { HookContext, WebhookContext } from 'n8n-core';
import type {
	IDataObject,
	INode,
	INodeParameters,
	IWebhookData,
	IWebhookResponseData,
	WorkflowActivateMode,
} from 'n8n-workflow';

import { StoraTrigger } from '../../nodes/StoraTrigger/StoraTrigger.node';
import { startSandbox, type StartedSandbox } from '../../sandbox';
import { SandboxClient } from '../../sandbox/client';
import { withRateLimit } from './contactUpdates';
import {
	additionalDataFor,
	type CredentialStore,
	storaNode,
	tokenCredentials,
	workflowWith,
} from './n8n';

export interface Received {
	path: string;
	status: number;
	/** What the trigger handed to n8n: present when the delivery starts an execution. */
	workflowData?: IDataObject[];
	/** The trigger's own answer, when it wrote one (401, 400, or a 2xx that starts nothing). */
	answer?: unknown;
	/** The delivery as it arrived, to post it again. */
	request: { body: string; headers: Record<string, string> };
}

type Slot = 'test' | 'production';

export class TriggerHarness {
	readonly trigger = new StoraTrigger();
	readonly received: Received[] = [];
	private server!: Server;
	private baseUrl = '';
	private node: INode;
	private built: ReturnType<typeof workflowWith>;
	/** The workflow of the current test listen: n8n gives each listen empty static data and never saves it. */
	private testBuilt?: ReturnType<typeof workflowWith>;
	private waiters: Array<{ count: number; resolve: () => void }> = [];
	/**
	 * `up`: deliveries reach the trigger. `down`: answered 503 without reaching it (n8n not running).
	 * `not-stored`: the trigger hands n8n the event, n8n cannot store the execution and answers 500 (a busy database).
	 */
	state: 'up' | 'down' | 'not-stored' = 'up';

	constructor(
		private readonly credentials: CredentialStore,
		parameters: IDataObject,
	) {
		this.node = storaNode(parameters as INodeParameters, {
			type: 'storaTrigger',
			webhookId: 'e2d3c4b5-0000-4000-8000-00000000abcd',
		});
		this.built = workflowWith(this.node, {});
	}

	/** Starts the receiver on a free loopback port. */
	async start(): Promise<this> {
		this.server = createServer((req, res) => void this.receive(req, res));
		await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', () => resolve()));
		this.baseUrl = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
		return this;
	}

	async close() {
		this.server.closeAllConnections();
		await new Promise<void>((resolve) => this.server.close(() => resolve()));
	}

	/** Changes node parameters, as editing the workflow does (static data is kept). */
	setParameters(parameters: IDataObject) {
		this.node.parameters = { ...this.node.parameters, ...parameters } as INode['parameters'];
	}

	/** The published workflow's static data (what n8n saves). */
	get staticData(): IDataObject {
		return this.built.workflow.getStaticData('node', this.node);
	}

	/** The current test listen's static data. */
	get testStaticData(): IDataObject {
		return this.workflowOf('test').workflow.getStaticData('node', this.node);
	}

	/** The registration the trigger keeps for a slot's URL. */
	registration(
		slot: Slot,
	):
		| { endpointId: string; secret: string; url: string; events: string[]; test: boolean }
		| undefined {
		const data = slot === 'test' ? this.testStaticData : this.staticData;
		const url = slot === 'test' ? this.testUrl() : this.productionUrl();
		return ((data.endpoints ?? {}) as IDataObject)[url] as never;
	}

	private workflowOf(slot: Slot) {
		if (slot === 'production') return this.built;
		this.testBuilt ??= workflowWith(this.node, {});
		return this.testBuilt;
	}

	productionUrl() {
		return `${this.baseUrl}/webhook/${this.node.webhookId}/webhook`;
	}

	testUrl() {
		return `${this.baseUrl}/webhook-test/${this.node.webhookId}/webhook`;
	}

	private webhookData(slot: Slot): IWebhookData {
		return {
			httpMethod: 'POST',
			node: this.node.name,
			path: `${this.node.webhookId}/webhook`,
			webhookDescription: this.trigger.description.webhooks![0],
			workflowId: 'wf-1',
			workflowExecuteAdditionalData: this.additionalData(),
			isTest: slot === 'test',
			webhookId: this.node.webhookId,
		} as IWebhookData;
	}

	private additionalData() {
		return additionalDataFor(this.credentials, 'hook', undefined, {
			webhookBaseUrl: `${this.baseUrl}/webhook`,
			webhookTestBaseUrl: `${this.baseUrl}/webhook-test`,
		});
	}

	private hook(
		slot: Slot,
		mode: 'manual' | 'trigger' | 'internal',
		activation: WorkflowActivateMode,
	) {
		return new HookContext(
			this.workflowOf(slot).workflow,
			this.node,
			this.additionalData(),
			mode,
			activation,
			this.webhookData(slot),
		);
	}

	/**
	 * What n8n does when it publishes the workflow, or starts listening for a test event: a new test listen starts on
	 * empty static data (n8n forgets the previous listen's, whether or not that listen was ended).
	 */
	async activate(slot: Slot = 'production', activation: WorkflowActivateMode = 'activate') {
		if (slot === 'test') this.testBuilt = workflowWith(this.node, {});
		const context =
			slot === 'test'
				? this.hook(slot, 'manual', 'manual')
				: this.hook(slot, 'trigger', activation);
		const methods = this.trigger.webhookMethods.default;
		if (!(await methods.checkExists.call(context))) await methods.create.call(context);
	}

	/** What n8n does when it unpublishes the workflow, or a test listen ends (an event, Stop Listening, its timeout). */
	async deactivate(slot: Slot = 'production') {
		return await this.trigger.webhookMethods.default.delete.call(
			this.hook(slot, 'internal', 'update'),
		);
	}

	/** Resolves once `count` deliveries in all have reached the receiver. */
	async waitForDeliveries(count: number) {
		if (this.received.length >= count) return;
		await new Promise<void>((resolve) => this.waiters.push({ count, resolve }));
	}

	private async receive(req: IncomingMessage, raw: ServerResponse) {
		const chunks: Buffer[] = [];
		for await (const chunk of req) chunks.push(chunk as Buffer);
		const rawBody = Buffer.concat(chunks);
		if (this.state === 'down') {
			raw.statusCode = 503;
			raw.end();
			return;
		}
		const path = req.url ?? '';
		const delivered = {
			body: rawBody.toString('utf8'),
			headers: Object.fromEntries(
				Object.entries(req.headers).map(([name, value]) => [name, String(value)]),
			),
		};
		let answer: unknown;
		const slot: Slot = path.startsWith('/webhook-test/') ? 'test' : 'production';
		const request = Object.assign(req, { rawBody, body: safeJson(rawBody) });
		const response = Object.assign(raw, {
			status(code: number) {
				raw.statusCode = code;
				return response;
			},
			send(body: unknown) {
				answer = body;
				raw.setHeader('content-type', 'application/json');
				raw.write(typeof body === 'string' ? body : JSON.stringify(body));
				return response;
			},
		});
		const additionalData = {
			...this.additionalData(),
			httpRequest: request,
			httpResponse: response,
		};
		const context = new WebhookContext(
			this.workflowOf(slot).workflow,
			this.node,
			additionalData as never,
			slot === 'test' ? 'manual' : 'webhook',
			this.webhookData(slot),
			[],
			null,
		);
		let result: IWebhookResponseData;
		try {
			result = await this.trigger.webhook.call(context);
		} catch (error) {
			raw.statusCode = 500;
			raw.end(String(error));
			this.record({ path, status: 500, request: delivered });
			return;
		}
		if (!result.noWebhookResponse) {
			// n8n stores the execution, then answers (2.x defers an onReceived answer until then).
			if (this.state === 'not-stored') {
				raw.statusCode = 500;
				raw.end('{"code":0,"message":"There was a problem executing the workflow"}');
			} else {
				raw.statusCode = 200;
				raw.end('{"message":"Workflow was started"}');
			}
		}
		if (this.state === 'not-stored') result = { ...result, workflowData: undefined };
		this.record({
			path,
			status: raw.statusCode,
			workflowData: result.workflowData?.[0]?.map((item) => item.json),
			answer,
			request: delivered,
		});
	}

	private record(entry: Received) {
		this.received.push(entry);
		for (const waiter of [...this.waiters]) {
			if (this.received.length >= waiter.count) {
				this.waiters.splice(this.waiters.indexOf(waiter), 1);
				waiter.resolve();
			}
		}
	}
}

function safeJson(raw: Buffer): unknown {
	try {
		return JSON.parse(raw.toString('utf8'));
	} catch {
		return {};
	}
}

/**
 * The sandbox and harness of the Stora Trigger's suites (test/nodes/triggerRegistration.test.ts,
 * triggerDeliveries.test.ts): one sandbox per file (demo seed, http:// webhook URLs allowed, a failed delivery retried
 * at once, twice), reset to its seed before each test, and a started TriggerHarness for `events`, closed after each
 * test. Call at the top of a `describe`; read `.sandbox`, `.client` and `.harness` inside the tests.
 */
export function useTriggerSandbox(events: string[]) {
	const fixture = {} as { sandbox: StartedSandbox; client: SandboxClient; harness: TriggerHarness };
	beforeAll(async () => {
		fixture.sandbox = await startSandbox({
			seed: 'demo',
			allowHttpWebhooks: true,
			webhookRetrySchedule: [0, 0],
		});
		fixture.client = new SandboxClient(fixture.sandbox.url);
	});
	afterAll(async () => await fixture.sandbox.close());
	beforeEach(async () => {
		await fixture.client.reset('demo');
		// No budget of the node's own: these suites are about the trigger's registrations and deliveries, and their 50 or
		// so requests a minute would otherwise wait for the documented 60/min window (transport/rateLimit.pacing.test.ts covers that).
		const { sandbox } = fixture;
		const credentials = withRateLimit(tokenCredentials(sandbox.url, sandbox.token), {
			rateLimit: 'custom',
			requestsPerSecond: 0,
			requestsPerMinute: 0,
		});
		fixture.harness = await new TriggerHarness(credentials, { events: [...events] }).start();
	});
	afterEach(async () => await fixture.harness.close());
	return fixture;
}
