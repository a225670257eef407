import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { Stora } from '../../nodes/Stora/Stora.node';

export interface NodeOperation {
	resource: string;
	operation: string;
	/** The HTTP method and the API path the operation sends to (`/2025-09/deals/{dealId}/win`, `/oauth2/...`). */
	method?: string;
	path?: string;
}

/** Every operation of the Stora node, with the request its option's routing names. */
export function nodeOperations(): NodeOperation[] {
	const operations = new Stora().description.properties.filter(
		(property) => property.name === 'operation',
	);
	return (operations as INodeProperties[]).flatMap((property) =>
		(property.options as INodePropertyOptions[]).map((option) => {
			const request = option.routing?.request;
			const url = request?.url === undefined ? undefined : String(request.url).replace(/^=/, '');
			return {
				resource: String(property.displayOptions?.show?.resource?.[0]),
				operation: String(option.value),
				method: request?.method,
				path: url === undefined || url.startsWith('/oauth2') ? url : `/2025-09${url}`,
			};
		}),
	);
}

/** Whether a sandbox route pattern (`/deals/:deal_id`) is the one an operation's path (`/deals/{dealId}`) names. */
export const sameRoute = (pattern: string, path: string) => {
	const shape = (text: string) => text.replace(/\{\w+\}/g, ':x').replace(/:[a-z_]+/g, ':x');
	return shape(pattern) === shape(path);
};
