/**
 * No duplicate writes: every POST carries an Idempotency-Key derived from the execution, node, run and item, so the
 * transport's own retries and n8n's Retry On Fail (the same execution running the node again) replay the first
 * answer instead of creating a second record.
 *
 * Item linking: every item the Stora node outputs names the input item it came from (`pairedItem`), for one record,
 * many records, Return All, files and errors, so that n8n can answer `$('Earlier node').item` further on and its error
 * output can carry the failed input's data. Proven in n8n-core's real engine, in a chain of nodes as a user builds it:
 * Split Out → Stora → Edit Fields.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	INode,
	INodeExecutionData,
	INodeType,
	INodeTypes,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { runStora, asLoadedByN8n, executeWorkflow, locator, storaNode } from '../../helpers/n8n';
import { useSandboxForNode } from '../../helpers/sandboxFixture';
import { Stora } from '../../../nodes/Stora/Stora.node';

describe('Stora node: idempotent writes', () => {
	const fixture = useSandboxForNode();
	const createEndpoint = {
		resource: 'webhookEndpoint',
		operation: 'create',
		name: 'Ledger sync',
		url: 'https://hooks.example.com/ledger',
		eventTypes: ['invoice.paid'],
	};
	const endpointsNamed = async (name: string) =>
		(await fixture.client.state('webhook_endpoints')).filter((endpoint) => endpoint.name === name);

	it('retries a POST that failed with 503 under the same Idempotency-Key', async () => {
		await fixture.client.fault({ method: 'POST', path: '/2025-09/webhook_endpoints' }, [
			{ status: 503 },
		]);
		const result = await runStora({
			credentials: fixture.credentials(),
			parameters: createEndpoint,
		});
		expect(result.error).toBeUndefined();
		const posts = (await fixture.client.requests()).filter((request) => request.method === 'POST');
		expect(posts.map((request) => request.status)).toEqual([503, 200]);
		expect(posts[0].headers['idempotency-key']).toMatch(/^n8n-[0-9a-f]{32}$/);
		expect(posts[1].headers['idempotency-key']).toBe(posts[0].headers['idempotency-key']);
		expect(await endpointsNamed('Ledger sync')).toHaveLength(1);
	});

	it('replays the first answer when n8n retries the node in the same execution', async () => {
		const first = await runStora({
			credentials: fixture.credentials(),
			parameters: createEndpoint,
			executionId: 'exec-42',
		});
		const again = await runStora({
			credentials: fixture.credentials(),
			parameters: createEndpoint,
			executionId: 'exec-42',
		});
		expect(again.items[0].json.id).toBe(first.items[0].json.id);
		expect(await endpointsNamed('Ledger sync')).toHaveLength(1);
		const keys = (await fixture.client.requests()).map(
			(request) => request.headers['idempotency-key'],
		);
		expect(keys[0]).toBe(keys[1]);
	});

	it('creates a new record in a new execution, and one per item', async () => {
		await runStora({
			credentials: fixture.credentials(),
			parameters: createEndpoint,
			executionId: 'exec-1',
		});
		await runStora({
			credentials: fixture.credentials(),
			parameters: createEndpoint,
			executionId: 'exec-2',
		});
		expect(await endpointsNamed('Ledger sync')).toHaveLength(2);

		const perItem = await runStora({
			credentials: fixture.credentials(),
			parameters: { ...createEndpoint, name: 'Per item' },
			items: [{}, {}],
			executionId: 'exec-3',
		});
		expect(perItem.items).toHaveLength(2);
		expect(await endpointsNamed('Per item')).toHaveLength(2);
	});

	it('creates a new record each time a loop runs the node again in one execution', async () => {
		const stora = storaNode(createEndpoint as INode['parameters']);
		const nodes = [stora, node('Again', 'again')];
		const connections = {
			Stora: { main: [[{ node: 'Again', type: NodeConnectionTypes.Main, index: 0 }]] },
			Again: { main: [[{ node: 'Stora', type: NodeConnectionTypes.Main, index: 0 }], []] },
		};
		const finished = await executeWorkflow({
			workflow: { id: 'wf-loop', name: 'loop', nodes, connections },
			nodeTypes,
			credentials: fixture.credentials(),
			start: stora,
			input: [{}],
			executionId: 'exec-loop',
		});
		expect(finished.data.resultData.error).toBeUndefined();
		expect(finished.data.resultData.runData.Stora).toHaveLength(2);
		expect(await endpointsNamed('Ledger sync')).toHaveLength(2);
		const keys = (await fixture.client.requests()).map(
			(request) => request.headers['idempotency-key'],
		);
		expect(new Set(keys).size).toBe(2);
	});

	it("uses the user's own Idempotency Key, so a repeat in another execution replays too", async () => {
		const withKey = { ...createEndpoint, options: { idempotencyKey: 'shop-order-1042' } };
		const first = await runStora({
			credentials: fixture.credentials(),
			parameters: withKey,
			executionId: 'exec-a',
		});
		const second = await runStora({
			credentials: fixture.credentials(),
			parameters: withKey,
			executionId: 'exec-b',
		});
		expect(second.items[0].json.id).toBe(first.items[0].json.id);
		expect(await endpointsNamed('Ledger sync')).toHaveLength(1);
		const keys = (await fixture.client.requests()).map(
			(request) => request.headers['idempotency-key'],
		);
		expect(keys).toEqual(['shop-order-1042', 'shop-order-1042']);
	});

	it('refuses one fixed Idempotency Key on several items before any request, naming the items', async () => {
		const result = await runStora({
			credentials: fixture.credentials(),
			parameters: { ...createEndpoint, options: { idempotencyKey: 'shop-order-1042' } },
			items: [{}, {}, {}],
		});
		expect(result.error?.message).toBe(
			'Idempotency Key "shop-order-1042" is the same for items 1, 2, 3',
		);
		expect(String((result.error as { description?: string }).description)).toMatch(
			/differs per item/,
		);
		expect(await fixture.client.requests()).toEqual([]);
		expect(await endpointsNamed('Ledger sync')).toHaveLength(0);
	});

	it('takes a key expression that differs per item, and refuses one that gives two items the same key', async () => {
		const perItem = await runStora({
			credentials: fixture.credentials(),
			parameters: { ...createEndpoint, options: { idempotencyKey: '=order-{{ $json.order }}' } },
			items: [{ order: 1 }, { order: 2 }],
		});
		expect(perItem.error).toBeUndefined();
		expect(
			(await fixture.client.requests()).map((request) => request.headers['idempotency-key']),
		).toEqual(['order-1', 'order-2']);
		expect(await endpointsNamed('Ledger sync')).toHaveLength(2);

		await fixture.client.clearRequests();
		const clash = await runStora({
			credentials: fixture.credentials(),
			parameters: { ...createEndpoint, options: { idempotencyKey: '=order-{{ $json.order }}' } },
			items: [{ order: 7 }, { order: 8 }, { order: 7 }],
		});
		expect(clash.error?.message).toBe('Idempotency Key "order-7" is the same for items 1, 3');
		expect(await fixture.client.requests()).toEqual([]);
	});

	it('refuses a key that cannot be a header value (a line break, too long) before any request, naming it', async () => {
		for (const idempotencyKey of ['order-1\nX-Other: 1', 'k'.repeat(256)]) {
			const result = await runStora({
				credentials: fixture.credentials(),
				parameters: { ...createEndpoint, options: { idempotencyKey } },
			});
			expect(result.error?.message).toMatch(/^Idempotency Key: ".*" is not a valid key$/s);
		}
		expect(await fixture.client.requests()).toEqual([]);
	});

	it('does not retry a POST that failed with a client error', async () => {
		await fixture.client.fault({ method: 'POST', path: '/2025-09/webhook_endpoints' }, [
			{ status: 409 },
		]);
		const result = await runStora({
			credentials: fixture.credentials(),
			parameters: createEndpoint,
		});
		expect((result.error as { httpCode?: string }).httpCode).toBe('409');
		expect(
			(await fixture.client.requests()).filter((request) => request.method === 'POST'),
		).toHaveLength(1);
	});
});

jest.setTimeout(30_000);

/** n8n's Split Out, as far as this needs: an item per entry of `tags`, linked to its input item. */
const splitOut: INodeType = {
	description: {
		displayName: 'Split Out',
		name: 'splitOut',
		group: ['transform'],
		version: 1,
		description: '',
		defaults: { name: 'Split Out' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	},
	async execute(this: IExecuteFunctions) {
		return [
			this.getInputData().flatMap((item, index) =>
				(item.json.tags as string[]).map((tag) => ({ json: { tag }, pairedItem: { item: index } })),
			),
		];
	},
};

/** n8n's Edit Fields, as far as this needs: `tag` set from an expression per item. */
const editFields: INodeType = {
	description: {
		displayName: 'Edit Fields',
		name: 'editFields',
		group: ['transform'],
		version: 1,
		description: '',
		defaults: { name: 'Edit Fields' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [{ displayName: 'Tag', name: 'tag', type: 'string', default: '' }],
	},
	async execute(this: IExecuteFunctions) {
		return [
			this.getInputData().map((item, index) => ({
				json: { id: item.json.id, tag: this.getNodeParameter('tag', index) },
				pairedItem: { item: index },
			})),
		];
	},
};

/** A loop's way back, as n8n's If or Loop Over Items give it: the items go back on output 0 once, then out on 1. */
const again: INodeType = {
	description: {
		displayName: 'Again',
		name: 'again',
		group: ['transform'],
		version: 1,
		description: '',
		defaults: { name: 'Again' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main, NodeConnectionTypes.Main],
		properties: [],
	},
	async execute(this: IExecuteFunctions) {
		const items = this.getInputData();
		return this.getWorkflowDataProxy(0).$runIndex === 0 ? [items, []] : [[], items];
	},
};

const types: Record<string, INodeType> = {
	again,
	splitOut,
	editFields,
	stora: asLoadedByN8n(new Stora()),
};
const nodeTypes = {
	getByName: (name: string) => types[name.split('.').pop() as string],
	getByNameAndVersion: (name: string) => types[name.split('.').pop() as string],
	getKnownTypes: () => ({}),
} as unknown as INodeTypes;

const node = (name: string, type: string, parameters: IDataObject = {}): INode => ({
	id: name,
	name,
	type: `test.${type}`,
	typeVersion: 1,
	position: [0, 0],
	parameters: parameters as INode['parameters'],
});

describe('item linking', () => {
	const fixture = useSandboxForNode();

	/** Split Out → Stora (`parameters`) → Edit Fields over `inputs`; each node's output by name, and the run's error. */
	async function chain(parameters: IDataObject, inputs: IDataObject[], onError?: INode['onError']) {
		const stora = {
			...storaNode(parameters as INode['parameters']),
			...(onError ? { onError } : {}),
		};
		const nodes = [
			node('Split Out', 'splitOut'),
			stora,
			node('Edit Fields', 'editFields', { tag: "={{ $('Split Out').item.json.tag }}" }),
		];
		const connections = {
			'Split Out': { main: [[{ node: 'Stora', type: NodeConnectionTypes.Main, index: 0 }]] },
			Stora: { main: [[{ node: 'Edit Fields', type: NodeConnectionTypes.Main, index: 0 }]] },
		};
		const finished = await executeWorkflow({
			workflow: { id: 'wf-chain', name: 'chain', nodes, connections },
			nodeTypes,
			credentials: fixture.credentials(),
			start: nodes[0],
			input: inputs,
			executionId: 'exec-chain',
		});
		const runData = finished.data.resultData.runData;
		const outputs = (name: string, output = 0): INodeExecutionData[] =>
			runData[name]?.[0]?.data?.main?.[output] ?? [];
		return { outputs, error: finished.data.resultData.error };
	}

	it('Split Out → Get Many (2 each) → Edit Fields reads each record’s Split Out item', async () => {
		const { outputs, error } = await chain(
			{ resource: 'site', operation: 'getAll', returnAll: false, limit: 2 },
			[{ tags: ['a', 'b'] }, { tags: ['c'] }],
		);
		expect(error).toBeUndefined();
		expect(outputs('Stora').map((item) => item.pairedItem)).toEqual(
			[0, 0, 1, 1, 2, 2].map((item) => ({ item })),
		);
		expect(outputs('Edit Fields').map((item) => item.json.tag)).toEqual([
			'a',
			'a',
			'b',
			'b',
			'c',
			'c',
		]);
	});

	it('Continue (using error output): the failed item carries its input’s data, the others go on', async () => {
		const [contact] = await fixture.client.state('contacts');
		const { outputs, error } = await chain(
			{
				resource: 'contact',
				operation: 'get',
				contactId: locator(
					"={{ $json.tag === 'bad' ? 'con_doesnotexist' : '" + contact.id + "' }}",
				),
			},
			[{ tags: ['good', 'bad'] }],
			'continueErrorOutput',
		);
		expect(error).toBeUndefined();
		expect(outputs('Stora', 0).map((item) => [item.json.id, item.pairedItem])).toEqual([
			[contact.id, { item: 0 }],
		]);
		const failed = outputs('Stora', 1);
		expect(failed).toHaveLength(1);
		// n8n merges the input item into the error item by its pairedItem.
		expect(failed[0].json).toMatchObject({
			tag: 'bad',
			error: 'Contact con_doesnotexist not found [resource_not_found]',
			message: expect.stringMatching(/Request ID: .*\nOperation: contact → get/),
		});
		expect(failed[0].pairedItem).toEqual({ item: 1 });
	});

	it.each([
		[
			'one record',
			{ resource: 'site', operation: 'get', siteId: locator('={{ $json.siteId }}') },
			1,
		],
		['Return All', { resource: 'site', operation: 'getAll', returnAll: true }, undefined],
		[
			'a CSV file',
			{ resource: 'invoice', operation: 'getAll', returnAll: true, outputFormat: 'csv' },
			1,
		],
		[
			'a PDF file',
			{
				resource: 'invoice',
				operation: 'downloadPdf',
				invoiceId: locator('={{ $json.invoiceId }}'),
			},
			1,
		],
		[
			'On Error → Continue’s error items',
			{ resource: 'contact', operation: 'get', contactId: locator('con_doesnotexist') },
			1,
		],
	])('%s: every output item names its input item', async (_name, parameters, perItem) => {
		const [site, other] = await fixture.client.state('sites');
		const invoices = await fixture.client.state('invoices');
		const inputs = [
			{ siteId: site.id, invoiceId: invoices[0].id },
			{ siteId: other.id, invoiceId: invoices[1].id },
		];
		const { items, error } = await fixture.run(parameters, { items: inputs, continueOnFail: true });
		expect(error).toBeUndefined();
		const linked = items.map((item) => (item.pairedItem as { item: number }).item);
		const half = items.length / 2;
		expect(linked).toEqual([...Array(half).fill(0), ...Array(half).fill(1)]);
		if (perItem !== undefined) expect(half).toBe(perItem);
	});
});
