import type { ResourceDefinition } from '../shared/descriptions';

// Placeholder: the Unit Type operations are being written.
export const unitTypeResource: ResourceDefinition = {
	option: { name: 'Unit Type', value: 'unitType' },
	properties: [],
};
