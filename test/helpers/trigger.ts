/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test harness under test/, never published */
/**
 * Drives the Stora Trigger the way n8n does, with n8n-core's real HookContext (checkExists → create on activation,
 * delete on deactivation) and WebhookContext (one per delivery), and a real HTTP receiver standing in for n8n's
 * webhook server so the sandbox's signed deliveries arrive over the network.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { HookContext, WebhookContext } from 'n8n-core';
import type { IDataObject, INode, INodeParameters, IWebhookData, IWebhookResponseData, WorkflowActivateMode } from 'n8n-workflow';

import { StoraTrigger } from '../../nodes/StoraTrigger/StoraTrigger.node';
import { additionalDataFor, type CredentialStore, storaNode, workflowWith } from './n8n';

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
	private waiters: Array<{ count: number; resolve: () => void }> = [];
	/**
	 * `up`: deliveries reach the trigger. `down`: answered 503 without reaching it (n8n not running). `answer-lost`: the
	 * trigger handles it, then the connection is dropped instead of answering (a run started, Stora saw no 2xx).
	 */
	state: 'up' | 'down' | 'answer-lost' = 'up';

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

	get staticData(): IDataObject {
		return this.built.workflow.getStaticData('node', this.node);
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

	private hook(slot: Slot, activation: WorkflowActivateMode) {
		return new HookContext(
			this.built.workflow,
			this.node,
			this.additionalData(),
			slot === 'test' ? 'manual' : 'trigger',
			activation,
			this.webhookData(slot),
		);
	}

	/** What n8n does when it publishes the workflow (or starts listening for a test event). */
	async activate(slot: Slot = 'production', activation: WorkflowActivateMode = 'activate') {
		const context = this.hook(slot, activation);
		const methods = this.trigger.webhookMethods.default;
		if (!(await methods.checkExists.call(context))) await methods.create.call(context);
	}

	/** What n8n does when it unpublishes the workflow (or a test listen ends). */
	async deactivate(slot: Slot = 'production') {
		return await this.trigger.webhookMethods.default.delete.call(this.hook(slot, 'manual'));
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
			headers: Object.fromEntries(Object.entries(req.headers).map(([name, value]) => [name, String(value)])),
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
		const additionalData = { ...this.additionalData(), httpRequest: request, httpResponse: response };
		const context = new WebhookContext(
			this.built.workflow,
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
		if (this.state === 'answer-lost' && !result.noWebhookResponse) {
			raw.destroy();
		} else if (!result.noWebhookResponse) {
			raw.statusCode = 200;
			raw.end('{"message":"Workflow was started"}');
		}
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
