import type { ResourceDefinition } from '../shared/descriptions';

// Placeholder: the Product Category operations are being written.
export const productCategoryResource: ResourceDefinition = {
	option: { name: 'Product Category', value: 'productCategory' },
	properties: [],
};
