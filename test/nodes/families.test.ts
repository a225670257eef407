/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test under test/, never published */
/**
 * The family map (nodes/Stora/helpers/families.ts) says where each resource's code and tests go: its list search in
 * methods/listSearch/<family>.ts, its node tests in test/nodes/<family><Resources>.test.ts and its sandbox routes in
 * sandbox/resources/<family>/. A resource out of its place fails here, naming the file to move and where.
 */
import fs from 'node:fs';
import path from 'node:path';

import { resources } from '../../nodes/Stora/descriptions/index';
import { FAMILIES, FAMILY_OF_RESOURCE, type Family } from '../../nodes/Stora/helpers/families';
import { RECORDS, recordOf, type RecordKind } from '../../nodes/Stora/helpers/records';
import { nodeOperations, sameRoute } from '../helpers/operations';
import { startSandbox } from '../../sandbox';
import type { ResourceModule } from '../../sandbox/core/types';

const ROOT = path.join(__dirname, '../..');
const isFamily = (name: string | undefined): name is Family => FAMILIES.includes(name as Family);
const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

describe('Families: where each resource goes', () => {
	it('gives every resource of the node a family, and only those', () => {
		expect(Object.keys(FAMILY_OF_RESOURCE).sort()).toEqual(Object.keys(resources).sort());
	});

	it("keeps each resource's list search in methods/listSearch/<family>.ts", async () => {
		const dir = path.join(ROOT, 'nodes/Stora/methods/listSearch');
		const problems: string[] = [];
		const fileOf = new Map<string, string>();
		for (const file of fs.readdirSync(dir).filter((name) => !['index.ts', 'searchList.ts'].includes(name))) {
			if (!isFamily(file.replace(/\.ts$/, ''))) problems.push(`methods/listSearch/${file} is named for no family (${FAMILIES.join(', ')})`);
			for (const name of Object.keys(await import(path.join(dir, file)))) fileOf.set(name, file);
		}
		for (const kind of Object.keys(RECORDS) as RecordKind[]) {
			const method = recordOf(kind).searchListMethod;
			if (!method) continue;
			const family = FAMILY_OF_RESOURCE[kind];
			const file = fileOf.get(method);
			if (!family) problems.push(`${kind} has a list search (${method}) but no family in helpers/families.ts`);
			else if (!file) problems.push(`${method} (${kind}) is in no file of methods/listSearch/: write it in ${family}.ts`);
			else if (file !== `${family}.ts`) {
				problems.push(`${method} lists ${kind} (${family}): move it from methods/listSearch/${file} to methods/listSearch/${family}.ts`);
			}
		}
		expect(problems).toEqual([]);
		expect(fileOf.size).toBeGreaterThan(15);
	});

	it('runs each resource in a test/nodes/<family><Resources>.test.ts', () => {
		const dir = path.join(ROOT, 'test/nodes');
		const named = new RegExp(`^(${FAMILIES.join('|')})([A-Z]\\w*)?\\.test\\.ts$`);
		// How often each test file runs each resource (`resource: 'site'`).
		const files = fs
			.readdirSync(dir)
			.filter((file) => file.endsWith('.test.ts'))
			.map((file) => {
				const runs = new Map<string, number>();
				for (const [, resource] of fs.readFileSync(path.join(dir, file), 'utf8').matchAll(/\bresource: '(\w+)'/g)) {
					runs.set(resource, (runs.get(resource) ?? 0) + 1);
				}
				return { file, family: named.exec(file)?.[1], runs };
			});
		/** The file of `among` that runs `resource` most. */
		const mostRunning = (resource: string, among: typeof files) =>
			among.filter((entry) => entry.runs.has(resource)).sort((a, b) => b.runs.get(resource)! - a.runs.get(resource)!)[0];
		const problems: string[] = [];
		for (const [resource, family] of Object.entries(FAMILY_OF_RESOURCE)) {
			const home = mostRunning(resource, files.filter((entry) => entry.family));
			const anywhere = mostRunning(resource, files);
			if (!anywhere) problems.push(`${resource} (${family}) is run by no test: write test/nodes/${family}${capitalized(resource)}s.test.ts`);
			else if (!home) {
				problems.push(
					`${resource} (${family}) is run in no test/nodes/${family}*.test.ts: move test/nodes/${anywhere.file} to test/nodes/${family}${capitalized(anywhere.file)}`,
				);
			} else if (home.family !== family) {
				problems.push(
					`${resource} (${family}) is tested in test/nodes/${home.file}: move it to test/nodes/${family}${home.file.slice(home.family!.length)}`,
				);
			}
		}
		expect(problems).toEqual([]);
	});

	it("serves each resource's routes from sandbox/resources/<family>/", async () => {
		const dir = path.join(ROOT, 'sandbox/resources');
		const problems: string[] = [];
		for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
			if (entry.isDirectory() && !isFamily(entry.name)) problems.push(`sandbox/resources/${entry.name}/ is named for no family`);
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
		const own = new Set((await routesWith([])).map(({ method, pattern }) => `${method} ${pattern}`));
		const served: Array<{ file: string; method: string; pattern: string }> = [];
		for (const file of fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.ts'))) {
			const modules = Object.values(await import(path.join(dir, file))).filter(
				(value): value is ResourceModule => typeof (value as Partial<ResourceModule> | null)?.register === 'function',
			);
			if (!modules.length) continue;
			for (const route of await routesWith(modules)) {
				if (!own.has(`${route.method} ${route.pattern}`)) served.push({ file: file.split(path.sep).join('/'), ...route });
			}
		}
		for (const { resource, method, path: apiPath } of nodeOperations()) {
			const route = apiPath && served.find((candidate) => candidate.method === method && sameRoute(candidate.pattern, apiPath));
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
