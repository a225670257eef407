import type { ResourceDefinition } from '../shared/descriptions';

// Placeholder: the Identity Verification operations are being written.
export const identityVerificationResource: ResourceDefinition = {
	option: { name: 'Identity Verification', value: 'identityVerification' },
	properties: [],
};
