import type { ResourceDefinition } from '../shared/descriptions';

// Placeholder: the Timeline Event operations are being written.
export const timelineEventResource: ResourceDefinition = {
	option: { name: 'Timeline Event', value: 'timelineEvent' },
	properties: [],
};
