import type { ResourceDefinition } from '../shared/descriptions';

// Placeholder: the Timeline Template operations are being written.
export const timelineTemplateResource: ResourceDefinition = {
	option: { name: 'Timeline Template', value: 'timelineTemplate' },
	properties: [],
};
