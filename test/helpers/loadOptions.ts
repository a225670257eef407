/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test under test/, never published (n8n-core: the engine the tests run in; test/helpers/package.json has no devDependencies to read it from) */
import { LoadOptionsContext } from 'n8n-core';
import type { ILoadOptionsFunctions, INodeListSearchResult, INodeParameters } from 'n8n-workflow';

import * as billingListSearch from '../../nodes/Stora/methods/listSearch/billing';
import { additionalDataFor, type CredentialStore, storaNode, workflowWith } from './n8n';

/**
 * n8n-core's real context for dropdowns and resource-locator lists, as the editor opens them; `path` names the
 * parameter whose list is open (`parameters.orderId`).
 */
export function loadOptionsContext(
	credentials: CredentialStore,
	parameters: INodeParameters,
	path = 'parameters',
): ILoadOptionsFunctions {
	const node = storaNode(parameters);
	const { workflow } = workflowWith(node);
	return new LoadOptionsContext(
		workflow,
		node,
		additionalDataFor(credentials, 'load-options'),
		path,
	);
}

/**
 * Runs a list search of the node's billing pickers (methods/listSearch/billing.ts) the way n8n's editor does, in
 * n8n-core's real load-options context, with the list of Order → Get's order open.
 */
export async function searchBilling(
	credentials: CredentialStore,
	method: keyof typeof billingListSearch,
	filter?: string,
	page?: string,
): Promise<INodeListSearchResult> {
	const context = loadOptionsContext(
		credentials,
		{ resource: 'order', operation: 'get' },
		'parameters.orderId',
	);
	return await billingListSearch[method].call(context, filter, page);
}
