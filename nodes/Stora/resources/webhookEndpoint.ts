import type { ResourceDefinition } from '../shared/descriptions';

// Placeholder: the Webhook Endpoint operations are being written.
export const webhookEndpointResource: ResourceDefinition = {
	option: { name: 'Webhook Endpoint', value: 'webhookEndpoint' },
	properties: [],
};
