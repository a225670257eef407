import type { ResourceDefinition } from '../shared/descriptions';

// Placeholder: the Task operations are being written.
export const taskResource: ResourceDefinition = {
	option: { name: 'Task', value: 'task' },
	properties: [],
};
