/**
 * Item linking: every item the Stora node outputs names the input item it came from (`pairedItem`), for one record,
 * many records, Return All, files and errors, so that n8n can answer `$('Earlier node').item` further on and its error
 * output can carry the failed input's data. Proven in n8n-core's real engine, in a chain of nodes as a user builds it:
 * Split Out → Stora → Edit Fields.
 */
import type { IDataObject, IExecuteFunctions, INode, INodeExecutionData, INodeType, INodeTypes } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { asLoadedByN8n, executeWorkflow, locator, storaNode } from '../helpers/n8n';
import { useSandboxForNode } from '../helpers/sandboxFixture';
import { Stora } from '../../nodes/Stora/Stora.node';

jest.setTimeout(30_000);

/** n8n's Split Out, as far as this needs: an item per entry of `tags`, linked to its input item. */
const splitOut: INodeType = {
	description: { displayName: 'Split Out', name: 'splitOut', group: ['transform'], version: 1, description: '', defaults: { name: 'Split Out' }, inputs: [NodeConnectionTypes.Main], outputs: [NodeConnectionTypes.Main], properties: [] },
	async execute(this: IExecuteFunctions) {
		return [this.getInputData().flatMap((item, index) => (item.json.tags as string[]).map((tag) => ({ json: { tag }, pairedItem: { item: index } })))];
	},
};

/** n8n's Edit Fields, as far as this needs: `tag` set from an expression per item. */
const editFields: INodeType = {
	description: { displayName: 'Edit Fields', name: 'editFields', group: ['transform'], version: 1, description: '', defaults: { name: 'Edit Fields' }, inputs: [NodeConnectionTypes.Main], outputs: [NodeConnectionTypes.Main], properties: [{ displayName: 'Tag', name: 'tag', type: 'string', default: '' }] },
	async execute(this: IExecuteFunctions) {
		return [this.getInputData().map((item, index) => ({ json: { id: item.json.id, tag: this.getNodeParameter('tag', index) }, pairedItem: { item: index } }))];
	},
};

const types: Record<string, INodeType> = { splitOut, editFields, stora: asLoadedByN8n(new Stora()) };
const nodeTypes = {
	getByName: (name: string) => types[name.split('.').pop() as string],
	getByNameAndVersion: (name: string) => types[name.split('.').pop() as string],
	getKnownTypes: () => ({}),
} as unknown as INodeTypes;

const node = (name: string, type: string, parameters: IDataObject = {}): INode => ({ id: name, name, type: `test.${type}`, typeVersion: 1, position: [0, 0], parameters: parameters as INode['parameters'] });

describe('item linking', () => {
	const fixture = useSandboxForNode();

	/** Split Out → Stora (`parameters`) → Edit Fields over `inputs`; each node's output by name, and the run's error. */
	async function chain(parameters: IDataObject, inputs: IDataObject[], onError?: INode['onError']) {
		const stora = { ...storaNode(parameters as INode['parameters']), ...(onError ? { onError } : {}) };
		const nodes = [node('Split Out', 'splitOut'), stora, node('Edit Fields', 'editFields', { tag: "={{ $('Split Out').item.json.tag }}" })];
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
		const outputs = (name: string, output = 0): INodeExecutionData[] => runData[name]?.[0]?.data?.main?.[output] ?? [];
		return { outputs, error: finished.data.resultData.error };
	}

	it('Split Out → Get Many (2 each) → Edit Fields reads each record’s Split Out item', async () => {
		const { outputs, error } = await chain({ resource: 'site', operation: 'getAll', returnAll: false, limit: 2 }, [{ tags: ['a', 'b'] }, { tags: ['c'] }]);
		expect(error).toBeUndefined();
		expect(outputs('Stora').map((item) => item.pairedItem)).toEqual([0, 0, 1, 1, 2, 2].map((item) => ({ item })));
		expect(outputs('Edit Fields').map((item) => item.json.tag)).toEqual(['a', 'a', 'b', 'b', 'c', 'c']);
	});

	it('Continue (using error output): the failed item carries its input’s data, the others go on', async () => {
		const [contact] = await fixture.client.state('contacts');
		const { outputs, error } = await chain(
			{ resource: 'contact', operation: 'get', contactId: locator("={{ $json.tag === 'bad' ? 'con_doesnotexist' : '" + contact.id + "' }}") },
			[{ tags: ['good', 'bad'] }],
			'continueErrorOutput',
		);
		expect(error).toBeUndefined();
		expect(outputs('Stora', 0).map((item) => [item.json.id, item.pairedItem])).toEqual([[contact.id, { item: 0 }]]);
		const failed = outputs('Stora', 1);
		expect(failed).toHaveLength(1);
		// n8n merges the input item into the error item by its pairedItem.
		expect(failed[0].json).toMatchObject({ tag: 'bad', error: 'Contact con_doesnotexist not found [resource_not_found]', message: expect.stringMatching(/Request ID: .*\nOperation: contact → get/) });
		expect(failed[0].pairedItem).toEqual({ item: 1 });
	});

	it.each([
		['one record', { resource: 'site', operation: 'get', siteId: locator('={{ $json.siteId }}') }, 1],
		['Return All', { resource: 'site', operation: 'getAll', returnAll: true }, undefined],
		['a CSV file', { resource: 'invoice', operation: 'getAll', returnAll: true, outputFormat: 'csv' }, 1],
		['a PDF file', { resource: 'invoice', operation: 'downloadPdf', invoiceId: locator('={{ $json.invoiceId }}') }, 1],
		['On Error → Continue’s error items', { resource: 'contact', operation: 'get', contactId: locator('con_doesnotexist') }, 1],
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
