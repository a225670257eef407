/**
 * An item's request, built from the descriptions' routing as n8n's RoutingNode builds it (the same properties, in
 * the same order, with the same values), but walking only what the node's settings show.
 *
 * Why: RoutingNode walks every top-level property of the node twice per item (most are shown only for another
 * resource or only to a model), evaluates each one's value and its display conditions, and builds every item before
 * the first request leaves. Which properties are shown depends on the node's raw parameters only, the
 * same for every item, so `routedParameters` finds them once per run; per item, only their values are read.
 * The one reading of the routing besides RoutingNode's: the poll trigger's filters go through it too (`routedQuery`).
 * test/nodes/routedRequests.test.ts holds the result to RoutingNode's, request by request, for every operation, and
 * a filter added to a copy of a Get Many to the same query from RoutingNode, this builder and the poll.
 */
import type {
	DeclarativeRestApiSettings,
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	INode,
	INodeProperties,
	INodePropertyCollection,
	INodePropertyOptions,
	INodeTypeDescription,
	PreSendAction,
} from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { routingValueOf } from '../helpers/routingValues';
import { isPlain } from './plain';
import { applyRequestSettings, type RequestSettings } from './requestOptions';

type Routed = INodeProperties | INodePropertyOptions;

/** One parameter with routing that the node's settings show: where its value is read and how it is sent. */
interface RoutedParameter {
	/** Its path in the node's parameters (`updateFields.useCase`). */
	path: string;
	property: Routed;
	/** A fixed collection row's path: the row is the routing's `$parent`. */
	row?: { path: string; index: number };
}

/** The node's description as n8n's display conditions read it (`@tool` is true in the tool variant). */
function describedAs(description: INodeTypeDescription, node: INode): INodeTypeDescription {
	return node.type.endsWith('Tool') ? { ...description, name: `${description.name}Tool` } : description;
}

/**
 * The routed parameters the node's settings show, in RoutingNode's order: top-level properties in the
 * description's order, each followed by the chosen option, the collection members set, or the fixed collection
 * rows. Item-independent: display conditions read the raw parameters, never an expression's result.
 */
export function routedParameters(description: INodeTypeDescription, node: INode): RoutedParameter[] {
	const root = node.parameters;
	const described = describedAs(description, node);
	const found: RoutedParameter[] = [];
	const visit = (property: Routed | INodePropertyCollection, path: string, row?: RoutedParameter['row']) => {
		if (!NodeHelpers.displayParameter(root, property as INodeProperties, node, described, root)) return;
		const base = path ? `${path}.` : '';
		if ('routing' in property && property.routing) found.push({ path: `${base}${property.name}`, property, ...(row ? { row } : {}) });
		if (!Object.prototype.hasOwnProperty.call(property, 'options') || !('type' in property)) return;
		const at = (name: string, parent: string) => NodeHelpers.getParameterValueByPath(root, name, parent);
		if (property.type === 'options') {
			const chosen = at(property.name, base.slice(0, -1));
			const option = (property.options as INodePropertyOptions[]).find((candidate) => candidate.value === chosen);
			if (option) visit(option, `${base}${property.name}`, row);
		} else if (property.type === 'collection') {
			const set = Object.keys((at(property.name, base.slice(0, -1)) ?? {}) as IDataObject);
			for (const member of property.options as INodeProperties[]) {
				if (set.includes(member.name) && member.type !== undefined) visit(member, `${base}${property.name}`, row);
			}
		} else if (property.type === 'fixedCollection') {
			const collectionPath = `${base}${property.name}`;
			for (const rows of property.options as INodePropertyCollection[]) {
				const value = at(rows.name, collectionPath);
				if (value === undefined) continue;
				const count = Array.isArray(value) ? value.length : 1;
				for (let index = 0; index < count; index++) {
					const rowPath = property.typeOptions?.multipleValues ? `${collectionPath}.${rows.name}[${index}]` : `${collectionPath}.${rows.name}`;
					for (const member of rows.values) visit(member, rowPath, { path: `${collectionPath}.${rows.name}`, index });
				}
			}
		}
	};
	for (const property of description.properties) visit(property, '');
	return found;
}

const isExpression = (value: unknown) => typeof value === 'string' && value.startsWith('=');

/** Whether an object holds an expression anywhere. */
const holdsExpression = (value: unknown): boolean =>
	isExpression(value) || (value !== null && typeof value === 'object' && Object.values(value).some(holdsExpression));

/**
 * What the description asks of RoutingNode that this builder does not do, one line each: response handling
 * (`routing.output`, `routing.operations`), expressions in `requestDefaults` or inside an object of
 * `routing.request`, and routing expressions it does not know (helpers/routingValues.ts). Empty when it builds
 * every request as RoutingNode would.
 */
export function unsupportedRouting(description: INodeTypeDescription): string[] {
	const found: string[] = [];
	if (holdsExpression(description.requestDefaults)) found.push('an expression in requestDefaults');
	const visit = (property: Routed | INodePropertyCollection, path: string) => {
		const where = `${path}${property.name}`;
		const routing = 'routing' in property ? property.routing : undefined;
		if (routing?.output) found.push(`${where}: routing.output`);
		if (routing?.operations) found.push(`${where}: routing.operations`);
		for (const [key, value] of Object.entries(routing?.request ?? {})) {
			if (value !== null && typeof value === 'object' && holdsExpression(value)) found.push(`${where}: an expression inside routing.request.${key}`);
			else if (isExpression(value) && !routingValueOf(value as string)) found.push(`${where}: routing.request.${key} ${String(value)}`);
		}
		const send = routing?.send;
		if (send?.type !== undefined && !['body', 'query'].includes(send.type)) found.push(`${where}: routing.send.type ${send.type}`);
		for (const value of [send?.property, send?.value, send?.paginate]) {
			if (isExpression(value) && !routingValueOf(value as string)) found.push(`${where}: the routing expression ${String(value)}`);
		}
		const members = 'values' in property ? property.values : 'options' in property ? property.options : [];
		for (const member of (members ?? []) as Array<Routed | INodePropertyCollection>) {
			if (member && typeof member === 'object') visit(member, `${where}.`);
		}
	};
	for (const property of description.properties) visit(property, '');
	return found;
}

/** lodash's merge as RoutingNode uses it: objects and arrays merged member by member, undefined never overwrites. */
function mergeInto(target: IDataObject | unknown[], source: IDataObject | unknown[]) {
	const to = target as Record<string, unknown>;
	for (const [key, value] of Object.entries(source)) {
		if (isPlain(value) || Array.isArray(value)) {
			const current = to[key];
			const fits = Array.isArray(value) ? Array.isArray(current) : isPlain(current);
			if (!fits) to[key] = Array.isArray(value) ? [] : {};
			mergeInto(to[key] as IDataObject, value);
		} else if (value !== undefined || !(key in to)) {
			to[key] = value;
		}
	}
}

/** lodash's set for a dotted path (the descriptions use no brackets in a dotted property; a test holds them to it). */
function setPath(target: IDataObject, path: string, value: unknown) {
	const keys = path.split('.');
	let at = target;
	for (const key of keys.slice(0, -1)) {
		if (typeof at[key] !== 'object' || at[key] === null) at[key] = {};
		at = at[key] as IDataObject;
	}
	at[keys[keys.length - 1]] = value as IDataObject[string];
}

/** A routing string: as it is, or computed by its listed function when it is an expression. */
function resolved(text: unknown, value: unknown, parent: IDataObject | undefined, where: string): unknown {
	if (typeof text !== 'string' || !text.startsWith('=')) return text;
	const known = routingValueOf(text);
	if (!known) throw new Error(`The routing of "${where}" uses an expression the node's request builder does not know: ${text}`);
	return known.apply(value, parent);
}

/** The item's request data as RoutingNode hands it to the pagination hook, before the preSends run, with the run's Request Options. */
export function routedRequest(
	context: IExecuteSingleFunctions,
	description: INodeTypeDescription,
	parameters: RoutedParameter[],
	settings: RequestSettings,
): DeclarativeRestApiSettings.ResultOptions {
	const options: IDataObject = { qs: {}, body: {}, headers: {} };
	mergeInto(options, { ...(description.requestDefaults ?? {}) } as IDataObject);
	const request = { options, preSend: [] as PreSendAction[], postReceive: [], requestOperations: { ...description.requestOperations } };
	let paginate: boolean | undefined;
	for (const { path, property, row } of parameters) {
		const routing = property.routing!;
		const value =
			'type' in property
				? context.getNodeParameter(path, undefined, { extractValue: property.extractValue !== undefined || property.type === 'resourceLocator' })
				: undefined;
		const parent = row ? ([context.getNodeParameter(row.path, undefined)].flat()[row.index] as IDataObject) : undefined;
		const part: IDataObject = { qs: {}, body: {}, headers: {} };
		for (const [key, text] of Object.entries(routing.request ?? {})) part[key] = resolved(text, value, parent, path) as IDataObject;
		const send = routing.send;
		if (send?.property !== undefined) {
			const name = String(resolved(send.property, value, parent, path));
			const sent = send.value !== undefined ? resolved(send.value, value, parent, path) : value;
			const into = (send.type === 'body' ? part.body : part.qs) as IDataObject;
			if (send.propertyInDotNotation === false) into[name] = sent as IDataObject[string];
			else setPath(into, name, sent);
		}
		if (send?.paginate !== undefined) paginate = paginate ?? Boolean(resolved(send.paginate, value, parent, path));
		mergeInto(options, part);
		if (send?.preSend) request.preSend.push(...send.preSend);
	}
	applyRequestSettings(options, settings);
	return { ...request, paginate } as DeclarativeRestApiSettings.ResultOptions;
}

/**
 * The query these properties send for the parameters `context` reads, after their preSends (the checks made before
 * any request, and the values they rewrite, such as a date in the workflow's time zone): the builder above, for a
 * consumer that sends its own requests, such as the poll trigger with a Get Many's filters.
 */
export async function routedQuery(context: IExecuteSingleFunctions, properties: INodeProperties[]): Promise<IDataObject> {
	const description = { properties } as INodeTypeDescription;
	const request = routedRequest(context, description, routedParameters(description, context.getNode()), {});
	let options = request.options as IHttpRequestOptions;
	for (const preSend of request.preSend) options = await preSend.call(context, options);
	return (options.qs ?? {}) as IDataObject;
}
