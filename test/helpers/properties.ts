/**
 * Every parameter of a node description, collection members and fixed-collection values included, with its path:
 * for the jest suites and for the e2e builder-hint check (test/e2e/checks/builderHints.mjs, which Node loads as
 * TypeScript with its types stripped).
 */
import type { INodeProperties, INodePropertyCollection } from 'n8n-workflow';

export function* walk(
	properties: INodeProperties[],
	prefix = '',
): Generator<[string, INodeProperties]> {
	for (const property of properties) {
		const path = prefix ? `${prefix}.${property.name}` : property.name;
		yield [path, property];
		if (property.type === 'collection') yield* walk(property.options as INodeProperties[], path);
		if (property.type === 'fixedCollection') {
			for (const group of property.options as INodePropertyCollection[])
				yield* walk(group.values, `${path}.${group.name}`);
		}
	}
}
