import type { ResourceDefinition } from '../shared/descriptions';

// Placeholder: the Coupon operations are being written.
export const couponResource: ResourceDefinition = {
	option: { name: 'Coupon', value: 'coupon' },
	properties: [],
};
