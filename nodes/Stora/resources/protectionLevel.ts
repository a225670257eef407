import type { ResourceDefinition } from '../shared/descriptions';

// Placeholder: the Protection Level operations are being written.
export const protectionLevelResource: ResourceDefinition = {
	option: { name: 'Protection Level', value: 'protectionLevel' },
	properties: [],
};
