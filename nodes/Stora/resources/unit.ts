import type { ResourceDefinition } from '../shared/descriptions';

// Placeholder: the Unit operations are being written.
export const unitResource: ResourceDefinition = {
	option: { name: 'Unit', value: 'unit' },
	properties: [],
};
