import type { ResourceDefinition } from '../shared/descriptions';

// Placeholder: the Deal operations are being written.
export const dealResource: ResourceDefinition = {
	option: { name: 'Deal', value: 'deal' },
	properties: [],
};
