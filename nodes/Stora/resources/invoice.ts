import type { ResourceDefinition } from '../shared/descriptions';

// Placeholder: the Invoice operations are being written.
export const invoiceResource: ResourceDefinition = {
	option: { name: 'Invoice', value: 'invoice' },
	properties: [],
};
