import type { ResourceDefinition } from '../shared/descriptions';

// Placeholder: the Credit Note operations are being written.
export const creditNoteResource: ResourceDefinition = {
	option: { name: 'Credit Note', value: 'creditNote' },
	properties: [],
};
