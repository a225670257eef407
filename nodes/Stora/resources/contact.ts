import type { ResourceDefinition } from '../shared/descriptions';

// Placeholder: the Contact operations are being written.
export const contactResource: ResourceDefinition = {
	option: { name: 'Contact', value: 'contact' },
	properties: [],
};
