/**
 * The probe's table of lists (scripts/probe/lists.mjs) is what the node sends and what the docs list. It
 * must name every Get Many of the built node with its URL, Filters, Sort By and Expand values, page by number only
 * where helpers/resources.ts says so, ask for the read scope the sandbox's route requires, and call documented exactly
 * the parameters sandbox/core/documented.ts lists. A filter added to the node without the probe fails here.
 */
import type { INodeProperties } from 'n8n-workflow';

import { resourceFacts } from '../../nodes/Stora/helpers/resources';
import { shownFor } from '../../nodes/Stora/helpers/shownFor';
import { Stora } from '../../nodes/Stora/Stora.node';
import { DOCUMENTED } from '../../sandbox/core/documented';
import { startSandbox } from '../../sandbox/index';
import { probeTable } from './probeRun';

interface GetMany {
	url?: string;
	filters: string[];
	sortBy: string[];
	expand?: string[] | null;
}

/** Each resource's Get Many as the built description sends it. */
function getManys(): Map<string, GetMany> {
	const found = new Map<string, GetMany>();
	const entry = (resource: string) => {
		if (!found.has(resource)) found.set(resource, { filters: [], sortBy: [] });
		return found.get(resource)!;
	};
	for (const property of new Stora().description.properties) {
		const show = property.displayOptions?.show ?? {};
		const resources = (show.resource ?? []) as string[];
		if (property.name === 'operation') {
			for (const option of (property.options ?? []) as Array<{
				value: string;
				routing?: { request?: { url?: string } };
			}>) {
				if (option.value === 'getAll')
					for (const resource of resources) entry(resource).url = option.routing?.request?.url;
			}
			continue;
		}
		if (!((show.operation ?? []) as string[]).includes('getAll') || property.type !== 'collection')
			continue;
		for (const option of (property.options ?? []) as INodeProperties[]) {
			const sent =
				option.name === 'metadata' ? 'metadata[]' : String(option.routing?.send?.property ?? '');
			const values = ((option.options ?? []) as Array<{ value: string }>).map(
				(choice) => choice.value,
			);
			for (const resource of resources) {
				if (!shownFor(option, resource, 'getAll')) continue;
				if (property.name === 'filters') entry(resource).filters.push(sent);
				else if (sent === 'sort_by') entry(resource).sortBy = values;
				else if (sent === 'expand') entry(resource).expand = values.length ? values : null;
			}
		}
	}
	return found;
}

describe("the probe's table of lists", () => {
	const table = probeTable();
	const node = getManys();

	it('has every Get Many of the node, no other, with its URL', () => {
		expect(table.map((list) => list.resource).sort()).toEqual(
			[...node.keys()].filter((resource) => node.get(resource)!.url).sort(),
		);
		for (const list of table)
			expect([list.resource, `/${list.path}`]).toEqual([
				list.resource,
				node.get(list.resource)!.url,
			]);
	});

	it("holds each Get Many's Filters, Sort By and Expand values", () => {
		for (const list of table) {
			const sent = node.get(list.resource)!;
			expect({
				resource: list.resource,
				filters: [...list.filters].sort(),
				sortBy: [...list.sortBy].sort(),
				expand: list.expand,
			}).toEqual({
				resource: list.resource,
				filters: [...sent.filters].sort(),
				sortBy: [...sent.sortBy].sort(),
				expand: sent.expand === null ? null : sent.expand?.slice().sort(),
			});
		}
	});

	it("asks about Return All's and the poll's cursor only where the node sends it", () => {
		for (const list of table) {
			const byNumber = resourceFacts(list.resource)?.listWithoutTimeFilters === true;
			expect([list.path, list.cursor === false]).toEqual([list.path, byNumber]);
			expect([list.path, list.parameters.includes('created_after')]).toEqual([
				list.path,
				!byNumber || list.filters.includes('created_after'),
			]);
			for (const parameter of ['limit', 'page', 'sort_by', 'sort_direction', ...list.filters])
				expect(list.parameters).toContain(parameter);
		}
	});

	it('calls documented exactly what sandbox/core/documented.ts lists for the endpoint', () => {
		for (const list of table) {
			expect([list.path, [...list.documented].sort()]).toEqual([
				list.path,
				[...DOCUMENTED[`GET /2025-09/${list.path}`].query].sort(),
			]);
		}
	});

	it("asks for the read scope each list's route requires", async () => {
		const sandbox = await startSandbox({ seed: 'empty' });
		try {
			for (const list of table) {
				const route = sandbox.core.router.match('GET', `/2025-09/${list.path}`)!.route;
				expect([list.path, route.options.scopes]).toEqual([list.path, [list.scope]]);
			}
		} finally {
			await sandbox.close();
		}
	});
});
