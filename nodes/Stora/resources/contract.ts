import type { ResourceDefinition } from '../shared/descriptions';

// Placeholder: the Contract operations are being written.
export const contractResource: ResourceDefinition = {
	option: { name: 'Contract', value: 'contract' },
	properties: [],
};
