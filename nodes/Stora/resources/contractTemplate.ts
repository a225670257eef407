import type { ResourceDefinition } from '../shared/descriptions';

// Placeholder: the Contract Template operations are being written.
export const contractTemplateResource: ResourceDefinition = {
	option: { name: 'Contract Template', value: 'contractTemplate' },
	properties: [],
};
