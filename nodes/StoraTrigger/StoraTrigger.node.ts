import type {
	IDataObject,
	IHookFunctions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, NodeConnectionTypes } from 'n8n-workflow';

import { authenticationProperty } from '../Stora/helpers/authentication';
import { API_VERSION } from '../Stora/helpers/constants';
import { EVENT_TYPE_OPTIONS } from '../Stora/helpers/events';
import { verifySignature } from '../Stora/helpers/signature';
import { asNodeError, storaRequest, versionedBaseUrl } from '../Stora/transport/request';

/** What the trigger keeps per registration: test listening and the published workflow each have their own. */
interface Registration {
	endpointId: string;
	secret: string;
	url: string;
	events: string[];
}

type Registrations = { test?: Registration; production?: Registration };

function registrations(context: IHookFunctions | IWebhookFunctions): Registrations & IDataObject {
	return context.getWorkflowStaticData('node') as Registrations & IDataObject;
}

/** "test" while n8n listens for a test event, "production" for a published workflow. */
function slotOf(context: IHookFunctions): keyof Registrations {
	return context.getMode() === 'manual' ? 'test' : 'production';
}

function selectedEvents(context: IHookFunctions): string[] {
	return [...(context.getNodeParameter('events', []) as string[])].sort();
}

function isNotFound(error: unknown): boolean {
	return error instanceof NodeApiError && error.httpCode === '404';
}

async function deleteEndpoint(context: IHookFunctions, endpointId: string): Promise<void> {
	try {
		await storaRequest(context, {
			method: 'DELETE',
			baseURL: await versionedBaseUrl(context),
			url: `/webhook_endpoints/${encodeURIComponent(endpointId)}`,
		});
	} catch (error) {
		// Already gone (deleted in BackOffice, or by an earlier deactivation) is what we wanted.
		if (isNotFound(error)) return;
		throw asNodeError(context, error);
	}
}

export class StoraTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Stora Trigger',
		name: 'storaTrigger',
		icon: { light: 'file:../../icons/stora.svg', dark: 'file:../../icons/stora.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{$parameter["events"].join(", ")}}',
		description: 'Starts the workflow when something happens in Stora (a contact is created, an invoice is paid, ...)',
		defaults: { name: 'Stora Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{ name: 'storaApi', required: true, displayOptions: { show: { authentication: ['accessToken'] } } },
			{ name: 'storaOAuth2Api', required: true, displayOptions: { show: { authentication: ['oAuth2'] } } },
		],
		webhooks: [{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'webhook' }],
		properties: [
			authenticationProperty,
			{
				displayName: 'Events',
				name: 'events',
				type: 'multiOptions',
				options: EVENT_TYPE_OPTIONS,
				default: [],
				required: true,
				description:
					'The events that start the workflow. Stora delivers each event at least once: use the event ID to skip repeats.',
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: [
					{
						displayName: 'Output Resource Only',
						name: 'resourceOnly',
						type: 'boolean',
						default: false,
						description:
							'Whether to output only the record the event is about (for example the invoice) instead of the whole event',
					},
				],
			},
		],
	};

	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				const data = registrations(this);
				const slot = slotOf(this);
				const registration = data[slot];
				if (!registration) return false;
				try {
					const response = await storaRequest(this, {
						method: 'GET',
						baseURL: await versionedBaseUrl(this),
						url: `/webhook_endpoints/${encodeURIComponent(registration.endpointId)}`,
					});
					const endpoint = (response.body as IDataObject).endpoint as IDataObject;
					const sameUrl = endpoint.url === this.getNodeWebhookUrl('default');
					const sameEvents =
						JSON.stringify([...((endpoint.event_types as string[]) ?? [])].sort()) ===
						JSON.stringify(selectedEvents(this));
					// A changed URL or event list is re-registered by create(), which removes this endpoint first.
					return sameUrl && sameEvents && endpoint.status !== 'disabled';
				} catch (error) {
					if (isNotFound(error)) {
						this.logger.info(`Stora webhook endpoint ${registration.endpointId} no longer exists; registering again`);
						delete data[slot];
						return false;
					}
					throw asNodeError(this, error);
				}
			},

			async create(this: IHookFunctions): Promise<boolean> {
				const data = registrations(this);
				const slot = slotOf(this);
				const url = this.getNodeWebhookUrl('default') as string;
				const events = selectedEvents(this);
				const stale = data[slot];
				if (stale) {
					await deleteEndpoint(this, stale.endpointId);
					delete data[slot];
				}
				let endpoint: IDataObject;
				try {
					const response = await storaRequest(this, {
						method: 'POST',
						baseURL: await versionedBaseUrl(this),
						url: '/webhook_endpoints',
						body: {
							name: `n8n: ${this.getWorkflow().name ?? 'workflow'} (${slot})`.slice(0, 200),
							api_version: API_VERSION,
							url,
							event_types: events,
							description: `Registered by the n8n Stora Trigger of workflow ${this.getWorkflow().id ?? ''}`,
						},
					});
					endpoint = (response.body as IDataObject).endpoint as IDataObject;
				} catch (error) {
					if (error instanceof NodeApiError && !/^https:\/\//.test(url)) {
						error.description = `${error.description ?? ''}\nStora only delivers to https URLs, and n8n registered ${url}. Set n8n's WEBHOOK_URL environment variable to the public https address of this n8n instance.`.trim();
					}
					throw asNodeError(this, error);
				}
				if (!endpoint?.id || !endpoint.secret) {
					throw new NodeApiError(this.getNode(), (endpoint ?? {}) as JsonObject, {
						message: 'Stora created the webhook endpoint but returned no ID or signing secret',
					});
				}
				data[slot] = { endpointId: String(endpoint.id), secret: String(endpoint.secret), url, events };
				return true;
			},

			async delete(this: IHookFunctions): Promise<boolean> {
				const data = registrations(this);
				const slot = slotOf(this);
				const registration = data[slot];
				if (!registration) return true;
				try {
					await deleteEndpoint(this, registration.endpointId);
					return true;
				} catch (error) {
					this.logger.warn(
						`Could not remove Stora webhook endpoint ${registration.endpointId}: ${(error as Error).message}`,
					);
					return false;
				} finally {
					delete data[slot];
				}
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const request = this.getRequestObject() as unknown as { rawBody?: Buffer; body?: unknown };
		const data = registrations(this);
		const secrets = [data.test?.secret, data.production?.secret].filter((secret): secret is string => !!secret);
		const rawBody = request.rawBody ?? Buffer.from(JSON.stringify(request.body ?? {}));
		const check = verifySignature(rawBody, this.getHeaderData()['x-stora-signature'] as string | undefined, secrets);
		if (!check.valid) {
			this.logger.warn(`Rejected a Stora delivery: signature ${check.reason}`);
			this.getResponseObject().status(401).send({ error: `invalid signature (${check.reason})` }).end();
			return { noWebhookResponse: true };
		}

		let payload: IDataObject;
		try {
			payload = JSON.parse(rawBody.toString('utf8')) as IDataObject;
		} catch {
			this.getResponseObject().status(400).send({ error: 'body is not JSON' }).end();
			return { noWebhookResponse: true };
		}
		const event = (payload.event ?? payload) as IDataObject;
		const events = this.getNodeParameter('events', []) as string[];
		if (!events.includes(String(event.type))) return {};

		const options = this.getNodeParameter('options', {}) as { resourceOnly?: boolean };
		const requestId = this.getHeaderData()['x-stora-request-id'];
		if (options.resourceOnly) {
			const resource = Object.values((event.data as IDataObject) ?? {})[0] as IDataObject | undefined;
			return { workflowData: [this.helpers.returnJsonArray([resource ?? {}])] };
		}
		return { workflowData: [this.helpers.returnJsonArray([{ ...event, request_id: requestId }])] };
	}
}
