import type { INode, INodeParameters } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { Stora } from '../../nodes/Stora/Stora.node';

const description = new Stora().description;

/** The issues n8n's editor lists for a Stora node with these parameters, computed by n8n's own NodeHelpers. */
export function parameterIssuesFor(parameters: INodeParameters) {
	const node: INode = {
		id: 'n',
		name: 'Stora',
		type: 'n8n-nodes-stora.stora',
		typeVersion: 1,
		position: [0, 0],
		parameters,
	};
	node.parameters =
		NodeHelpers.getNodeParameters(
			description.properties,
			parameters,
			true,
			false,
			node,
			description,
		) ?? {};
	return (
		NodeHelpers.getNodeParametersIssues(description.properties, node, description)?.parameters ?? {}
	);
}
