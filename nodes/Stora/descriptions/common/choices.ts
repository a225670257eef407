/** Fixed lists of the API's values as the editor's choices. */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

/** `created_after` → "Created After": how the node names an API value it shows. */
export const titleCase = (value: string) =>
	value
		.split('_')
		.map((word) => word.charAt(0).toUpperCase() + word.slice(1))
		.join(' ');

/** Options for a fixed list of API values, named in Title Case and sorted as the lint requires. */
export function optionsOf(
	values: string[],
	names: Record<string, string> = {},
): INodePropertyOptions[] {
	return values
		.map((value) => ({ name: names[value] ?? titleCase(value), value }))
		.sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * The fields of a collection (Filters, Options, Additional Fields, Update Fields) in the order n8n's lint requires of
 * collections (node-param-collection-type-unsorted-items: by display name) and n8n's own nodes show. The lint reads
 * only literal arrays, so builders sort here; test/nodes/descriptionsLayout.test.ts checks the built description.
 */
export function alphabetical(fields: INodeProperties[]): INodeProperties[] {
	return [...fields].sort((a, b) => a.displayName.localeCompare(b.displayName));
}
