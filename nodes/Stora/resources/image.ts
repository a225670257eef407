import type { ResourceDefinition } from '../shared/descriptions';

// Placeholder: the Image operations are being written.
export const imageResource: ResourceDefinition = {
	option: { name: 'Image', value: 'image' },
	properties: [],
};
