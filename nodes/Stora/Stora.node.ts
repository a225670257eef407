/*
 * n8n's RoutingNode builds every request of this node from its descriptions (request, send, preSend), in workflow runs
 * and tool calls alike, and hands it to one hook, `sendOperation` (transport/execute.ts), which sends it and shapes the
 * items. RoutingNode's own response handling therefore never runs: descriptions must not use routing.output,
 * routing.operations or a pagination of their own (test/nodes/descriptionsRouting.test.ts fails on one that does).
 */
import type { INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { resourceOptions, resourceProperties, resources } from './descriptions';
import { fillRecordIds } from './descriptions/common/records';
import { hints } from './descriptions/hints';
import { toolProperties } from './descriptions/tool';
import { authenticationProperty } from './helpers/authentication';
import { checkChoices, checkRequired } from './helpers/operationChecks';
import { withChecksDeferred } from './helpers/validation';
import { methods } from './methods';
import { sendOperation } from './transport/execute';

/**
 * RoutingNode hands a request to `requestOperations.pagination` only when its `send.paginate` is on; otherwise it sends
 * the request itself. On for every operation through the Resource parameter, so every request, POSTs included, goes
 * through `sendOperation`: the rate-limit budget, safe retries, idempotency keys, the API's errors and Return All.
 */
const SEND_THROUGH_HOOK = true;

export class Stora implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Stora',
		name: 'stora',
		icon: { light: 'file:../../icons/stora.svg', dark: 'file:../../icons/stora.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description:
			'Work with the Stora self-storage platform: sites, contacts, deals, orders, invoices and more. A community node, not made or endorsed by Stora',
		defaults: { name: 'Stora' },
		usableAsTool: true,
		// What n8n's AI workflow builders (and its MCP node search) read to use the node well; older n8n ignores it.
		builderHint: {
			searchHint:
				"Community node for the Stora self-storage Public API (not made by Stora). Set Resource, then Operation. Record IDs carry a prefix (con_ contact, site_ site, inv_ invoice, ten_ tenancy, unit_ unit) and come from an earlier node's output, never invented. Money is in minor units (4500 is 45.00). Get Many returns at most Limit (100) unless Return All (at most 100,000 records a run); filter in the node, not after it. Which unit a tenancy holds: Unit Allocation, Get Many with the tenancy filter. A write (Create, Overlock, Grant Access) takes Options, Idempotency Key (an event id) so a repeated event writes once.",
			relatedNodes: [
				{
					nodeType: 'n8n-nodes-stora.storaTrigger',
					relationHint:
						'Starts a workflow when something happens in Stora (invoice overdue or paid, deal lost, move-in)',
				},
				{
					nodeType: 'n8n-nodes-stora.storaPollTrigger',
					relationHint: 'Starts a workflow on new or updated Stora records without a public URL',
				},
				{
					nodeType: 'n8n-nodes-base.removeDuplicates',
					relationHint: 'Skips repeated events or records across executions before a write',
				},
			],
		},
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		// storaCredentials (helpers/authentication.ts), the access token tested by a function (methods/credentialCheck.ts; not named *Test*: the package scanner refuses such files in the tarball)
		// so that its messages show on every supported n8n. Written out: n8n's lint reads this array literally.
		credentials: [
			{
				name: 'storaApi',
				required: true,
				testedBy: 'storaApiConnectionTest',
				displayOptions: { show: { authentication: ['accessToken'] } },
			},
			{
				name: 'storaOAuth2Api',
				required: true,
				displayOptions: { show: { authentication: ['oAuth2'] } },
			},
		],
		// No baseURL here: the transport takes it from the credential (n8n would evaluate an expression twice per item).
		requestDefaults: { headers: { Accept: 'application/json' } },
		// `pagination` is the one place RoutingNode takes a function that sends the request itself; see SEND_THROUGH_HOOK.
		requestOperations: { pagination: sendOperation },
		hints,
		// Every check before a request reports through the hook (helpers/validation.ts withChecksDeferred).
		properties: withChecksDeferred([
			// Shown only in the tool variant n8n makes of the node (`usableAsTool`): what a model reads and gets.
			...toolProperties(resources),
			authenticationProperty,
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: resourceOptions,
				default: 'site',
				// The preSends refuse a fixed-choice parameter whose value (from an expression) is not one of its choices,
				// and put the record IDs a URL names (`/contacts/{contactId}`) into it, checked.
				routing: {
					send: {
						paginate: SEND_THROUGH_HOOK,
						preSend: [
							checkChoices(resourceProperties),
							checkRequired(resourceProperties),
							fillRecordIds,
						],
					},
				},
			},
			...resourceProperties,
		]),
	};

	methods = methods;
}
