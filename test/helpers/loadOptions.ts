import { LoadOptionsContext } from 'n8n-core';
import type { ILoadOptionsFunctions, INodeParameters } from 'n8n-workflow';

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
	return new LoadOptionsContext(workflow, node, additionalDataFor(credentials, 'load-options'), path);
}
