import type { INodeProperties } from 'n8n-workflow';

/**
 * One property for what several operations of a resource define alike (Contact's Get, Update and Delete each have the
 * same Contact locator), shown for all of them. The operation files stay self-contained; the node gets fewer
 * properties, and that is speed: for every item n8n's RoutingNode resolves the parameter value once per property of
 * that name, twice over, before it sends the first request, so each same-named copy is one more evaluation of the
 * user's expression per item. A copy is only merged where that changes nothing the user sees: no property shown for
 * its operations lies between the two.
 */
export function mergeAcrossOperations(properties: INodeProperties[]): INodeProperties[] {
	const shared: INodeProperties[] = [];
	const firstAt = new Map<string, number>();
	for (const property of properties) {
		const operations = operationsOf(property);
		const signature = operations ? signatureOf(property) : undefined;
		const at = signature === undefined ? undefined : firstAt.get(signature);
		if (at !== undefined && operations && !shownBetween(shared, at, operations)) {
			const target = shared[at];
			const show = target.displayOptions!.show!;
			shared[at] = {
				...target,
				displayOptions: {
					...target.displayOptions,
					show: { ...show, operation: [...(show.operation as string[]), ...operations] },
				},
			};
			continue;
		}
		if (signature !== undefined) firstAt.set(signature, shared.length);
		shared.push(property);
	}
	return shared;
}

/** The operations a property is shown for, when that is all its display options say (one resource, no hide). */
function operationsOf(property: INodeProperties): string[] | undefined {
	const options = property.displayOptions;
	if (!options || options.hide || !options.show) return undefined;
	const keys = Object.keys(options.show).sort();
	if (keys.length !== 2 || keys[0] !== 'operation' || keys[1] !== 'resource') return undefined;
	const { operation, resource } = options.show;
	if (!Array.isArray(resource) || resource.length !== 1 || !Array.isArray(operation))
		return undefined;
	if (!operation.every((value) => typeof value === 'string')) return undefined;
	return operation as string[];
}

/** The property without the operations it is shown for; functions (preSend checks) by their source. */
export function signatureOf(property: INodeProperties): string {
	const { displayOptions, ...rest } = property;
	const show = { ...(displayOptions?.show ?? {}) };
	delete show.operation;
	return JSON.stringify({ ...rest, show }, (_key, value: unknown) =>
		typeof value === 'function' ? `function ${value.toString()}` : value,
	);
}

/**
 * Whether a property after `at` may be shown for one of `operations`. Conditions besides the operation (Return All
 * off, a hide) only ever narrow where a property shows; one without an operation condition may show anywhere.
 */
function shownBetween(properties: INodeProperties[], at: number, operations: string[]): boolean {
	return properties.slice(at + 1).some((property) => {
		const shownFor = property.displayOptions?.show?.operation;
		if (!Array.isArray(shownFor)) return true;
		return shownFor.some(
			(operation) => typeof operation !== 'string' || operations.includes(operation),
		);
	});
}
