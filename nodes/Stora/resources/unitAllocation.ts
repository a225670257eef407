import type { ResourceDefinition } from '../shared/descriptions';

// Placeholder: the Unit Allocation operations are being written.
export const unitAllocationResource: ResourceDefinition = {
	option: { name: 'Unit Allocation', value: 'unitAllocation' },
	properties: [],
};
