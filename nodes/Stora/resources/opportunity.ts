import type { ResourceDefinition } from '../shared/descriptions';

// Placeholder: the Opportunity operations are being written.
export const opportunityResource: ResourceDefinition = {
	option: { name: 'Opportunity', value: 'opportunity' },
	properties: [],
};
