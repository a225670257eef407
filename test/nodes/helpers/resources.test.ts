/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test under test/, never published */
/**
 * Each resource's row of RESOURCES (nodes/Stora/helpers/resources.ts) holds its runtime facts in one place; this suite
 * holds each fact to what it describes: the output schemas n8n's editor previews (made from the sandbox's answers),
 * the node's descriptions and its codex. A row that says what the records or the descriptions do not fails here.
 *
 * Each resource's family (in its row) says where its code and tests go: its list search in
 * methods/listSearch/<family>.ts, its node tests in test/nodes/resources/<resource>.test.ts (named for the resource
 * itself, which runs it more than any other file does) and its sandbox routes in sandbox/resources/<family>/. A
 * resource out of its place fails here, naming the file to write or move and where.
 */
import fs from 'node:fs';
import path from 'node:path';

import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { resourceOptions, resources } from '../../../nodes/Stora/descriptions/index';
import {
	FAMILIES,
	RESOURCES,
	type Family,
	type ResourceFacts,
} from '../../../nodes/Stora/helpers/resources';
import { RECORDS, recordOf, type RecordKind } from '../../../nodes/Stora/helpers/records';
import { startSandbox } from '../../../sandbox';
import type { ResourceModule } from '../../../sandbox/core/types';
import { nodeOperations, sameRoute } from '../../helpers/operations';

const ROOT = path.join(__dirname, '../../..');
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
	return fs
		.readdirSync(dir)
		.map((file) => JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as Schema);
};

/** The record's own schema: a Get Many answer's items, or the answer itself. */
const recordSchema = (schema: Schema): Schema =>
	schema.type === 'array' && schema.items ? schema.items : schema;

/** Whether a money object (`{ amount, currency, formatted }`) sits anywhere in the schema. */
function carriesMoney(schema: Schema | undefined): boolean {
	if (!schema) return false;
	const keys = Object.keys(schema.properties ?? {});
	if (['amount', 'currency', 'formatted'].every((key) => keys.includes(key))) return true;
	return Object.values(schema.properties ?? {}).some(carriesMoney) || carriesMoney(schema.items);
}

const operationsOf = (resource: string) =>
	(resources[resource].description.find((property) => property.name === 'operation')?.options ??
		[]) as INodePropertyOptions[];

describe("Resources: each resource's runtime facts in its row", () => {
	it('has a row for every resource of the node, and only those', () => {
		expect(Object.keys(RESOURCES).sort()).toEqual(Object.keys(resources).sort());
	});

	it('keeps in Simplify only fields the records carry', () => {
		const problems: string[] = [];
		for (const [resource, facts] of rows) {
			if (!facts.simplify) continue;
			const fields = new Set(
				schemasOf(resource).flatMap((schema) => Object.keys(recordSchema(schema).properties ?? {})),
			);
			for (const field of facts.simplify)
				if (!fields.has(field))
					problems.push(`${resource}: Simplify keeps ${field}, which no output schema shows`);
		}
		expect(problems).toEqual([]);
	});

	it('says money where, and only where, the records carry { amount, currency, formatted }', () => {
		const withMoney = rows
			.filter(([resource]) => schemasOf(resource).some(carriesMoney))
			.map(([resource]) => resource);
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
			if (facts.listWithoutTimeFilters && (!getMany || timeFilters))
				problems.push(
					`${resource}: listWithoutTimeFilters, but its Get Many ${getMany ? 'offers a time filter' : 'does not exist'}`,
				);
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
			const fields = Object.keys(
				recordSchema(JSON.parse(fs.readFileSync(file, 'utf8')) as Schema).properties ?? {},
			);
			for (const field of ['created_at', 'updated_at'] as const) {
				const lacks = !fields.includes(field);
				if (lacks !== Boolean(facts.withoutTimes?.includes(field)))
					problems.push(
						`${resource}: ${field} ${lacks ? 'missing from its records, not in withoutTimes' : 'on its records, yet in withoutTimes'}`,
					);
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

	it('names every resource in the codex\'s aliases, so n8n\'s node search finds "Stora <resource>"', () => {
		const codex = JSON.parse(
			fs.readFileSync(path.join(ROOT, 'nodes/Stora/Stora.node.json'), 'utf8'),
		) as { alias: string[] };
		const named = resourceOptions.map((option) => `Stora ${option.name}`);
		expect(codex.alias.filter((alias) => alias.startsWith('Stora ')).sort()).toEqual(named.sort());
	});
});

const FAMILY_OF_RESOURCE: Record<string, Family> = Object.fromEntries(
	Object.entries(RESOURCES).map(([resource, { family }]) => [resource, family]),
);

const isFamily = (name: string | undefined): name is Family => FAMILIES.includes(name as Family);

describe('Families: where each resource goes', () => {
	it('gives every resource of the node a family, and only those', () => {
		expect(Object.keys(FAMILY_OF_RESOURCE).sort()).toEqual(Object.keys(resources).sort());
	});

	it("keeps each resource's list search in methods/listSearch/<family>.ts", async () => {
		const dir = path.join(ROOT, 'nodes/Stora/methods/listSearch');
		const problems: string[] = [];
		const fileOf = new Map<string, string>();
		for (const file of fs
			.readdirSync(dir)
			.filter((name) => !['index.ts', 'searchList.ts'].includes(name))) {
			if (!isFamily(file.replace(/\.ts$/, '')))
				problems.push(`methods/listSearch/${file} is named for no family (${FAMILIES.join(', ')})`);
			for (const name of Object.keys(await import(path.join(dir, file)))) fileOf.set(name, file);
		}
		for (const kind of Object.keys(RECORDS) as RecordKind[]) {
			const method = recordOf(kind).searchListMethod;
			if (!method) continue;
			const family = FAMILY_OF_RESOURCE[kind];
			const file = fileOf.get(method);
			if (!family)
				problems.push(
					`${kind} has a list search (${method}) but no family in its row of helpers/resources.ts`,
				);
			else if (!file)
				problems.push(
					`${method} (${kind}) is in no file of methods/listSearch/: write it in ${family}.ts`,
				);
			else if (file !== `${family}.ts`) {
				problems.push(
					`${method} lists ${kind} (${family}): move it from methods/listSearch/${file} to methods/listSearch/${family}.ts`,
				);
			}
		}
		expect(problems).toEqual([]);
		expect(fileOf.size).toBeGreaterThan(15);
	});

	it('runs each resource in test/nodes/resources/<resource>.test.ts, more than any other file does', () => {
		const dir = path.join(ROOT, 'test/nodes');
		const resourceKeys = Object.keys(FAMILY_OF_RESOURCE);
		const operationsOf = (resource: string) =>
			nodeOperations()
				.filter((entry) => entry.resource === resource)
				.map((entry) => entry.operation);
		// How often each test file under test/nodes runs each resource (`resource: 'site'`), by its path from there.
		const files = fs
			.readdirSync(dir, { recursive: true, encoding: 'utf8' })
			.map((file) => file.split(path.sep).join('/'))
			.filter((file) => file.endsWith('.test.ts'))
			.map((file) => {
				const runs = new Map<string, number>();
				for (const [, resource] of fs
					.readFileSync(path.join(dir, file), 'utf8')
					.matchAll(/\bresource: '(\w+)'/g)) {
					runs.set(resource, (runs.get(resource) ?? 0) + 1);
				}
				return { file, runs };
			});
		const runsOf = (file: string, resource: string) =>
			files.find((entry) => entry.file === file)?.runs.get(resource) ?? 0;
		/** The resource a file runs most, to name the file it belongs in. */
		const mostRun = (runs: Map<string, number>) => [...runs].sort((a, b) => b[1] - a[1])[0]?.[0];
		const problems: string[] = [];

		// Every file in resources/ is named for a resource: <resource>.test.ts, or <resource>.<operation>.test.ts for an
		// operation of a resource whose tests are too many for one file; and it runs that resource more than any other.
		for (const { file, runs } of files.filter((entry) => entry.file.startsWith('resources/'))) {
			const name = /^resources\/(\w+)(?:\.(\w+))?\.test\.ts$/.exec(file);
			const [resource, operation] = [name?.[1] ?? '', name?.[2]];
			const most = mostRun(runs);
			if (!name || !resourceKeys.includes(resource)) {
				problems.push(
					`test/nodes/${file} is named for no resource (the keys of FAMILY_OF_RESOURCE): ` +
						(most
							? `rename it to test/nodes/resources/${most}.test.ts or move its tests there`
							: 'name it for the resource it tests'),
				);
			} else if (operation !== undefined && !operationsOf(resource).includes(operation)) {
				problems.push(
					`test/nodes/${file}: ${operation} is no operation of ${resource} (${operationsOf(resource).join(', ')}); name it for one, or move its tests to test/nodes/resources/${resource}.test.ts`,
				);
			} else if (most && most !== resource && runs.get(most)! >= (runs.get(resource) ?? 0)) {
				problems.push(
					`test/nodes/${file} runs ${most} (${runs.get(most)} times) as much as or more than ${resource} (${runs.get(resource) ?? 0}): move its tests of ${most} to test/nodes/resources/${most}.test.ts`,
				);
			}
		}

		// Every resource has its file, and no other file runs the resource as much as it does.
		for (const resource of resourceKeys) {
			const home = `resources/${resource}.test.ts`;
			const own = runsOf(home, resource);
			const rival = files
				.filter((entry) => entry.file !== home && entry.runs.has(resource))
				.sort((a, b) => b.runs.get(resource)! - a.runs.get(resource)!)[0];
			if (!files.some((entry) => entry.file === home)) {
				problems.push(
					rival
						? `${resource} has no test/nodes/${home}: move its tests from test/nodes/${rival.file} to test/nodes/${home}`
						: `${resource} is run by no test: write test/nodes/${home} (its operations run against the sandbox with runStora, the request sent and the output checked)`,
				);
			} else if (own === 0) {
				problems.push(
					`test/nodes/${home} never runs ${resource} (\`resource: '${resource}'\`): write its tests there`,
				);
			} else if (rival && rival.runs.get(resource)! >= own) {
				problems.push(
					`test/nodes/${rival.file} runs ${resource} ${rival.runs.get(resource)} times, test/nodes/${home} ${own}: move the tests of ${resource} from test/nodes/${rival.file} to test/nodes/${home}`,
				);
			}
		}
		expect(problems).toEqual([]);
		expect(
			files.filter((entry) => entry.file.startsWith('resources/')).length,
		).toBeGreaterThanOrEqual(resourceKeys.length);
	});

	it("serves each resource's routes from sandbox/resources/<family>/", async () => {
		const dir = path.join(ROOT, 'sandbox/resources');
		const problems: string[] = [];
		for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
			if (entry.isDirectory() && !isFamily(entry.name))
				problems.push(`sandbox/resources/${entry.name}/ is named for no family`);
		}
		// The routes each file's modules register, as a sandbox with only them has them (beyond its own OAuth routes).
		const routesWith = async (modules: ResourceModule[]) => {
			const sandbox = await startSandbox({ seed: 'empty', modules });
			try {
				return sandbox.core.router.routes.map(({ method, pattern }) => ({ method, pattern }));
			} finally {
				await sandbox.close();
			}
		};
		const own = new Set(
			(await routesWith([])).map(({ method, pattern }) => `${method} ${pattern}`),
		);
		const served: Array<{ file: string; method: string; pattern: string }> = [];
		for (const file of fs
			.readdirSync(dir, { recursive: true, encoding: 'utf8' })
			.filter((name) => name.endsWith('.ts'))) {
			const modules = Object.values(await import(path.join(dir, file))).filter(
				(value): value is ResourceModule =>
					typeof (value as Partial<ResourceModule> | null)?.register === 'function',
			);
			if (!modules.length) continue;
			for (const route of await routesWith(modules)) {
				if (!own.has(`${route.method} ${route.pattern}`))
					served.push({ file: file.split(path.sep).join('/'), ...route });
			}
		}
		for (const { resource, method, path: apiPath } of nodeOperations()) {
			const route =
				apiPath &&
				served.find(
					(candidate) => candidate.method === method && sameRoute(candidate.pattern, apiPath),
				);
			const family = FAMILY_OF_RESOURCE[resource];
			if (!route || route.file.startsWith(`${family}/`)) continue;
			problems.push(
				`${resource} (${family}) is served by sandbox/resources/${route.file}: move it to sandbox/resources/${family}/${path.basename(route.file)}`,
			);
		}
		expect([...new Set(problems)]).toEqual([]);
		expect(served.length).toBeGreaterThan(50);
	});
});
