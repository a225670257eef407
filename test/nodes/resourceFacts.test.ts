/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test under test/, never published */
/**
 * Each resource's row of RESOURCES (nodes/Stora/helpers/resources.ts) holds its runtime facts in one place; this suite
 * holds each fact to what it describes: the output schemas n8n's editor previews (made from the sandbox's answers),
 * the node's descriptions and its codex. A row that says what the records or the descriptions do not fails here.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { resourceOptions, resources } from '../../nodes/Stora/descriptions/index';
import { RESOURCES, type ResourceFacts } from '../../nodes/Stora/helpers/resources';

const ROOT = path.join(__dirname, '../..');
const SCHEMAS = path.join(ROOT, 'nodes/Stora/__schema__/v1.0.0');
const rows = Object.entries(RESOURCES as Record<string, ResourceFacts>);

interface Schema {
	type?: string;
	properties?: Record<string, Schema>;
	items?: Schema;
}

/** Every output schema of a resource's operations. */
const schemasOf = (resource: string): Schema[] => {
	const dir = path.join(SCHEMAS, resource);
	if (!fs.existsSync(dir)) return [];
	return fs.readdirSync(dir).map((file) => JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as Schema);
};

/** The record's own schema: a Get Many answer's items, or the answer itself. */
const recordSchema = (schema: Schema): Schema => (schema.type === 'array' && schema.items ? schema.items : schema);

/** Whether a money object (`{ amount, currency, formatted }`) sits anywhere in the schema. */
function carriesMoney(schema: Schema | undefined): boolean {
	if (!schema) return false;
	const keys = Object.keys(schema.properties ?? {});
	if (['amount', 'currency', 'formatted'].every((key) => keys.includes(key))) return true;
	return Object.values(schema.properties ?? {}).some(carriesMoney) || carriesMoney(schema.items);
}

const operationsOf = (resource: string) =>
	(resources[resource].description.find((property) => property.name === 'operation')?.options ?? []) as INodePropertyOptions[];

describe("Resources: each resource's runtime facts in its row", () => {
	it('has a row for every resource of the node, and only those', () => {
		expect(Object.keys(RESOURCES).sort()).toEqual(Object.keys(resources).sort());
	});

	it('keeps in Simplify only fields the records carry', () => {
		const problems: string[] = [];
		for (const [resource, facts] of rows) {
			if (!facts.simplify) continue;
			const fields = new Set(schemasOf(resource).flatMap((schema) => Object.keys(recordSchema(schema).properties ?? {})));
			for (const field of facts.simplify) if (!fields.has(field)) problems.push(`${resource}: Simplify keeps ${field}, which no output schema shows`);
		}
		expect(problems).toEqual([]);
	});

	it('says money where, and only where, the records carry { amount, currency, formatted }', () => {
		const withMoney = rows.filter(([resource]) => schemasOf(resource).some(carriesMoney)).map(([resource]) => resource);
		const said = rows.filter(([, facts]) => facts.money).map(([resource]) => resource);
		expect(said.sort()).toEqual(withMoney.sort());
		expect(said.length).toBeGreaterThan(5);
	});

	it('pages a list by number without a cursor only where its Get Many offers no time filter', () => {
		const problems: string[] = [];
		for (const [resource, facts] of rows) {
			const getMany = operationsOf(resource).some((option) => option.value === 'getAll');
			const filters = resources[resource].description
				.filter((property) => property.displayOptions?.show?.operation?.includes('getAll'))
				.flatMap((property) => (property.options ?? []) as INodeProperties[])
				.map((option) => option.name);
			const timeFilters = filters.some((name) => /^(created|updated)After$/.test(name));
			if (facts.listWithoutTimeFilters && (!getMany || timeFilters)) problems.push(`${resource}: listWithoutTimeFilters, but its Get Many ${getMany ? 'offers a time filter' : 'does not exist'}`);
		}
		expect(problems).toEqual([]);
		expect(rows.filter(([, facts]) => facts.listWithoutTimeFilters).length).toBeGreaterThan(0);
	});

	it('says which timestamps the records lack where, and only where, their Get Many schema shows none', () => {
		const problems: string[] = [];
		let checked = 0;
		for (const [resource, facts] of rows) {
			const file = path.join(SCHEMAS, resource, 'getAll.json');
			if (!fs.existsSync(file)) continue;
			checked++;
			const fields = Object.keys(recordSchema(JSON.parse(fs.readFileSync(file, 'utf8')) as Schema).properties ?? {});
			for (const field of ['created_at', 'updated_at'] as const) {
				const lacks = !fields.includes(field);
				if (lacks !== Boolean(facts.withoutTimes?.includes(field))) problems.push(`${resource}: ${field} ${lacks ? 'missing from its records, not in withoutTimes' : 'on its records, yet in withoutTimes'}`);
			}
		}
		expect(problems).toEqual([]);
		expect(checked).toBeGreaterThan(20);
	});

	it('notes tool answers only for operations the resource has', () => {
		const problems = rows.flatMap(([resource, facts]) =>
			Object.keys(facts.toolNotes ?? {})
				.filter((operation) => !operationsOf(resource).some((option) => option.value === operation))
				.map((operation) => `${resource}.${operation}`),
		);
		expect(problems).toEqual([]);
	});

	it("names every resource in the codex's aliases, so n8n's node search finds \"Stora <resource>\"", () => {
		const codex = JSON.parse(fs.readFileSync(path.join(ROOT, 'nodes/Stora/Stora.node.json'), 'utf8')) as { alias: string[] };
		const named = resourceOptions.map((option) => `Stora ${option.name}`);
		expect(codex.alias.filter((alias) => alias.startsWith('Stora ')).sort()).toEqual(named.sort());
	});
});
