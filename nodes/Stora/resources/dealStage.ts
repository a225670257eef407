import type { ResourceDefinition } from '../shared/descriptions';

// Placeholder: the Deal Stage operations are being written.
export const dealStageResource: ResourceDefinition = {
	option: { name: 'Deal Stage', value: 'dealStage' },
	properties: [],
};
