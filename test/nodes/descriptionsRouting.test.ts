/**
 * The descriptions against the transport hook. Every request of the Stora node runs through
 * `requestOperations.pagination` (transport/execute.ts), so RoutingNode's response handling never runs: a description
 * that relies on it would silently do nothing. These tests walk every property of both nodes, nested collections and
 * options included, and fail on such a routing feature; they also check what the descriptions promise each other
 * (URLs name parameters that exist and are checked there, list methods exist and are used, Simplify knows what to keep).
 * The order the editor shows properties in is checked in descriptionsLayout.test.ts.
 */
import type {
	INodeProperties,
	INodePropertyCollection,
	INodePropertyOptions,
	INodeTypeDescription,
} from 'n8n-workflow';

import { fillRecordIds, urlParameters } from '../../nodes/Stora/descriptions/common/records';
import { Stora } from '../../nodes/Stora/Stora.node';
import { StoraTrigger } from '../../nodes/StoraTrigger/StoraTrigger.node';
import { SIMPLIFIED_FIELDS } from '../../nodes/Stora/helpers/output';
import { shownFor } from '../../nodes/Stora/helpers/shownFor';
import { deferredCheck } from '../../nodes/Stora/helpers/validation';
import { sendOperation } from '../../nodes/Stora/transport/execute';

type Entry = INodeProperties | INodePropertyOptions | INodePropertyCollection;

/** Every property, option and fixedCollection group below `properties`, each with a readable path. */
function walk(properties: readonly Entry[], path = ''): Array<{ path: string; entry: Entry }> {
	return properties.flatMap((entry) => {
		const here = `${path}/${'value' in entry ? String(entry.value) : entry.name}`;
		const children: Entry[] = [
			...((('options' in entry ? entry.options : undefined) ?? []) as Entry[]),
			...((('values' in entry ? entry.values : undefined) ?? []) as Entry[]),
		];
		return [{ path: here, entry }, ...walk(children, here)];
	});
}

/** Every key anywhere inside an object (functions are leaves). */
function deepKeys(value: unknown): string[] {
	if (!value || typeof value !== 'object') return [];
	return Object.entries(value).flatMap(([key, child]) => [key, ...deepKeys(child)]);
}

/**
 * Routing features the hook bypasses. `send.paginate` is allowed on the Resource parameter only: that is the switch
 * that sends every request through the hook.
 */
function bypassedRouting(
	description: Pick<INodeTypeDescription, 'properties' | 'requestDefaults'>,
): string[] {
	const found: string[] = [];
	const defaults = (description.requestDefaults ?? {}) as Record<string, unknown>;
	for (const key of ['ignoreHttpStatusErrors', 'returnFullResponse', 'maxResults']) {
		if (key in defaults) found.push(`requestDefaults.${key}`);
	}
	for (const { path, entry } of walk(description.properties)) {
		const routing = (entry as { routing?: Record<string, Record<string, unknown> | undefined> })
			.routing;
		if (!routing) continue;
		if (routing.output !== undefined) found.push(`${path}: routing.output`);
		if (routing.operations !== undefined) found.push(`${path}: routing.operations`);
		for (const key of ['ignoreHttpStatusErrors', 'returnFullResponse', 'maxResults']) {
			if (routing.request && key in routing.request) found.push(`${path}: routing.request.${key}`);
		}
		if (routing.send && 'paginate' in routing.send && path !== '/resource')
			found.push(`${path}: routing.send.paginate`);
		for (const key of deepKeys(routing)) {
			if (['postReceive', 'maxResults', 'pagination'].includes(key))
				found.push(`${path}: routing ${key}`);
		}
	}
	return found;
}

/**
 * Where the Idempotency Key shows wrongly: it belongs to exactly the operations that POST, resource by resource. It is
 * added by operation value (`withIdempotencyKey` in descriptions/index.ts), so an Options collection that does not name
 * its resource would show it for the same operation value in every resource, POST or not.
 */
function idempotencyKeyProblems(properties: INodeProperties[]): string[] {
	const problems: string[] = [];
	const showsKey = (property: INodeProperties) => (resource: string, operation: string) =>
		((property.options ?? []) as Entry[]).some(
			(option) =>
				'name' in option &&
				option.name === 'idempotencyKey' &&
				shownFor(option as INodeProperties, resource, operation),
		);
	for (const operation of properties.filter((property) => property.name === 'operation')) {
		const resource = String(operation.displayOptions?.show?.resource?.[0]);
		for (const option of (operation.options ?? []) as INodePropertyOptions[]) {
			const method = option.routing?.request?.method ?? 'GET';
			const shown = properties.filter((property) => {
				const show = property.displayOptions?.show;
				const resources = show?.resource as string[] | undefined;
				const operations = show?.operation as string[] | undefined;
				return (
					showsKey(property)(resource, option.value as string) &&
					(!resources || resources.includes(resource)) &&
					(!operations || operations.includes(option.value as string))
				);
			}).length;
			const expected = method === 'POST' ? 1 : 0;
			if (shown !== expected) {
				problems.push(
					`${resource} → ${String(option.value)} (${method}): Idempotency Key shown ${shown} times, expected ${expected}. Give every Options collection its resource (updateDisplayOptions({ show: { resource, operation } }) in the operation file): withIdempotencyKey adds the key by operation value, which may POST in one resource and not in another.`,
				);
			}
		}
	}
	return problems;
}

describe('Node descriptions', () => {
	const stora = new Stora().description;
	const trigger = new StoraTrigger().description;

	it('use no routing feature the transport hook bypasses', () => {
		expect(bypassedRouting(stora)).toEqual([]);
		expect(bypassedRouting(trigger)).toEqual([]);
	});

	it('would catch one, wherever it is nested', () => {
		const nested: INodeProperties = {
			displayName: 'Filters',
			name: 'filters',
			type: 'collection',
			default: {},
			options: [
				{
					displayName: 'Rows',
					name: 'rows',
					type: 'fixedCollection',
					default: {},
					options: [
						{
							displayName: 'Row',
							name: 'row',
							values: [
								{
									displayName: 'Value',
									name: 'value',
									type: 'string',
									default: '',
									routing: {
										output: {
											postReceive: [{ type: 'rootProperty', properties: { property: 'x' } }],
										},
									},
								},
							],
						},
					],
				},
			],
		};
		const operation: INodeProperties = {
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			default: 'get',
			options: [
				{
					name: 'Get',
					value: 'get',
					routing: { send: { paginate: true }, output: { maxResults: 5 } },
				},
			],
		};
		expect(
			bypassedRouting({
				properties: [...stora.properties, nested, operation],
				requestDefaults: { ...stora.requestDefaults, ignoreHttpStatusErrors: true },
			}),
		).toEqual([
			'requestDefaults.ignoreHttpStatusErrors',
			'/filters/rows/row/value: routing.output',
			'/filters/rows/row/value: routing postReceive',
			'/operation/get: routing.output',
			'/operation/get: routing.send.paginate',
			'/operation/get: routing maxResults',
		]);
	});

	it('send every request of the Stora node through the hook', () => {
		expect(stora.requestOperations).toEqual({ pagination: sendOperation });
		const resource = stora.properties.find((property) => property.name === 'resource');
		expect(resource?.routing?.send?.paginate).toBe(true);
		expect(resource?.displayOptions).toBeUndefined();
	});

	it('name in each URL a record parameter that the operation shows, read only there (no expression, no routing)', () => {
		const resource = stora.properties.find((property) => property.name === 'resource');
		expect(resource?.routing?.send?.preSend?.map(deferredCheck)).toContain(fillRecordIds);
		const operations = stora.properties.filter((property) => property.name === 'operation');
		let urls = 0;
		const problems: string[] = [];
		for (const operation of operations) {
			const resource = operation.displayOptions?.show?.resource?.[0] as string;
			for (const option of (operation.options ?? []) as INodePropertyOptions[]) {
				const url = String(option.routing?.request?.url ?? '');
				// An expression here would make n8n evaluate the parameter once more per item.
				if (url.startsWith('='))
					problems.push(
						`${resource} → ${option.value}: the URL ${url} is an expression; write it as fixed text naming the parameter in braces`,
					);
				for (const name of urlParameters(url)) {
					urls++;
					const shown = stora.properties.filter(
						(property) =>
							property.name === name &&
							property.displayOptions?.show?.resource?.includes(resource) &&
							property.displayOptions?.show?.operation?.includes(option.value),
					);
					if (shown.length !== 1) {
						problems.push(
							`${resource} → ${option.value}: the URL names {${name}}, which the operation shows ${shown.length} times; ` +
								'spread the operation file\'s description into its <Resource>.resource.ts and define the parameter once there (docs/ARCHITECTURE.md, "How to add", steps 1 and 2)',
						);
					} else if (shown[0].routing) {
						problems.push(
							`${resource} → ${option.value}: {${name}} has routing of its own; a URL parameter is read only by fillRecordIds, so remove its routing`,
						);
					}
				}
			}
		}
		expect(problems).toEqual([]);
		expect(urls).toBeGreaterThan(40);
	});

	it('show Idempotency Key for exactly the operations that POST, resource by resource', () => {
		expect(idempotencyKeyProblems(stora.properties)).toEqual([]);
		// A collection that forgets its resource shows the key wherever the operation value is used, here a GET.
		const withKey = stora.properties.find(
			(property) =>
				property.name === 'options' &&
				property.displayOptions?.show?.resource?.includes('contact') &&
				property.displayOptions?.show?.operation?.includes('create'),
		) as INodeProperties;
		const unscoped = { ...withKey, displayOptions: { show: { operation: ['create'] } } };
		const getCreate: INodeProperties = {
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			default: 'create',
			displayOptions: { show: { resource: ['report'] } },
			options: [
				{
					name: 'Create',
					value: 'create',
					routing: { request: { method: 'GET', url: '/reports' } },
				},
			],
		};
		expect(idempotencyKeyProblems([getCreate, unscoped])).toEqual([
			expect.stringMatching(
				/^report → create \(GET\): Idempotency Key shown 1 times, expected 0\. Give every Options collection its resource/,
			),
		]);
	});

	it("read no $credentials in routing (n8n 1.x evaluates an option's routing with only $value and $version)", () => {
		const readers = walk([...stora.properties, ...trigger.properties])
			.filter(({ entry }) =>
				JSON.stringify((entry as { routing?: unknown }).routing ?? {}).includes('$credentials'),
			)
			.map(({ path }) => path);
		expect(readers).toEqual([]);
	});

	it('read every record field without routing from a URL', () => {
		const inUrls = new Set(
			stora.properties
				.filter((property) => property.name === 'operation')
				.flatMap((operation) => (operation.options ?? []) as INodePropertyOptions[])
				.flatMap((option) => urlParameters(String(option.routing?.request?.url ?? ''))),
		);
		const recordFields = stora.properties.filter(
			(property) =>
				property.type === 'resourceLocator' ||
				(property.type === 'options' && property.typeOptions?.loadOptionsMethod),
		);
		expect(recordFields.length).toBeGreaterThan(30);
		for (const property of recordFields.filter((field) => field.routing === undefined)) {
			expect({ name: property.name, inUrl: inUrls.has(property.name) }).toEqual({
				name: property.name,
				inUrl: true,
			});
		}
	});

	it('define each top-level record parameter once (n8n evaluates every namesake per item)', () => {
		const shownFor = new Map<string, string[]>();
		for (const property of stora.properties) {
			if (
				property.type !== 'resourceLocator' &&
				!(property.type === 'options' && property.typeOptions?.loadOptionsMethod)
			)
				continue;
			const show = property.displayOptions?.show ?? {};
			shownFor.set(property.name, [
				...(shownFor.get(property.name) ?? []),
				`${show.resource}: ${show.operation}`,
			]);
		}
		expect(shownFor.size).toBeGreaterThan(30);
		expect([...shownFor].filter(([, places]) => places.length > 1)).toEqual([]);
	});

	it('check every ID list filter before any request, under one parameter name per record', () => {
		const filters = walk(stora.properties).filter(({ path }) => /^\/filters\/\w+Ids$/.test(path));
		expect(filters.length).toBeGreaterThan(20);
		for (const { path, entry } of filters) {
			const property = entry as INodeProperties;
			// Two checks: the value given (filters.ts, every filter) and the IDs' prefixes.
			expect({ path, preSend: property.routing?.send?.preSend?.length }).toEqual({
				path,
				preSend: 2,
			});
		}
		// One dialect: no singular ID filter left anywhere.
		expect(walk(stora.properties).filter(({ path }) => /^\/filters\/\w+Id$/.test(path))).toEqual(
			[],
		);
	});

	it('offer Simplify only where the output knows what it keeps', () => {
		const resources = stora.properties
			.filter((property) => property.name === 'simplify')
			.flatMap((property) => property.displayOptions?.show?.resource ?? []);
		expect(resources.length).toBeGreaterThan(0);
		for (const resource of resources) expect(Object.keys(SIMPLIFIED_FIELDS)).toContain(resource);
	});

	it('use every list method of the node, and only those that exist', () => {
		const { listSearch = {}, loadOptions = {} } = new Stora().methods;
		const used = { listSearch: new Set<string>(), loadOptions: new Set<string>() };
		for (const { entry } of walk(stora.properties)) {
			const property = entry as INodeProperties;
			const method = property.typeOptions?.loadOptionsMethod;
			if (method) used.loadOptions.add(method);
			for (const mode of property.modes ?? []) {
				const search = mode.typeOptions?.searchListMethod;
				if (search) used.listSearch.add(search);
			}
		}
		expect([...used.loadOptions].sort()).toEqual(Object.keys(loadOptions).sort());
		expect([...used.listSearch].sort()).toEqual(Object.keys(listSearch).sort());
	});
});
