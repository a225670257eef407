import { LoadOptionsContext } from 'n8n-core';
import type { ILoadOptionsFunctions, INode, INodeParameters } from 'n8n-workflow';

import { additionalDataFor, credentialTypeFor, type CredentialStore, workflowWith } from './n8n';

/** n8n-core's real context for dropdowns and resource-locator lists, as the editor opens them. */
export function loadOptionsContext(credentials: CredentialStore, parameters: INodeParameters): ILoadOptionsFunctions {
	const node: INode = {
		id: 'b3f1c7e2-0000-4000-8000-000000000003',
		name: 'Stora',
		type: 'n8n-nodes-stora.stora',
		typeVersion: 1,
		position: [0, 0],
		parameters: { authentication: 'accessToken', ...parameters },
		credentials: { [credentialTypeFor(parameters)]: { id: '1', name: 'Stora' } },
	};
	const { workflow } = workflowWith(node);
	return new LoadOptionsContext(workflow, node, additionalDataFor(credentials, 'load-options'), 'parameters');
}
