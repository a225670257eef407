/**
 * The README's operation table, generated from the node description so it cannot drift. Kept free of imports so
 * Node can run it directly (type stripping) from updateReadme.mjs, and jest can check the README against it.
 */
interface Option {
	name: string;
	value: unknown;
	description?: string;
	action?: string;
}
interface Property {
	name: string;
	type: string;
	options?: unknown[];
	displayOptions?: { show?: Record<string, unknown[]> };
}

export const START = '<!-- operations:start -->';
export const END = '<!-- operations:end -->';

export function operationsTable(properties: Property[], notices: Record<string, string> = {}): string {
	const resourceProperty = properties.find((property) => property.name === 'resource');
	const resources = (resourceProperty?.options ?? []) as Option[];
	const rows = ['| Resource | Operation | What it does |', '|---|---|---|'];
	for (const resource of resources) {
		const operationProperty = properties.find(
			(property) =>
				property.name === 'operation' && property.displayOptions?.show?.resource?.includes(resource.value),
		);
		for (const operation of (operationProperty?.options ?? []) as Option[]) {
			const note = notices[`${String(resource.value)}.${String(operation.value)}`];
			rows.push(
				`| ${resource.name} | ${operation.name} | ${operation.description ?? operation.action ?? ''}${note ? ` (${note})` : ''} |`,
			);
		}
	}
	return rows.join('\n');
}

export function replaceSection(readme: string, table: string): string {
	const start = readme.indexOf(START);
	const end = readme.indexOf(END);
	if (start < 0 || end < start) throw new Error(`README lacks the ${START} ... ${END} markers`);
	return `${readme.slice(0, start + START.length)}\n${table}\n${readme.slice(end)}`;
}
