import type { ResourceDefinition } from '../shared/descriptions';

// Placeholder: the Subscription operations are being written.
export const subscriptionResource: ResourceDefinition = {
	option: { name: 'Subscription', value: 'subscription' },
	properties: [],
};
