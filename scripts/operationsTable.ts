/**
 * The operation table (docs/operations.md) and its summary on the README's front page, generated from the node
 * description so they cannot drift. Kept free of imports so Node can run it directly (type stripping) from
 * updateReadme.mjs, and jest can check both files against it.
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

export const SUMMARY_START =
	'<!-- operations-summary:start (written by npm run readme from the node description) -->';
export const SUMMARY_END = '<!-- operations-summary:end -->';

/** Each resource with the names of its operations: the front page's summary of the table. */
export function operationsSummary(properties: Property[]): string {
	const resourceProperty = properties.find((property) => property.name === 'resource');
	const resources = (resourceProperty?.options ?? []) as Option[];
	let count = 0;
	const lines = resources.map((resource) => {
		const operationProperty = properties.find(
			(property) =>
				property.name === 'operation' &&
				property.displayOptions?.show?.resource?.includes(resource.value),
		);
		const names = ((operationProperty?.options ?? []) as Option[]).map(
			(operation) => operation.name,
		);
		count += names.length;
		return `- **${resource.name}**: ${names.join(', ')}`;
	});
	return [`${resources.length} resources, ${count} operations:`, '', ...lines].join('\n');
}

/** The text with the part between `start` and `end` replaced by `content`; throws when a marker is missing. */
export function replaceBetween(text: string, start: string, end: string, content: string): string {
	const from = text.indexOf(start);
	const to = text.indexOf(end);
	if (from < 0 || to < from) throw new Error(`lacks the ${start} ... ${end} markers`);
	return `${text.slice(0, from + start.length)}\n${content}\n${text.slice(to)}`;
}

export function operationsTable(
	properties: Property[],
	notices: Record<string, string> = {},
): string {
	const resourceProperty = properties.find((property) => property.name === 'resource');
	const resources = (resourceProperty?.options ?? []) as Option[];
	const rows = ['| Resource | Operation | What it does |', '|---|---|---|'];
	for (const resource of resources) {
		const operationProperty = properties.find(
			(property) =>
				property.name === 'operation' &&
				property.displayOptions?.show?.resource?.includes(resource.value),
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

export function replaceSection(text: string, table: string): string {
	return replaceBetween(text, START, END, table);
}
