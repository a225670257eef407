/**
 * The Stora node as an AI tool (n8n's `storaTool` variant, what an AI Agent or the MCP Server Trigger calls), run in
 * n8n-core's engine against the sandbox: what a model reads about each operation, what it gets back (simplified,
 * bounded lists with how to see more) and the errors it gets for bad arguments, before any request. Both ways n8n
 * runs a tool: an agent calling it (RoutingNode runs the node) and the engine running it as a node of the workflow
 * (the node's own builder runs it); they answer alike.
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { Stora } from '../../../nodes/Stora/Stora.node';
import { SIMPLIFIED_FIELDS } from '../../../nodes/Stora/helpers/output';
import { TOOL_MAX_CHARACTERS, TOOL_MAX_RECORDS } from '../../../nodes/Stora/helpers/tool';
import { runStoraTool, runStoraToolByEngine } from '../../helpers/aiTool';
import { locator, runStora } from '../../helpers/n8n';
import { useSandboxForNode } from '../../helpers/sandboxFixture';

const fromAI = (key: string, description: string, type = 'string') =>
	`={{ $fromAI('${key}', \`${description}\`, '${type}') }}`;

describe('Stora node as an AI tool', () => {
	const fixture = useSandboxForNode();
	const run = async (parameters: IDataObject, calls: IDataObject[]) =>
		await runStoraTool({
			parameters: parameters as never,
			credentials: fixture.credentials(),
			calls,
		});
	const getContact = {
		resource: 'contact',
		operation: 'get',
		contactId: locator(fromAI('contactId', 'The contact ID, con_...')),
	};

	describe('what a model reads', () => {
		const toolTexts = new Stora().description.properties.filter(
			(property: INodeProperties) => property.name === 'toolDescription',
		);

		it('has a description of its own for every operation, each saying what it returns, shown only in the tool', () => {
			const operations = new Stora().description.properties
				.filter((property) => property.name === 'operation')
				.reduce((count, property) => count + (property.options?.length ?? 0), 0);
			expect(toolTexts).toHaveLength(operations);
			const texts = toolTexts.map((property) => String(property.default));
			expect(new Set(texts).size).toBe(texts.length);
			for (const property of toolTexts) {
				expect(property.displayOptions?.show?.['@tool']).toEqual([true]);
				expect(String(property.default)).toMatch(/[Rr]eturns|binary data/);
			}
		});

		it('hands the model the operation\'s text, not n8n\'s "Get a contact in Stora", and a schema of the $fromAI arguments', async () => {
			const tool = await run(getContact, []);
			expect(tool.name).toBe('stora_tool');
			expect(tool.description).toMatch(
				/^Get a contact .* Needs the contact ID \(starts with con_\)\. Returns the contact\./,
			);
			expect(tool.description).toContain(SIMPLIFIED_FIELDS.contact.join(', '));
			expect(tool.arguments).toEqual(['contactId']);
			const list = await run(
				{
					resource: 'contact',
					operation: 'getAll',
					limit: fromAI('limit', 'How many, 1 to 100', 'number'),
				},
				[],
			);
			expect(list.description).toMatch(
				/Returns \{ contacts: \[\.\.\.\], count, total \}: at most Limit of them \(1 to 100/,
			);
			expect(list.description).not.toBe(tool.description);
		});
	});

	describe('what a model gets back', () => {
		it('a simplified record by default, the whole record with Output: Full Records', async () => {
			const [contact] = await fixture.client.state('contacts');
			const simplified = await run(getContact, [{ contactId: contact.id }]);
			expect(simplified.calls[0].answer).toEqual([
				Object.fromEntries(
					SIMPLIFIED_FIELDS.contact
						.filter((field) => field in contact)
						.map((field) => [field, contact[field]]),
				),
			]);
			const full = await run({ ...getContact, toolOutput: 'full' }, [{ contactId: contact.id }]);
			expect(full.calls[0].answer).toEqual([contact]);
		});

		it('money with its currency in a simplified unit type', async () => {
			const [unitType] = await fixture.client.state('unit_types');
			const tool = await run(
				{
					resource: 'unitType',
					operation: 'get',
					unitTypeId: locator(fromAI('unitTypeId', 'utype_...')),
				},
				[{ unitTypeId: unitType.id }],
			);
			const [answer] = tool.calls[0].answer as IDataObject[];
			expect(answer.prices).toEqual(unitType.prices);
			expect((answer.prices as Array<{ price: IDataObject }>)[0].price).toMatchObject({
				currency: 'GBP',
				formatted: expect.stringMatching(/^£/),
			});
		});

		it('a list as one answer with its count and total, and how to see more when the limit cut it', async () => {
			const contacts = await fixture.client.state('contacts');
			const tool = await run(
				{
					resource: 'contact',
					operation: 'getAll',
					limit: fromAI('limit', 'How many, 1 to 100', 'number'),
				},
				[{ limit: 5 }],
			);
			const [answer] = tool.calls[0].answer as IDataObject[];
			expect(answer).toMatchObject({ count: 5, total: contacts.length });
			expect(answer.contacts).toHaveLength(5);
			expect(Object.keys((answer.contacts as IDataObject[])[0]).sort()).toEqual(
				[...SIMPLIFIED_FIELDS.contact].sort(),
			);
			expect(answer.more).toBe(
				`${contacts.length} contacts match, 5 shown (the limit was 5). To see others, narrow the search or filters or ask for a higher limit (at most 100).`,
			);
		});

		it('Return All as one page of at most 100 records, from one request, saying how many match', async () => {
			const categories = Array.from({ length: 150 }, (_, n) => ({ name: `Category ${n}` }));
			await fixture.client.insert('product_categories', categories);
			const total = (await fixture.client.state('product_categories')).length;
			await fixture.client.clearRequests();
			const tool = await run(
				{ resource: 'productCategory', operation: 'getAll', returnAll: true },
				[{}],
			);
			const [answer] = tool.calls[0].answer as IDataObject[];
			expect(answer).toMatchObject({ count: TOOL_MAX_RECORDS, total });
			expect(answer.product_categories).toHaveLength(TOOL_MAX_RECORDS);
			expect(answer.more).toBe(
				`${total} product categories match, 100 shown (a tool answer lists at most 100). To see others, narrow the search or filters.`,
			);
			const requests = await fixture.client.requests();
			expect(
				requests.map((request) => [request.method, request.path, request.query.limit]),
			).toEqual([['GET', '/2025-09/product_categories', '100']]);
		});

		it('at most TOOL_MAX_CHARACTERS of records, whatever the limit', async () => {
			const contacts = await fixture.client.state('contacts');
			expect(JSON.stringify(contacts).length).toBeGreaterThan(TOOL_MAX_CHARACTERS);
			const tool = await run(
				{ resource: 'contact', operation: 'getAll', limit: 100, toolOutput: 'full' },
				[{}],
			);
			const [answer] = tool.calls[0].answer as IDataObject[];
			const shown = answer.contacts as IDataObject[];
			expect(shown.length).toBeLessThan(contacts.length);
			expect(JSON.stringify(shown).length).toBeLessThanOrEqual(TOOL_MAX_CHARACTERS + 1);
			expect(answer).toMatchObject({ count: shown.length, total: contacts.length });
			expect(answer.more).toBe(
				`${contacts.length} contacts match, ${shown.length} shown (the answer is cut at 20,000 characters). To see others, narrow the search or filters.`,
			);
		});

		it('no webhook signing secret: a new endpoint comes back with it withheld', async () => {
			const tool = await run(
				{
					resource: 'webhookEndpoint',
					operation: 'create',
					name: 'Agent endpoint',
					url: 'https://hooks.example.com/stora',
					eventTypes: ['contact.created'],
				},
				[{}],
			);
			const [endpoint] = tool.calls[0].answer as IDataObject[];
			expect(endpoint.id).toMatch(/^we_/);
			expect(endpoint.secret).toBe('(withheld in tool use)');
			// Outside tool use the same operation hands the secret over (it is shown once only).
			const { items } = await runStora({
				credentials: fixture.credentials(),
				parameters: {
					resource: 'webhookEndpoint',
					operation: 'create',
					name: 'Workflow endpoint',
					url: 'https://hooks.example.com/stora',
					eventTypes: ['contact.created'],
				},
			});
			expect(String(items[0].json.secret)).toMatch(/^[0-9a-f]{64}$/);
		});
	});

	describe('bad arguments', () => {
		it('name the argument, the ID prefix and an example, before any request', async () => {
			const tool = await run(getContact, [{ contactId: '12345' }]);
			expect(tool.calls[0].error).toBe(
				'The argument contactId, "12345", is not a contact ID\n\nDetails: A contact ID starts with "con_" (for example con_a1b2c3). Use the ID as a Stora answer gives it (the "id" of the record).\nChecked in n8n before sending: nothing was sent to Stora.',
			);
			expect(await fixture.client.requests()).toEqual([]);
		});

		it('name the argument and its range with an example for a number, and the argument of an empty text', async () => {
			const limit = await run(
				{
					resource: 'contact',
					operation: 'getAll',
					limit: fromAI('limit', 'How many, 1 to 100', 'number'),
				},
				[{ limit: 500 }],
			);
			expect(limit.calls[0].error).toMatch(
				/^The argument limit, 500, is out of range\n\nDetails: Limit must be a whole number, at least 1, at most 100, for example 10\./,
			);
			const task = await run(
				{ resource: 'task', operation: 'create', title: fromAI('title', 'Short title') },
				[{ title: '   ' }],
			);
			expect(task.calls[0].error).toMatch(
				/^The argument title is empty\n\nDetails: Give Title a value: Stora needs it\./,
			);
			const choice = await run(
				{
					resource: 'contact',
					operation: 'getAll',
					limit: 5,
					filters: { status: fromAI('status', 'lead, customer or churned') },
				},
				[{ status: 'prospect' }],
			);
			expect(choice.calls[0].error).toMatch(
				/^The argument status, "prospect", is not one of the choices\n\nDetails: Choose one of: "churned", "customer", "lead"\./,
			);
			expect(await fixture.client.requests()).toEqual([]);
		});

		it("keep the editor's wording outside tool use", async () => {
			const result = await runStora({
				credentials: fixture.credentials(),
				parameters: { resource: 'contact', operation: 'getAll', limit: '={{ 500 }}' },
			});
			expect(result.error?.message).toBe('Limit: 500 is out of range');
		});
	});

	describe('both ways n8n runs a tool', () => {
		it('an agent’s call (RoutingNode) and the engine’s run of the tool node (the builder) give the model the same answer', async () => {
			const parameters = {
				resource: 'contact',
				operation: 'getAll',
				limit: fromAI('limit', 'How many, 1 to 100', 'number'),
			};
			const calls = [{ limit: 3 }, { limit: 500 }];
			const byAgent = await run(parameters, calls);
			await fixture.client.clearRequests();
			const byEngine = await runStoraToolByEngine({
				parameters: parameters as never,
				credentials: fixture.credentials(),
				calls,
			});
			expect(byEngine[0].items?.map((item) => item.json)).toEqual(byAgent.calls[0].answer);
			expect(byEngine[0].items?.map((item) => item.pairedItem)).toEqual([{ item: 0 }]);
			// The bad argument is refused before any request, with the argument named, either way.
			expect(byEngine[1].error).toMatch(/^The argument limit, 500, is out of range/);
			expect(byAgent.calls[1].error).toMatch(/^The argument limit, 500, is out of range/);
			const requests = await fixture.client.requests();
			expect(
				requests.map((request) => [request.method, request.path, request.query.limit]),
			).toEqual([['GET', '/2025-09/contacts', '3']]);
		});
	});
});
