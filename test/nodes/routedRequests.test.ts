/**
 * The node's own request builder (transport/route.ts, run by n8n as the node's `customOperations`) against n8n's
 * RoutingNode, on the node's description as n8n loads it (with Settings → Request Options added): for every
 * operation, with only its required parameters and with every parameter, collection member and fixed-collection row
 * set (by expressions wherever n8n takes one: text, numbers, booleans, choices, locators, inside collections and
 * rows), Request Options set and a credential limited to its host, two items each, both must hand the transport hook
 * the same requests (after the preSends) or fail with the same error. The hook is replaced by one that records what it
 * gets, so no request leaves. Also: a filter added to a copy of a Get Many gives the same query from RoutingNode,
 * the builder and the polling trigger (which reads its filters with the builder); every routing expression in the
 * built description is one the builder knows, computing what n8n computes, and a routing feature the builder does not
 * implement fails when the node is made.
 */
import type {
	DeclarativeRestApiSettings,
	IDataObject,
	IExecutePaginationFunctions,
	INodeParameters,
	INodeProperties,
	INodePropertyCollection,
	INodePropertyOptions,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { recordKindOfParameter, RECORDS } from '../../nodes/Stora/helpers/records';
import { ROUTING_VALUE, routingValueOf } from '../../nodes/Stora/helpers/routingValues';
import { Stora } from '../../nodes/Stora/Stora.node';
import { routedOperations } from '../../nodes/Stora/transport/routedOperations';
import { filterQuery, pollFilters } from '../../nodes/StoraPollTrigger/poll';
import { StoraPollTrigger } from '../../nodes/StoraPollTrigger/StoraPollTrigger.node';
import { asLoadedByN8n, runByRoutingNode, runStora, tokenCredentials } from '../helpers/n8n';
import { nodeOperations } from '../helpers/operations';
import { PollHarness } from '../helpers/poll';

const stora = asLoadedByN8n(new Stora());
const properties = stora.description.properties;

interface Seen {
	item: number;
	options: unknown;
	paginate: unknown;
}

/** The Stora node (or a copy of its description) with its hook recording, run by RoutingNode or by its own builder. */
function recordingNode(by: 'RoutingNode' | 'builder', seen: Seen[], base: INodeTypeDescription = stora.description): INodeType {
	const record = async function (this: IExecutePaginationFunctions, data: DeclarativeRestApiSettings.ResultOptions) {
		seen.push({ item: this.getItemIndex(), options: JSON.parse(JSON.stringify(data.options)), paginate: data.paginate });
		return [{ json: { item: this.getItemIndex() } }];
	};
	const description: INodeTypeDescription = { ...base, requestOperations: { pagination: record } };
	if (by === 'builder') return { description, methods: stora.methods, customOperations: routedOperations(description) };
	return runByRoutingNode(description);
}

function shownFor(property: INodeProperties, resource: string, operation: string): boolean {
	const show = property.displayOptions?.show ?? {};
	if (show['@tool']?.includes(true)) return false;
	const resources = show.resource as string[] | undefined;
	const operations = show.operation as string[] | undefined;
	return !!resources?.includes(resource) && (!operations || operations.includes(operation)) && property.name !== 'operation';
}

/**
 * A plausible value for a parameter: IDs with their record's prefix, the first choices, one row per collection;
 * with `expressions`, an expression wherever the parameter takes one.
 */
function valueFor(resource: string, property: INodeProperties, expressions = false): unknown {
	const kind = recordKindOfParameter(resource, property.name);
	const id = kind ? `${RECORDS[kind].prefix}routed1` : 'routed1';
	const choices = ((property.options ?? []) as INodePropertyOptions[]).map((option) => option.value);
	const asExpression = (value: unknown) => (expressions && !property.noDataExpression ? `={{ ${JSON.stringify(value)} }}` : value);
	switch (property.type) {
		case 'resourceLocator':
			return { __rl: true, mode: 'id', value: asExpression(id) };
		case 'string':
			if (kind || /Id$/.test(property.name)) return asExpression(id);
			if (/email/i.test(property.name)) return '={{ "person" + $json.n + "@example.com" }}';
			if (/url/i.test(property.name)) return asExpression('https://example.com/hooks/stora');
			return '={{ "Text " + $json.n }}';
		case 'number':
			return asExpression(Math.max(1, Number(property.typeOptions?.minValue ?? 1)));
		case 'boolean':
			return asExpression(true);
		case 'dateTime':
			return asExpression('2026-01-02T03:04:05Z');
		case 'options':
			return asExpression(choices[0] ?? '');
		case 'multiOptions':
			return choices.slice(0, 2);
		case 'json':
			return '{"routed": 1}';
		case 'collection':
			return Object.fromEntries((property.options as INodeProperties[]).map((member) => [member.name, valueFor(resource, member, expressions)]));
		case 'fixedCollection':
			return Object.fromEntries(
				(property.options as INodePropertyCollection[]).map((rows) => {
					const row = Object.fromEntries(rows.values.map((member) => [member.name, valueFor(resource, member, expressions)]));
					return [rows.name, property.typeOptions?.multipleValues ? [row] : row];
				}),
			);
		default:
			return undefined;
	}
}

/** Settings → Request Options as a user sets them (a proxy with a user, Ignore SSL Issues, a Timeout). */
const REQUEST_OPTIONS = { proxy: 'http://proxy-user:pa%40ss@127.0.0.1:3128', allowUnauthorizedCerts: true, timeout: 4321 };

function parametersFor(resource: string, operation: string, every: boolean): INodeParameters {
	const parameters: INodeParameters = { resource, operation };
	for (const property of properties) {
		if (!shownFor(property, resource, operation) || (!every && !property.required)) continue;
		const value = valueFor(resource, property, every);
		if (value !== undefined) parameters[property.name] = value as INodeParameters[string];
	}
	if (every) parameters.requestOptions = REQUEST_OPTIONS;
	return parameters;
}

async function outcome(by: 'RoutingNode' | 'builder', parameters: INodeParameters) {
	const seen: Seen[] = [];
	const credentials = tokenCredentials('http://127.0.0.1:9', 'sk_test_routed');
	// A credential limited to its own host (n8n's Allowed HTTP Request Domains): RoutingNode puts the list on the request.
	Object.assign(credentials.storaApi, { allowedHttpRequestDomains: 'domains', allowedDomains: '127.0.0.1' });
	const result = await runStora({
		nodeClass: recordingNode(by, seen),
		credentials,
		items: [{ n: 1 }, { n: 2 }],
		parameters,
	});
	const error = result.error ? { message: result.error.message, description: (result.error as { description?: string }).description } : undefined;
	return { seen: seen.sort((a, b) => a.item - b.item), error, items: result.items.map((item) => item.json) };
}

describe('the node’s own request builder against n8n’s RoutingNode', () => {
	const operations = nodeOperations();
	let built = 0;

	it.each(operations.flatMap(({ resource, operation }) => [
		[resource, operation, 'required only'],
		[resource, operation, 'every parameter'],
	]))('%s → %s, %s: the same requests or the same error', async (resource, operation, variant) => {
		const parameters = parametersFor(resource, operation, variant === 'every parameter');
		const routingNode = await outcome('RoutingNode', parameters);
		const builder = await outcome('builder', parameters);
		expect(builder).toEqual(routingNode);
		if (builder.seen.length === 2) built++;
	});

	it('most of those runs reached the hook, so the comparison is of requests, not only of errors', () => {
		// Some parameter sets fail the node's own checks before any request (a generated value is not a valid choice).
		expect(built).toBeGreaterThanOrEqual(Math.round(operations.length * 2 * 0.75));
	});

	it('the requests carry the Request Options and the domain limit as RoutingNode puts them', async () => {
		const { seen } = await outcome('builder', parametersFor('site', 'getAll', true));
		expect(seen[0].options).toMatchObject({
			proxy: { host: '127.0.0.1', port: 3128, protocol: 'http', auth: { username: 'proxy-user', password: 'pa@ss' } },
			skipSslCertificateValidation: true,
			timeout: 4321,
			allowedDomains: '127.0.0.1',
		});
	});
});

describe('a filter added to a Get Many: the polling trigger reads it with the node’s builder', () => {
	/** Two filters the Task list does not have, in shapes no shipped filter uses: a trimmed text and a boolean. */
	const added: INodeProperties[] = [
		{
			displayName: 'Reference',
			name: 'reference',
			type: 'string',
			default: '',
			routing: { send: { type: 'query', property: 'reference', value: ROUTING_VALUE.trimmed.expression } },
		},
		{ displayName: 'Overdue', name: 'overdue', type: 'boolean', default: false, routing: { send: { type: 'query', property: 'overdue' } } },
	];
	const isTaskFilters = (property: INodeProperties) => property.name === 'filters' && shownFor(property, 'task', 'getAll');
	// A copy: the shipped description is left as it is.
	const description: INodeTypeDescription = {
		...stora.description,
		properties: properties.map((property) =>
			isTaskFilters(property) ? { ...property, options: [...(property.options as INodeProperties[]), ...added] } : property,
		),
	};
	const offered = pollFilters(description.properties.find(isTaskFilters)?.options as INodeProperties[]);
	// The polling trigger offering them too, as it offers each Get Many's filters.
	const trigger = new StoraPollTrigger();
	trigger.description = {
		...trigger.description,
		properties: trigger.description.properties.map((property) =>
			property.name === 'filters' && (property.displayOptions?.show?.pollResource as string[]).includes('task')
				? { ...property, options: [...(property.options as INodeProperties[]), ...added] }
				: property,
		),
	};
	const credentials = () => tokenCredentials('http://127.0.0.1:9', 'sk_test_routed');
	// A wall time the workflow's time zone turns into another instant: the date filter's preSend runs in both.
	const timezone = 'America/New_York';

	/** The query the node hands its transport for Task → Get Many with these filters, the Limit left out. */
	async function fromNode(by: 'RoutingNode' | 'builder', filters: IDataObject) {
		const seen: Seen[] = [];
		const result = await runStora({
			nodeClass: recordingNode(by, seen, description),
			credentials: credentials(),
			parameters: { resource: 'task', operation: 'getAll', filters } as INodeParameters,
			timezone,
		});
		if (result.error) return { error: result.error.message };
		const { limit, ...query } = (seen[0].options as { qs: IDataObject }).qs;
		expect(limit).toBeDefined();
		return query;
	}

	async function fromPoll(filters: IDataObject) {
		const poller = new PollHarness(credentials(), { pollResource: 'task', event: 'created', filters }, undefined, timezone, trigger);
		return await filterQuery(poller.context(), offered).catch((error: Error) => ({ error: error.message }));
	}

	it('the same query from n8n’s RoutingNode, the node’s own builder and the poll', async () => {
		expect(offered.map((filter) => filter.name)).toEqual(expect.arrayContaining(['reference', 'overdue']));
		const filters = {
			status: ['open', 'completed'],
			siteIds: '={{ "site_routed1, site_routed2" }}',
			dueAfter: '2026-03-08T02:30:00',
			metadata: { entry: [{ key: 'tier', value: 'gold' }] },
			reference: '={{ "  REF-" + 7 + "  " }}',
			overdue: true,
		};
		const polled = await fromPoll(filters);
		expect(polled).toEqual({
			status: 'open,completed',
			site_id: 'site_routed1,site_routed2',
			due_after: '2026-03-08T07:30:00.000Z',
			'metadata[tier]': 'gold',
			reference: 'REF-7',
			overdue: true,
		});
		expect(await fromNode('builder', filters)).toEqual(polled);
		expect(await fromNode('RoutingNode', filters)).toEqual(polled);
	});

	it('the same refusal, before any request, of a value a filter’s check rejects', async () => {
		const filters = { siteIds: 'con_notasite', reference: 'REF-7' };
		const polled = await fromPoll(filters);
		expect(polled).toEqual({ error: 'Site Names or IDs: "con_notasite" is not a valid ID' });
		expect(await fromNode('builder', filters)).toEqual(polled);
	});
});

describe('a routing feature the builder does not implement fails when the node is made', () => {
	/** The description with one property changed by `change`. */
	const changed = (name: string, change: (property: INodeProperties) => INodeProperties, more: Partial<INodeTypeDescription> = {}) => ({
		...stora.description,
		...more,
		properties: stora.description.properties.map((property) => (property.name === name ? change(property) : property)),
	});
	it.each([
		['routing.output', changed('resource', (p) => ({ ...p, routing: { ...p.routing, output: { maxResults: 5 } } })), 'resource: routing.output'],
		['routing.operations', changed('resource', (p) => ({ ...p, routing: { ...p.routing, operations: {} } })), 'resource: routing.operations'],
		['an expression in requestDefaults', changed('resource', (p) => p, { requestDefaults: { baseURL: '={{ $credentials.baseUrl }}' } }), 'an expression in requestDefaults'],
		['an object in routing.request holding an expression', changed('resource', (p) => ({ ...p, routing: { ...p.routing, request: { qs: { page: '={{ $value }}' } } } })), 'resource: an expression inside routing.request.qs'],
		['an expression it does not know', changed('resource', (p) => ({ ...p, routing: { ...p.routing, send: { ...p.routing?.send, property: '={{ $value.toUpperCase() }}' } } })), 'resource: the routing expression ={{ $value.toUpperCase() }}'],
	])('%s', (_name, description, named) => {
		expect(() => routedOperations(description)).toThrow(named);
	});

	it('the node as published uses none', () => {
		expect(() => routedOperations(stora.description)).not.toThrow();
	});
});

describe('routing expressions', () => {
	const expressions = new Set<string>();
	const visit = (property: INodeProperties | INodePropertyOptions | INodePropertyCollection) => {
		const routing = (property as INodeProperties).routing;
		for (const text of [routing?.send?.value, routing?.send?.property, routing?.send?.paginate, ...Object.values(routing?.request ?? {})]) {
			if (typeof text === 'string' && text.startsWith('=')) expressions.add(text);
		}
		if (routing?.send?.property && routing.send.propertyInDotNotation !== false) expect(routing.send.property).not.toMatch(/[[\]]/);
		for (const option of ((property as INodeProperties).options ?? []) as INodeProperties[]) if (typeof option === 'object') visit(option);
		for (const member of (property as INodePropertyCollection).values ?? []) visit(member);
	};

	it('every one in the built description is listed in ROUTING_VALUE', () => {
		properties.forEach(visit);
		const listed = new Set(Object.values(ROUTING_VALUE).map((entry) => entry.expression));
		expect([...expressions].filter((text) => !listed.has(text))).toEqual([]);
		expect(expressions.size).toBe(listed.size);
	});

	it('each listed function computes what n8n’s expression engine computes', () => {
		const workflow = new Workflow({ nodes: [{ id: '1', name: 'Stora', type: 'n8n-nodes-stora.stora', typeVersion: 1, position: [0, 0], parameters: {} }], connections: {}, active: false, nodeTypes: { getByName: () => stora, getByNameAndVersion: () => stora, getKnownTypes: () => ({}) } as never });
		const samples: unknown[] = [undefined, null, '', ' gb ', 'a, b,,c', 'Text', 0, 7, true, false, ['x', ' y ', ''], [], ['one'], { a: 1 }];
		for (const entry of Object.values(ROUTING_VALUE)) {
			for (const value of samples) {
				const parent = { key: 'colour', value } as IDataObject;
				const expected = workflow.expression.getParameterValue(entry.expression, null, 0, 0, 'Stora', [], 'manual', { $value: value, $parent: parent } as never);
				const computed = routingValueOf(entry.expression)!.apply(value, parent);
				expect([entry.expression, value, computed]).toEqual([entry.expression, value, expected]);
			}
		}
	});
});
