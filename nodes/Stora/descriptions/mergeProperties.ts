import type { INodeProperties } from 'n8n-workflow';

import { shownFor } from '../helpers/shownFor';

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

interface Placed {
	property: INodeProperties;
	resource: string;
	operations: string[];
}

/** Where a property shows when that is one resource and a list of its operations (other conditions kept as they are). */
function placeOf(property: INodeProperties): Placed | undefined {
	const show = property.displayOptions?.show;
	const resource = show?.resource;
	const operations = show?.operation;
	if (!Array.isArray(resource) || resource.length !== 1 || typeof resource[0] !== 'string')
		return undefined;
	if (!Array.isArray(operations) || !operations.every((value) => typeof value === 'string'))
		return undefined;
	return { property, resource: resource[0], operations: operations as string[] };
}

/** What must be alike for two resources' copies to become one: everything but where they show and, for a collection, its fields. */
function frameOf(property: INodeProperties): string {
	const { displayOptions, options, ...rest } = property;
	const show = { ...(displayOptions?.show ?? {}) };
	delete show.resource;
	delete show.operation;
	return signatureOf({
		...rest,
		...(property.type === 'collection' ? {} : { options }),
		displayOptions: { ...displayOptions, show },
	} as INodeProperties);
}

/**
 * One order that keeps every chain's order (each chain: what one operation shows, first to last), earliest first
 * where chains leave a choice. Two chains that order a pair both ways have no such order: that is an error in the
 * descriptions, named here so the build's tests fail on it.
 */
function orderKeeping<T>(items: T[], chains: T[][], describe: (item: T) => string): T[] {
	const rank = new Map(items.map((item, index) => [item, index]));
	const after = new Map<T, Set<T>>(items.map((item) => [item, new Set<T>()]));
	const waiting = new Map<T, number>(items.map((item) => [item, 0]));
	for (const chain of chains)
		for (let i = 1; i < chain.length; i++) {
			const [from, to] = [chain[i - 1], chain[i]];
			if (from === to || after.get(from)!.has(to)) continue;
			after.get(from)!.add(to);
			waiting.set(to, waiting.get(to)! + 1);
		}
	const ready = items.filter((item) => waiting.get(item) === 0);
	const ordered: T[] = [];
	while (ready.length) {
		ready.sort((a, b) => rank.get(a)! - rank.get(b)!);
		const next = ready.shift()!;
		ordered.push(next);
		for (const to of after.get(next)!) {
			waiting.set(to, waiting.get(to)! - 1);
			if (waiting.get(to) === 0) ready.push(to);
		}
	}
	if (ordered.length !== items.length) {
		const stuck = items.filter((item) => !ordered.includes(item)).map(describe);
		throw new Error(`Operations order these properties both ways: ${stuck.join(', ')}`);
	}
	return ordered;
}

/** A collection field's display conditions with the root conditions that only repeat its collection's removed. */
function withoutRepeats(option: INodeProperties, place: Placed): INodeProperties {
	const show = option.displayOptions?.show;
	if (!show) return option;
	const rest = { ...show };
	const same = (key: string, value: unknown[]) =>
		JSON.stringify(rest[key]) === JSON.stringify(value);
	if (same('/resource', [place.resource])) delete rest['/resource'];
	if (same('/operation', place.operations)) delete rest['/operation'];
	const { displayOptions, ...bare } = option;
	const kept = { ...displayOptions, show: Object.keys(rest).length ? rest : undefined };
	if (!kept.show) delete kept.show;
	return Object.keys(kept).length ? { ...bare, displayOptions: kept } : bare;
}

/**
 * The fields of one collection that several resources define under one name, each shown where its own copy showed:
 * a field alike in several copies once, for their resources (root conditions `/resource`, and `/operation` where its
 * copy showed for only some of the merged operations).
 */
function mergedFields(
	copies: Placed[],
	operations: string[],
	operationsOf: Record<string, string[]>,
): INodeProperties[] {
	const byKey = new Map<
		string,
		{ option: INodeProperties; resources: string[]; only?: string[] }
	>();
	for (const copy of copies) {
		const existing = operations.filter((operation) =>
			operationsOf[copy.resource]?.includes(operation),
		);
		const only = existing.every((operation) => copy.operations.includes(operation))
			? undefined
			: copy.operations;
		for (const raw of (copy.property.options ?? []) as INodeProperties[]) {
			const option = withoutRepeats(raw, copy);
			const key = `${signatureOf(option)}\n${JSON.stringify(only ?? null)}`;
			const entry = byKey.get(key);
			if (entry) entry.resources.push(copy.resource);
			else byKey.set(key, { option, resources: [copy.resource], only });
		}
	}
	const everywhere = copies.map((copy) => copy.resource);
	// Sorted by display name, as n8n's lint wants a collection's fields and each copy has them already.
	const entries = [...byKey.values()].sort((x, y) =>
		x.option.displayName.localeCompare(y.option.displayName),
	);
	return entries.map(({ option, resources, only }) => {
		const roots = {
			...(resources.length === new Set(everywhere).size && !only ? {} : { '/resource': resources }),
			...(only ? { '/operation': only } : {}),
		};
		if (Object.keys(roots).length === 0) return option;
		return {
			...option,
			displayOptions: {
				...option.displayOptions,
				show: { ...option.displayOptions?.show, ...roots },
			},
		};
	});
}

/**
 * One property for what several resources define under one name (Additional Fields of every Create, Filters of every
 * Get Many, Return All), shown for all of them, each collection field only where its own copy showed. That is speed:
 * n8n's RoutingNode evaluates a parameter's value once per property of its name (twice on n8n 2.x) for every item,
 * shown or not, so nine copies of Additional Fields are nine evaluations of the user's expressions where one would do.
 * Copies become one only where the merged conditions (resources × operations) show it for no operation that had none,
 * and every operation keeps the properties it shows in the order its files give.
 */
export function mergeAcrossResources(
	properties: INodeProperties[],
	operationsOf: Record<string, string[]>,
): INodeProperties[] {
	const groups = new Map<string, Placed[]>();
	for (const property of properties) {
		const place = placeOf(property);
		if (!place) continue;
		const key = `${property.name}\n${frameOf(property)}`;
		groups.set(key, [...(groups.get(key) ?? []), place]);
	}
	const replaced = new Map<INodeProperties, INodeProperties>();
	const merge = (copies: Placed[]) => {
		const resources = [...new Set(copies.map((copy) => copy.resource))];
		const operations = [...new Set(copies.flatMap((copy) => copy.operations))];
		// Copies are grouped by their frame: alike but for where they show and, for a collection, its fields.
		const collection = copies[0].property.type === 'collection';
		const first = copies[0].property;
		const merged: INodeProperties = {
			...first,
			displayOptions: {
				...first.displayOptions,
				show: { ...first.displayOptions!.show, resource: resources, operation: operations },
			},
			...(collection ? { options: mergedFields(copies, operations, operationsOf) } : {}),
		};
		for (const copy of copies) replaced.set(copy.property, merged);
	};
	for (const copies of groups.values()) {
		if (copies.length < 2) continue;
		if (exactlyWhereTheyShowed(copies, operationsOf)) {
			merge(copies);
			continue;
		}
		// Not exact (Options of some operations of each resource): the copies shown for the same operations are.
		const byOperations = new Map<string, Placed[]>();
		for (const copy of copies) {
			const key = JSON.stringify(copy.operations);
			byOperations.set(key, [...(byOperations.get(key) ?? []), copy]);
		}
		for (const alike of byOperations.values())
			if (alike.length > 1 && exactlyWhereTheyShowed(alike, operationsOf)) merge(alike);
	}
	const nodes = [...new Set(properties.map((property) => replaced.get(property) ?? property))];
	const chains = Object.entries(operationsOf).flatMap(([resource, operations]) =>
		operations.map((operation) =>
			properties
				.filter((property) => shownFor(property, resource, operation))
				.map((property) => replaced.get(property) ?? property),
		),
	);
	return orderKeeping(nodes, chains, (property) => property.name);
}

/** Whether copies shown for their resources × their operations show for no operation of those where none showed. */
function exactlyWhereTheyShowed(copies: Placed[], operationsOf: Record<string, string[]>): boolean {
	const resources = new Set(copies.map((copy) => copy.resource));
	const operations = new Set(copies.flatMap((copy) => copy.operations));
	return [...resources].every((resource) =>
		[...operations]
			.filter((operation) => operationsOf[resource]?.includes(operation))
			.every((operation) =>
				copies.some((copy) => copy.resource === resource && copy.operations.includes(operation)),
			),
	);
}
