import type { ResourceDefinition } from '../shared/descriptions';

// Placeholder: the Price Adjustment operations are being written.
export const priceAdjustmentResource: ResourceDefinition = {
	option: { name: 'Price Adjustment', value: 'priceAdjustment' },
	properties: [],
};
