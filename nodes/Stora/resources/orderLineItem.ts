import type { ResourceDefinition } from '../shared/descriptions';

// Placeholder: the Order Line Item operations are being written.
export const orderLineItemResource: ResourceDefinition = {
	option: { name: 'Order Line Item', value: 'orderLineItem' },
	properties: [],
};
