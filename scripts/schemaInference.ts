/**
 * The schema of one output item, inferred from the items the node returned (the inference half of the output schemas,
 * scripts/outputSchemas.ts; the runs that return the items: scripts/outputRuns.ts).
 */
import type { IDataObject } from 'n8n-workflow';

import { RECORDS } from '../nodes/Stora/helpers/records';

/**
 * A JSON Schema of one output item, in the subset n8n's own `__schema__` files use: `type`, `properties`, `items`,
 * no `required`. A value that may also be null has OpenAPI's `nullable` beside its type instead of a type list,
 * because the editor reads only `type`, `properties` and `items`, and shows nested fields only when `type` is exactly
 * "object" or "array".
 */
export interface JsonSchema {
	type: string | string[];
	nullable?: true;
	properties?: Record<string, JsonSchema>;
	items?: JsonSchema | Record<string, never>;
}

/** The JSON type of a value; numbers are `number`, as whether an amount happens to be whole says nothing of its type. */
export const typeOf = (value: unknown) =>
	value === null
		? 'null'
		: Array.isArray(value)
			? 'array'
			: typeof value === 'object'
				? 'object'
				: typeof value;

/** The records the outputs are made of (their items, as the API and the triggers answer), by kind. */
type Records = Map<string, IDataObject[]>;

/** The record kind of an object by its ID's prefix (`con_`); none for a deletion's `{ deleted, id, message }`. */
const kindOf = (object: IDataObject) =>
	typeof object.id === 'string' && !('deleted' in object)
		? /^[a-z]+_/.exec(object.id)?.[0]
		: undefined;

/**
 * A map whose keys the user chooses (the `metadata` of every record, a timeline event's `variables`): the keys the
 * sandbox's seed happens to hold are no part of the API, so it is an object with no properties.
 */
const isFreeForm = (kind: string | undefined, name: string) =>
	name === 'metadata' || (kind === RECORDS.timelineEvent.prefix && name === 'variables');

const objectsIn = (values: unknown[]) =>
	values.filter((value) => typeOf(value) === 'object') as IDataObject[];

/**
 * The schema of the values in `own` (an output's items, or the values one property had in them): objects merge their
 * properties in the order first seen, arrays the schema of all their elements. `more` (values the same property has
 * in other records of the kind) only widens types, and gives the shape of a value that is null in all of `own`.
 * Objects that are records of one kind draw each property's values from every item of that kind in `records` too, as
 * the API renders a kind one way: a contact created with its email only has a null name, yet Create outputs a name
 * wherever one is given. They keep their own properties: a reference `{ id }` stays one, and only Create returns a
 * webhook endpoint's secret.
 */
export function schemaOf(
	own: unknown[],
	records: Records = new Map(),
	more: unknown[] = [],
): JsonSchema {
	const present = [...own, ...more].filter((value) => value !== undefined);
	const types = [...new Set(present.map(typeOf))];
	const concrete = types.filter((type) => type !== 'null').sort();
	if (concrete.length > 1 && concrete.some((type) => type === 'object' || type === 'array')) {
		const samples = JSON.stringify(present.slice(0, 3)).slice(0, 300);
		throw new Error(
			`A value is sometimes ${concrete.join(', sometimes ')} (${samples}): no schema the editor can show`,
		);
	}
	const schema: JsonSchema = {
		type: concrete.length === 0 ? 'null' : concrete.length === 1 ? concrete[0] : concrete,
	};
	if (concrete.length && types.includes('null')) schema.nullable = true;
	if (schema.type === 'object') {
		const [shape, widen] = objectsIn(own).length
			? [objectsIn(own), objectsIn(more)]
			: [objectsIn(more), []];
		const kinds = new Set(shape.map(kindOf));
		const [kind] = kinds;
		const sameKind = (kinds.size === 1 && kind && records.get(kind)) || [];
		// n8n drops a property whose value is undefined from the item; so does the schema.
		const names = [
			...new Set(
				shape.flatMap((object) => Object.keys(object).filter((name) => object[name] !== undefined)),
			),
		];
		schema.properties = Object.fromEntries(
			names.map((name) => {
				const property = schemaOf(
					shape.map((object) => object[name]),
					records,
					[...widen, ...sameKind].map((object) => object[name]),
				);
				if (isFreeForm(kind, name)) delete property.properties;
				return [name, property];
			}),
		);
	}
	if (schema.type === 'array') {
		const elementsOf = (values: unknown[]) => (values.filter(Array.isArray) as unknown[][]).flat();
		const [shape, widen] = elementsOf(own).length
			? [elementsOf(own), elementsOf(more)]
			: [elementsOf(more), []];
		schema.items = shape.length ? schemaOf(shape, records, widen) : {};
	}
	return schema;
}

/** The schema of each output (by file) from its items, with the items of every output as the records of their kind. */
export function schemasOf(outputs: Map<string, IDataObject[]>): Map<string, JsonSchema> {
	const records: Records = new Map();
	for (const item of [...outputs.values()].flat()) {
		const kind = kindOf(item);
		if (kind) records.set(kind, [...(records.get(kind) ?? []), item]);
	}
	return new Map([...outputs].map(([file, items]) => [file, schemaOf(items, records)]));
}
