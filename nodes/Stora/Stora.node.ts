/*
 * Who builds a request. The node's own builder, for every run in a workflow: n8n runs the node's `customOperations`
 * (transport/routedOperations.ts, which builds each item's request with transport/route.ts) for its own runs and when
 * the engine runs the tool variant as a node of a workflow (an agent's engine request). n8n's RoutingNode, for the
 * tool path an agent calls: when an agent or the MCP Server Trigger calls the tool through its tool input, n8n runs
 * the `execute` it gives a node without one, RoutingNode. Both read these descriptions (request, send, preSend), with
 * Settings → Request Options, and hand the request to `requestOperations.pagination` (transport/execute.ts), on for
 * every operation through the Resource parameter: the one hook that sends it (domain limits, retries, idempotency,
 * errors, Return All) and shapes the items. RoutingNode's own response handling therefore never runs: descriptions
 * must not use routing.output, routing.operations or a pagination of their own.
 * Guards: test/nodes/routedRequests.test.ts holds the builder to RoutingNode for every operation and checks that the
 * builder refuses, when the node is made, what it does not implement; test/nodes/descriptionsRouting.test.ts fails on
 * a description using a routing feature the hook bypasses; test/nodes/aiTool.test.ts holds both tool paths to the same
 * answer.
 */
import type { INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { resourceOptions, resourceProperties, resources } from './descriptions';
import { fillRecordIds } from './descriptions/common/records';
import { hints } from './descriptions/hints';
import { toolProperties } from './descriptions/tool';
import { authenticationProperty } from './helpers/authentication';
import { checkChoices, checkRequired } from './helpers/operationChecks';
import { methods } from './methods';
import { executeStoraRequest } from './transport/execute';
import { routedOperations } from './transport/routedOperations';

export class Stora implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Stora',
		name: 'stora',
		icon: { light: 'file:../../icons/stora.svg', dark: 'file:../../icons/stora.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: 'Work with the Stora self-storage platform: sites, contacts, deals, orders, invoices and more',
		defaults: { name: 'Stora' },
		usableAsTool: true,
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
			{ name: 'storaOAuth2Api', required: true, displayOptions: { show: { authentication: ['oAuth2'] } } },
		],
		// No baseURL here: the transport takes it from the credential (n8n would evaluate an expression twice per item).
		requestDefaults: { headers: { Accept: 'application/json' } },
		requestOperations: { pagination: executeStoraRequest },
		hints,
		properties: [
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
				// Pagination on for every operation: this is what routes every request through the hook above. The
				// preSends refuse a fixed-choice parameter whose value (from an expression) is not one of its choices, and
				// put the record IDs a URL names (`/contacts/{contactId}`) into it, checked.
				routing: { send: { paginate: true, preSend: [checkChoices(resourceProperties), checkRequired(resourceProperties), fillRecordIds] } },
			},
			...resourceProperties,
		],
	};

	// The node's own builder (see the top of this file): the requests RoutingNode would build from the same
	// descriptions, walking only what the settings show (transport/routedOperations.ts).
	customOperations = routedOperations(this.description);

	methods = methods;
}
