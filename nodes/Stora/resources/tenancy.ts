import type { ResourceDefinition } from '../shared/descriptions';

// Placeholder: the Tenancy operations are being written.
export const tenancyResource: ResourceDefinition = {
	option: { name: 'Tenancy', value: 'tenancy' },
	properties: [],
};
