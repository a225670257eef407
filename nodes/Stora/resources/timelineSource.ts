import type { ResourceDefinition } from '../shared/descriptions';

// Placeholder: the Timeline Source operations are being written.
export const timelineSourceResource: ResourceDefinition = {
	option: { name: 'Timeline Source', value: 'timelineSource' },
	properties: [],
};
