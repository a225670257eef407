import type { ResourceDefinition } from '../shared/descriptions';

// Placeholder: the Note operations are being written.
export const noteResource: ResourceDefinition = {
	option: { name: 'Note', value: 'note' },
	properties: [],
};
