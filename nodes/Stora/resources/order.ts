import type { ResourceDefinition } from '../shared/descriptions';

// Placeholder: the Order operations are being written.
export const orderResource: ResourceDefinition = {
	option: { name: 'Order', value: 'order' },
	properties: [],
};
