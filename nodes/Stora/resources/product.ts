import type { ResourceDefinition } from '../shared/descriptions';

// Placeholder: the Product operations are being written.
export const productResource: ResourceDefinition = {
	option: { name: 'Product', value: 'product' },
	properties: [],
};
