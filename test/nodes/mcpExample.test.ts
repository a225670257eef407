/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test under test/, never published */
/**
 * Every tool of examples/stora-assistant-mcp.json says only what it does. Each tool is built through
 * n8n-core as the MCP Server Trigger builds it (test/helpers/aiTool.ts), called with valid arguments against the
 * sandbox, and its description is checked against its parameters and its real answer:
 * - every argument of its schema is named (in backticks), and nothing in backticks is neither an argument nor a field
 *   of its answer; a tool without arguments says "Takes no arguments";
 * - a filter or sort the workflow fixed is stated; an argument the model may leave out is optional in the schema;
 * - an ID argument named for a record kind takes only that kind.
 */
import fs from 'node:fs';
import path from 'node:path';

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { runStoraTool } from '../helpers/aiTool';
import { tokenCredentials } from '../helpers/n8n';
import { startSandbox } from '../../sandbox';

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;

const example = JSON.parse(
	fs.readFileSync(path.join(__dirname, '../../examples/stora-assistant-mcp.json'), 'utf8'),
) as {
	nodes: Array<{ name: string; type: string; parameters: INodeParameters }>;
};
const tools = example.nodes.filter((node) => node.type === 'n8n-nodes-stora.storaTool');

/** Every key of an answer, at any depth (what the description may name as a field). */
function keysOf(value: unknown, into = new Set<string>()): Set<string> {
	if (Array.isArray(value)) value.forEach((entry) => keysOf(entry, into));
	else if (value && typeof value === 'object') {
		for (const [key, inner] of Object.entries(value)) {
			into.add(key);
			keysOf(inner, into);
		}
	}
	return into;
}

/** Every `$fromAI` key of the parameters, and whether it has a default (optional to the model). */
function fromAiArguments(parameters: unknown): Map<string, boolean> {
	const found = new Map<string, boolean>();
	const text = JSON.stringify(parameters);
	for (const match of text.matchAll(
		/\$fromAI\('([A-Za-z0-9_]+)',\s*`[^`]*`,\s*'[a-z]+'(,\s*[^)]+)?\)/g,
	))
		found.set(match[1], !!match[2]);
	return found;
}

describe('the MCP example: each tool says only what it does', () => {
	let sandbox: Sandbox;
	let valid: Record<string, IDataObject>;

	beforeAll(async () => {
		sandbox = await startSandbox({ seed: 'demo' });
		const [contact] = sandbox.core.all('contacts');
		const [invoice] = sandbox.core.all('invoices');
		valid = {
			get_contact: { contactId: contact.id },
			search_contacts: { search: String(contact.full_name ?? contact.email).split(' ')[0] },
			list_sites: {},
			list_unit_types: {},
			get_invoice: { invoiceId: invoice.id },
			list_overdue_invoices: {},
			create_task: { title: 'Call back about a 50 sq ft unit' },
			create_note: { content: 'Asked about parking', recordId: contact.id },
			update_contact: { contactId: contact.id, phoneNumber: '+44 113 496 0000' },
		};
	});
	afterAll(async () => await sandbox.close());

	it('covers every tool of the example', () => {
		expect(tools.map((tool) => tool.name).sort()).toEqual(Object.keys(valid).sort());
	});

	it.each(tools.map((tool) => [tool.name, tool] as const))('%s', async (name, tool) => {
		const run = await runStoraTool({
			parameters: tool.parameters,
			credentials: tokenCredentials(sandbox.url, sandbox.token),
			calls: [valid[name]],
			name,
		});
		const [call] = run.calls;
		expect(call.error).toBeUndefined();
		const description = run.description;
		const declared = fromAiArguments(tool.parameters);

		// Arguments: the schema's, each named; optional exactly where the workflow gave a default.
		expect(run.arguments).toEqual([...declared.keys()].sort());
		for (const argument of run.arguments) expect(description).toContain(`\`${argument}\``);
		expect(run.optional).toEqual(
			[...declared]
				.filter(([, optional]) => optional)
				.map(([key]) => key)
				.sort(),
		);
		if (run.arguments.length === 0) expect(description).toMatch(/Takes no arguments/);
		for (const optional of run.optional)
			expect(description).toMatch(new RegExp(`optionally[^.]*\`${optional}\``));

		// Nothing in backticks that is neither an argument nor a field of the real answer.
		const fields = keysOf(call.answer);
		const named = [...description.matchAll(/`([a-z_A-Z]+)`/g)].map((match) => match[1]);
		// `more` is in a list's answer only when not every match is shown, as its description says.
		const mayBeAbsent = /`more` says/.test(description) ? ['more'] : [];
		expect(
			named.filter(
				(word) => !run.arguments.includes(word) && !fields.has(word) && !mayBeAbsent.includes(word),
			),
		).toEqual([]);

		// What the workflow fixed is stated as a fact; Limit is named only where the model sets it.
		const filters = (tool.parameters.filters ?? {}) as IDataObject;
		for (const [filter, value] of Object.entries(filters)) {
			if (String(value).includes('$fromAI')) continue;
			for (const fixed of [value].flat()) expect(description).toContain(String(fixed));
			expect(description).toMatch(/only/);
			expect(filter).toBeTruthy();
		}
		const options = (tool.parameters.options ?? {}) as IDataObject;
		if (options.sortBy) {
			expect(description).toContain(`sorted by ${String(options.sortBy).replace(/_/g, ' ')}`);
			expect(description).toContain(
				options.sortDirection === 'DESC' ? 'newest first' : 'oldest first',
			);
		} else expect(description).not.toMatch(/sorted|newest first|oldest first/);
		if (!declared.has('limit')) expect(description).not.toMatch(/\bLimit\b|`limit`/);
		expect(description).not.toMatch(/filtered by|optionally filtered/);
	});

	it('create_task: contactId takes a contact only (an invoice ID is refused naming the argument), and may be left out with dueAt', async () => {
		const tool = tools.find((node) => node.name === 'create_task')!;
		const [invoice] = sandbox.core.all('invoices');
		const run = await runStoraTool({
			parameters: tool.parameters,
			credentials: tokenCredentials(sandbox.url, sandbox.token),
			calls: [
				{ title: 'About an invoice', contactId: invoice.id },
				{ title: 'No link, no due date' },
			],
			name: 'create_task',
		});
		expect(run.calls[0].error).toMatch(/contactId/);
		expect(run.calls[0].error).toMatch(/con_/);
		expect(run.calls[1].error).toBeUndefined();
		expect(run.calls[1].answer).toEqual([
			expect.objectContaining({ title: 'No link, no due date', due_at: null, resource: null }),
		]);
		expect(sandbox.core.all('tasks').some((task) => task.title === 'About an invoice')).toBe(false);
	});
});
