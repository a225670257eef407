import { randomUUID } from 'crypto';
import type {
	IDataObject,
	IHookFunctions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { authenticationProperty, storaCredentials } from '../Stora/helpers/authentication';
import { API_VERSION } from '../Stora/helpers/constants';
import { EVENT_TYPE_OPTIONS, parseEventTypes } from '../Stora/helpers/events';
import { jsonBodyOf } from '../Stora/helpers/response';
import { missingScopeHint } from '../Stora/helpers/scopes';
import { asNodeError, storaRequest } from '../Stora/transport/request';
import { hints } from './hints';
import {
	allRegistrations,
	endpointsAt,
	forget,
	hookUrl,
	registrationFor,
	remember,
	superseded,
} from './registrations';
import { verifySignature } from './signature';

/** The event types typed in Additional Event Types, and the entries that are not shaped like one. */
function additionalEvents(context: IHookFunctions | IWebhookFunctions) {
	const options = context.getNodeParameter('options', {}) as { additionalEventTypes?: unknown };
	return parseEventTypes(options.additionalEventTypes ?? '');
}

/** The picked and the typed event types, each once, sorted (the registration compares them as a list). */
function selectedEvents(context: IHookFunctions | IWebhookFunctions): string[] {
	const picked = context.getNodeParameter('events', []) as string[];
	return [...new Set([...picked, ...additionalEvents(context).types])].sort();
}

/** Fails before any request on a typed event type of the wrong shape, or on no event type at all. */
function checkEvents(context: IHookFunctions): void {
	const { invalid } = additionalEvents(context);
	if (invalid.length) {
		throw new NodeOperationError(
			context.getNode(),
			`Additional Event Types: ${invalid.map((entry) => `"${entry}"`).join(', ')} ${invalid.length > 1 ? 'are not event types' : 'is not an event type'}`,
			{
				description:
					'An event type is lowercase words joined by dots, as Stora names them (e.g. deal.won or identity_verification.failed); separate several with commas.',
			},
		);
	}
	if (!selectedEvents(context).length) {
		throw new NodeOperationError(context.getNode(), 'Events: choose at least one event', {
			description:
				'Pick the events that start the workflow, or type them in Options → Additional Event Types.',
		});
	}
}

/**
 * Errors of the trigger's own requests say what the trigger was doing, as the action node's errors name their
 * operation. Where publishing a workflow fails, n8n 2.x shows only the message and n8n 1.x only the description: a
 * missing scope's remedy goes into both.
 */
function naming(context: IHookFunctions, error: unknown, doing: string, method: string) {
	const nodeError = asNodeError(context, error);
	const lines = [`Operation: ${doing}`];
	if (nodeError instanceof NodeApiError && nodeError.httpCode === '403') {
		const hint = missingScopeHint('webhookEndpoint', undefined, method, nodeError.message);
		if (hint) {
			nodeError.message = `${nodeError.message}. ${hint}`;
			lines.unshift(hint);
		}
	}
	nodeError.description = [nodeError.description, ...lines].filter(Boolean).join('\n');
	return nodeError;
}

function isNotFound(error: unknown): boolean {
	return error instanceof NodeApiError && error.httpCode === '404';
}

async function deleteEndpoint(context: IHookFunctions, endpointId: string): Promise<void> {
	try {
		await storaRequest(context, {
			method: 'DELETE',
			url: `/webhook_endpoints/${encodeURIComponent(endpointId)}`,
		});
	} catch (error) {
		// Already gone (deleted in BackOffice, or by an earlier deactivation) is what we wanted.
		if (isNotFound(error)) return;
		throw naming(
			context,
			error,
			`removing the Stora webhook endpoint (DELETE /webhook_endpoints/${endpointId})`,
			'DELETE',
		);
	}
}

export class StoraTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Stora Trigger',
		name: 'storaTrigger',
		icon: { light: 'file:../../icons/stora.svg', dark: 'file:../../icons/stora.dark.svg' },
		group: ['trigger'],
		// 1.1 behaves as 1. n8n evaluates a legacy expression on every delivery to a version 1 webhook node; from 1.1 on
		// it does not, which shortens each delivery's answer.
		version: [1, 1.1],
		defaultVersion: 1.1,
		subtitle: '={{$parameter["events"].join(", ")}}',
		// The Stora node's own text: n8n's node creator lists this trigger's events inside the Stora entry and shows this
		// description on that entry (it copies a trigger's description onto the action node of the same name).
		description:
			'Work with the Stora self-storage platform: sites, contacts, deals, orders, invoices and more. A community node, not made or endorsed by Stora',
		defaults: { name: 'Stora Trigger' },
		// What n8n's AI workflow builders read; older n8n ignores it.
		builderHint: {
			searchHint:
				'Community trigger for Stora self-storage webhooks (not made by Stora): registers its own webhook endpoint in Stora when the workflow is published. Each item is the whole event: id (the event ID), type and data (the record, e.g. data.invoice, data.deal). Stora can deliver an event more than once: put Remove Duplicates right after it (Remove Items Processed in Previous Executions, on the event id) and use the event id as the Idempotency Key of Stora writes.',
			relatedNodes: [
				{
					nodeType: 'n8n-nodes-base.removeDuplicates',
					relationHint: 'Right after the trigger, on the event id: a redelivered event stops there',
				},
				{
					nodeType: 'n8n-nodes-stora.stora',
					relationHint:
						"Acts on the event's records: overlock a unit, create a task, record a timeline event",
				},
			],
		},
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: storaCredentials,
		webhooks: [
			{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'webhook' },
		],
		hints,
		properties: [
			authenticationProperty,
			{
				displayName: 'Events',
				name: 'events',
				type: 'multiOptions',
				options: EVENT_TYPE_OPTIONS,
				default: [],
				description:
					'The events that start the workflow. Stora can deliver an event more than once: to skip repeats, add a Remove Duplicates node after the trigger (Remove Items Processed in Previous Executions, on the event ID). For an event not listed here, use Options → Additional Event Types.',
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: [
					{
						displayName: 'Additional Event Types',
						name: 'additionalEventTypes',
						type: 'string',
						default: '',
						placeholder: 'e.g. deal.won, subscription.created',
						description:
							"Comma-separated event types that are not in the Events list (Stora's docs show only part of its list). Checked for shape here; Stora refuses a type it does not send when the trigger registers.",
					},
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
				const registration = registrationFor(this);
				if (!registration) return false;
				// A mistyped event type fails here too, instead of being dropped while the old endpoint still matches.
				checkEvents(this);
				try {
					const response = await storaRequest(this, {
						method: 'GET',
						url: `/webhook_endpoints/${encodeURIComponent(registration.endpointId)}`,
					});
					const endpoint = jsonBodyOf(this.getNode(), response).endpoint as IDataObject;
					const sameEvents =
						JSON.stringify([...((endpoint.event_types as string[]) ?? [])].sort()) ===
						JSON.stringify(selectedEvents(this));
					// A changed URL or event list is re-registered by create(), which removes this endpoint first.
					return endpoint.url === registration.url && sameEvents && endpoint.status !== 'disabled';
				} catch (error) {
					if (isNotFound(error)) {
						this.logger.info(
							`Stora webhook endpoint ${registration.endpointId} no longer exists; registering again`,
						);
						forget(this, registration.url);
						return false;
					}
					throw naming(
						this,
						error,
						`checking the Stora webhook endpoint (GET /webhook_endpoints/${registration.endpointId})`,
						'GET',
					);
				}
			},

			async create(this: IHookFunctions): Promise<boolean> {
				const url = hookUrl(this);
				// n8n creates a test listen's endpoint in `manual` mode; it ends every listen in `internal` mode.
				const test = this.getMode() === 'manual';
				checkEvents(this);
				const events = selectedEvents(this);
				// What this node registered before at this URL (or, for its kind, at an address n8n no longer uses), and what
				// Stora still holds at this URL that n8n forgot: all removed, so one endpoint delivers to one URL.
				const stale = [registrationFor(this), ...superseded(this, test)].filter(
					(entry) => entry !== undefined,
				);
				for (const entry of stale) {
					await deleteEndpoint(this, entry.endpointId);
					forget(this, entry.url);
				}
				let left: string[] = [];
				try {
					left = await endpointsAt(this, url);
				} catch (error) {
					// A token that may write endpoints but not read them still registers; only the search for leftovers is lost.
					if (!(error instanceof NodeApiError && error.httpCode === '403')) {
						throw naming(
							this,
							error,
							'looking for endpoints left at this URL (GET /webhook_endpoints)',
							'GET',
						);
					}
					this.logger.warn(
						`The Stora credential cannot list webhook endpoints (public.webhook_endpoint:read), so an endpoint left at ${url} by an earlier listen or publication is not removed; add the scope to remove such leftovers`,
					);
				}
				for (const endpointId of left) {
					this.logger.info(
						`Removing Stora webhook endpoint ${endpointId}, left at ${url} by an earlier listen or publication`,
					);
					await deleteEndpoint(this, endpointId);
				}
				const doing = 'registering the Stora webhook endpoint (POST /webhook_endpoints)';
				let endpoint: IDataObject;
				try {
					const response = await storaRequest(this, {
						method: 'POST',
						url: '/webhook_endpoints',
						// One key per activation, kept across the transport's retries: a retry after a lost answer gets
						// the first endpoint back instead of registering a second one.
						headers: { 'Idempotency-Key': `n8n-${randomUUID()}` },
						body: {
							name: `n8n: ${this.getWorkflow().name ?? 'workflow'} (${test ? 'test' : 'production'})`.slice(
								0,
								200,
							),
							api_version: API_VERSION,
							url,
							event_types: events,
							description: `Registered by the n8n Stora Trigger of workflow ${this.getWorkflow().id ?? ''}`,
						},
					});
					endpoint = jsonBodyOf(this.getNode(), response).endpoint as IDataObject;
				} catch (error) {
					const typed = additionalEvents(this).types;
					if (error instanceof NodeApiError && error.httpCode === '422' && typed.length) {
						// Stora checks event types against its own list, which ours (and the docs) only partly show.
						error.description =
							`${error.description ?? ''}\nIf Stora refused an event type, check Options → Additional Event Types (${typed.join(', ')}): Stora accepts only the event types it sends.`.trim();
					}
					// Stora refuses an http URL as invalid content (422); a refusal for another reason (a scope) is not about it.
					if (
						error instanceof NodeApiError &&
						error.httpCode === '422' &&
						!/^https:\/\//.test(url)
					) {
						error.description =
							`${error.description ?? ''}\nStora only delivers to https URLs, and n8n registered ${url}. Set n8n's WEBHOOK_URL environment variable to the public https address of this n8n instance.`.trim();
					}
					throw naming(this, error, doing, 'POST');
				}
				if (!endpoint?.id || !endpoint.secret) {
					throw new NodeApiError(this.getNode(), (endpoint ?? {}) as JsonObject, {
						message: 'Stora created the webhook endpoint but returned no ID or signing secret',
						description: `Operation: ${doing}`,
					});
				}
				remember(this, {
					endpointId: String(endpoint.id),
					secret: String(endpoint.secret),
					url,
					events,
					test,
				});
				return true;
			},

			async delete(this: IHookFunctions): Promise<boolean> {
				const registration = registrationFor(this);
				if (!registration) return true;
				try {
					await deleteEndpoint(this, registration.endpointId);
					return true;
				} catch (error) {
					this.logger.warn(
						`Could not remove Stora webhook endpoint ${registration.endpointId}: ${(error as Error).message}. The next listen or publication of this trigger removes it.`,
					);
					return false;
				} finally {
					forget(this, registration.url);
				}
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const request = this.getRequestObject() as unknown as { rawBody?: Buffer; body?: unknown };
		const rawBody = request.rawBody ?? Buffer.from(JSON.stringify(request.body ?? {}));
		const check = verifySignature(
			rawBody,
			this.getHeaderData()['x-stora-signature'] as string | undefined,
			allRegistrations(this).map((entry) => entry.secret),
		);
		if (!check.valid) {
			this.logger.warn(`Rejected a Stora delivery: signature ${check.reason}`);
			this.getResponseObject()
				.status(401)
				.send({ error: `invalid signature (${check.reason})` })
				.end();
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
		if (!selectedEvents(this).includes(String(event.type))) {
			// 2xx, so Stora does not retry what needs no retry; the body says why nothing started.
			this.getResponseObject()
				.status(200)
				.send({ received: true, ignored: true, event_id: event.id, event_type: event.type })
				.end();
			return { noWebhookResponse: true };
		}

		// No answer of the trigger's own here: n8n answers the delivery (onReceived), so a 2xx is n8n's word that it took
		// the execution, and an n8n that cannot take it answers an error that Stora retries.
		const options = this.getNodeParameter('options', {}) as { resourceOnly?: boolean };
		const requestId = this.getHeaderData()['x-stora-request-id'];
		if (options.resourceOnly) {
			const resource = Object.values((event.data as IDataObject) ?? {})[0] as
				| IDataObject
				| undefined;
			return { workflowData: [this.helpers.returnJsonArray([resource ?? {}])] };
		}
		return { workflowData: [this.helpers.returnJsonArray([{ ...event, request_id: requestId }])] };
	}
}
