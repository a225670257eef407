import type { INodeProperties } from 'n8n-workflow';

/**
 * Whether a property's resource and operation conditions let it show for this operation, other conditions aside. A
 * collection's field may carry them as root conditions (`/resource`, `/operation`): one collection can serve several
 * resources, each field shown only for its own.
 */
export function shownFor(property: INodeProperties, resource: string, operation: string): boolean {
	const show = property.displayOptions?.show ?? {};
	const allows = (values: unknown, value: string) =>
		!Array.isArray(values) || values.includes(value);
	return (
		allows(show.resource, resource) &&
		allows(show['/resource'], resource) &&
		allows(show.operation, operation) &&
		allows(show['/operation'], operation)
	);
}
