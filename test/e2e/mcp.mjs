// Stora as tools for AI agents, in real n8n: the example workflow "Stora assistant over MCP" (examples/) behind n8n's
// MCP Server Trigger, driven by the official MCP TypeScript client over both transports (Streamable HTTP, SSE). The
// client lists the tools and checks each name, description and input schema as it receives them, calls each and
// compares the answer with the sandbox, sees a retried write applied once, reads bad arguments back as tool errors
// (nothing sent to Stora) and finds no credential in any answer. test/e2e/agent.mjs drives the same tools from n8n's
// AI Agent node.
import { loadExamples, withCredentials } from '../realN8n/examples.mjs';
import { KnownN8nBug } from '../realN8n/harness.mjs';
import { log } from '../realN8n/n8n.mjs';
import {
	answerOf,
	HTTP_REQUEST_TOOL,
	listTools,
	mcpClient,
	publishHttpRequestTool,
} from './mcpClient.mjs';

export const MCP_EXAMPLE = 'stora-assistant-mcp.json';
const TOOL_TYPE = 'n8n-nodes-stora.storaTool';

/** The example's Stora tool nodes (node name → node). */
export function exampleTools() {
	const { workflow } = loadExamples().find(({ file }) => file === MCP_EXAMPLE);
	return { workflow, tools: workflow.nodes.filter((node) => node.type === TOOL_TYPE) };
}

/** n8n's tool name for a node: its name with everything but letters, digits and dashes as "_" (nodeNameToToolName). */
export const toolName = (nodeName) => nodeName.replace(/[^a-zA-Z0-9-]/g, '_').slice(0, 63);

/** The arguments (`$fromAI` keys) each tool of the example reads: what its schema must require. */
export const EXPECTED_ARGUMENTS = {
	get_contact: ['contactId'],
	search_contacts: ['limit', 'search'],
	list_sites: [],
	list_unit_types: [],
	get_invoice: ['invoiceId'],
	list_overdue_invoices: ['limit'],
	create_task: ['contactId', 'dueAt', 'title'],
	create_note: ['content', 'recordId'],
	update_contact: ['contactId', 'phoneNumber'],
};

/** The arguments a model may leave out (a `$fromAI` default): optional in the schema, so a model need not invent them. */
export const OPTIONAL_ARGUMENTS = {
	search_contacts: ['limit'],
	list_overdue_invoices: ['limit'],
	create_task: ['contactId', 'dueAt'],
};

/**
 * The MCP checks, one `check` per concern, with the run's n8n, sandbox, credentials and workflow list; `version` is
 * the n8n under test (versions.mjs: `ai` gives the trigger's type version, or why the checks are skipped).
 */
export async function mcpChecks({
	n8n,
	sandbox,
	credentials,
	workflows,
	check,
	assert,
	assertMatch,
	version,
}) {
	if (version.ai?.skip) {
		log(`MCP Server Trigger checks skipped on n8n ${version.n8n}: ${version.ai.skip}`);
		return;
	}
	const { workflow: example } = exampleTools();
	const path = `stora-e2e-${Date.now().toString(36)}`;
	const state = {};
	const texts = [];
	const call = async (client, name, args) => {
		const answer = answerOf(await client.callTool({ name, arguments: args }));
		texts.push(answer.text);
		return answer;
	};

	await check(
		'the example "Stora assistant over MCP" publishes; the MCP client connects over Streamable HTTP and SSE and lists its tools',
		async () => {
			await sandbox.control.reset('demo');
			const copy = withCredentials(example, { storaApi: credentials.accessToken });
			const trigger = copy.nodes.find(
				(node) => node.type === '@n8n/n8n-nodes-langchain.mcpTrigger',
			);
			trigger.parameters.path = path;
			trigger.typeVersion = version.ai.mcpTrigger;
			const workflow = await n8n.createWorkflow(copy);
			workflows.push(workflow);
			await n8n.activate(workflow);
			state.workflow = workflow;
			state.client = await mcpClient(n8n, path, 'http');
			const reproduce = () =>
				publishHttpRequestTool({ n8n, sandbox, workflows, version, trigger, path: `${path}-http` });
			try {
				state.tools = await listTools(state.client, reproduce);
			} catch (error) {
				state.listFailed = error;
				throw error;
			}
			const sse = await mcpClient(n8n, path, 'sse');
			try {
				const overSse = (await sse.listTools()).tools;
				assertMatch(
					overSse.map((tool) => tool.name).sort(),
					state.tools.map((tool) => tool.name).sort(),
					'tools over SSE',
				);
			} finally {
				await sse.close();
			}
			assertMatch(
				state.tools.map((tool) => tool.name).sort(),
				Object.keys(EXPECTED_ARGUMENTS).sort(),
				'tool names',
			);
		},
	);
	if (!state.client) return;

	await check(
		'each tool as the client receives it: its own description (what it does, needs, returns) and a schema requiring exactly its arguments',
		async () => {
			if (state.listFailed)
				throw state.listFailed instanceof KnownN8nBug
					? state.listFailed
					: new Error(`no tool list: ${state.listFailed.message}`);
			const descriptions = new Set();
			for (const tool of state.tools) {
				const text = tool.description ?? '';
				assert(
					text.length >= 80 && text.length <= 1200,
					`${tool.name}: description of ${text.length} characters: ${text}`,
				);
				assert(
					!text.endsWith(' in Stora'),
					`${tool.name}: n8n's automatic description ("${text}") instead of the node's`,
				);
				assert(
					/Returns|returns/.test(text),
					`${tool.name}: the description does not say what it returns: ${text}`,
				);
				descriptions.add(text);
				const expected = EXPECTED_ARGUMENTS[tool.name];
				assertMatch(
					Object.keys(tool.inputSchema.properties ?? {}).sort(),
					expected,
					`${tool.name}: schema properties`,
				);
				const required = expected.filter(
					(key) => !(OPTIONAL_ARGUMENTS[tool.name] ?? []).includes(key),
				);
				assertMatch(
					[...(tool.inputSchema.required ?? [])].sort(),
					required,
					`${tool.name}: required arguments`,
				);
				for (const key of expected) {
					const property = tool.inputSchema.properties[key];
					assert(
						typeof property.description === 'string' && property.description.length > 10,
						`${tool.name}.${key}: no description for the model`,
					);
				}
			}
			assert(descriptions.size === state.tools.length, 'two tools share a description');
			const byName = Object.fromEntries(state.tools.map((tool) => [tool.name, tool.description]));
			assert(
				byName.get_contact.includes('con_'),
				`get_contact does not name the contact ID prefix: ${byName.get_contact}`,
			);
			assert(
				/1 to 100/.test(byName.search_contacts),
				`search_contacts does not give Limit's range: ${byName.search_contacts}`,
			);
			assert(
				/currency/.test(byName.list_unit_types),
				`list_unit_types does not say how money reads: ${byName.list_unit_types}`,
			);
			// n8n's tool schema drops what it does not name before the node runs: a model's extra argument changes nothing,
			// and the description says what the tool cannot do (README, "AI agents").
			const plain = await state.client.callTool({ name: 'list_sites', arguments: {} });
			const extra = await state.client.callTool({
				name: 'list_sites',
				arguments: { name: 'Leeds', limit: 1 },
			});
			// Either n8n refuses them naming one, or it drops them and the answer is the same as without.
			const said = JSON.stringify(extra.content ?? extra);
			assert(
				extra.isError ? /name|limit/.test(said) : said === JSON.stringify(plain.content),
				`list_sites with arguments it does not take: ${said.slice(0, 300)}`,
			);
			log(
				`MCP: list_sites with {name, limit}: ${extra.isError ? 'refused' : 'the arguments were dropped, the same answer'}`,
			);
			assert(
				/Takes no arguments/.test(byName.list_sites),
				`list_sites does not say it takes no arguments: ${byName.list_sites}`,
			);
			log(
				`MCP: ${state.tools.length} tools, descriptions ${Math.min(...[...descriptions].map((d) => d.length))}–${Math.max(...[...descriptions].map((d) => d.length))} characters`,
			);
		},
	);

	await check(
		'reads: get a contact, search contacts (bounded, with how to see more), sites, unit types with prices, an invoice, overdue invoices: each as the sandbox holds it',
		async () => {
			const client = state.client;
			const contacts = await sandbox.control.state('contacts');
			const contact = contacts.find((c) => c.email);
			let answer = await call(client, 'get_contact', { contactId: contact.id });
			assert(!answer.isError, `get_contact: ${answer.text}`);
			assertMatch(
				answer.json,
				[
					{
						id: contact.id,
						email: contact.email,
						full_name: contact.full_name,
						status: contact.status,
					},
				],
				'get_contact answer',
			);
			const simplified = [
				'id',
				'email',
				'full_name',
				'phone_number',
				'status',
				'type',
				'created_at',
				'updated_at',
			];
			assertMatch(
				Object.keys(answer.json[0]).sort(),
				simplified.sort(),
				'get_contact answer: the simplified fields only',
			);

			const smiths = contacts.filter((c) => /smith/i.test(`${c.full_name} ${c.email}`));
			answer = await call(client, 'search_contacts', { search: 'Smith', limit: 2 });
			assert(!answer.isError, `search_contacts: ${answer.text}`);
			const [list] = answer.json;
			assert(
				list.contacts.length === 2 && list.count === 2 && list.total === smiths.length,
				`search_contacts: ${answer.text.slice(0, 400)}`,
			);
			for (const found of list.contacts)
				assert(
					smiths.some((c) => c.id === found.id),
					`search_contacts returned ${found.id}, not a Smith`,
				);
			assert(
				/match, 2 shown/.test(list.more) && /higher limit \(at most 100\)/.test(list.more),
				`search_contacts: no note on how to see more: ${list.more}`,
			);

			const sites = await sandbox.control.state('sites');
			answer = await call(client, 'list_sites', {});
			assertMatch(
				answer.json[0].sites.map((s) => s.id).sort(),
				sites.map((s) => s.id).sort(),
				'list_sites',
			);

			const unitTypes = await sandbox.control.state('unit_types');
			answer = await call(client, 'list_unit_types', {});
			assert(!answer.isError, `list_unit_types: ${answer.text}`);
			const listed = answer.json[0].unit_types;
			const site = sites[0];
			const atSite = unitTypes.filter((u) => u.site?.id === site.id);
			assertMatch(
				listed
					.filter((u) => u.site?.id === site.id)
					.map((u) => u.id)
					.sort(),
				atSite.map((u) => u.id).sort(),
				`unit types at ${site.name}`,
			);
			for (const unitType of listed) {
				const stored = unitTypes.find((u) => u.id === unitType.id);
				assertMatch(unitType.prices, stored.prices, `${unitType.id}: prices`);
				for (const { price } of unitType.prices)
					assert(
						/^[A-Z]{3}$/.test(price.currency) && price.formatted,
						`${unitType.id}: a price without its currency`,
					);
			}

			const invoices = await sandbox.control.state('invoices');
			const invoice = invoices[0];
			answer = await call(client, 'get_invoice', { invoiceId: invoice.id });
			assertMatch(
				answer.json,
				[
					{
						id: invoice.id,
						number: invoice.number,
						amount_due: invoice.amount_due,
						status: invoice.status,
					},
				],
				'get_invoice',
			);
			assert(answer.json[0].amount_due.currency, 'get_invoice: amount_due without its currency');

			const overdue = invoices.filter((i) => i.collection_status === 'overdue');
			assert(overdue.length > 0, 'the demo seed has no overdue invoice');
			answer = await call(client, 'list_overdue_invoices', { limit: 100 });
			assertMatch(
				answer.json[0].invoices.map((i) => i.id).sort(),
				overdue.map((i) => i.id).sort(),
				'list_overdue_invoices',
			);
			assertMatch(
				answer.json[0],
				{ count: overdue.length, total: overdue.length, more: { $absent: true } },
				'list_overdue_invoices: count',
			);
		},
	);

	// n8n's tool schema drops an argument it does not name before the node runs, so the node cannot refuse
	// it; the answer is the one without it, and nothing of it reaches Stora. The descriptions say what each tool takes.
	await check(
		'every tool called with an argument it does not take answers as without it, and the argument never reaches Stora',
		async () => {
			const client = state.client;
			const [contact] = await sandbox.control.state('contacts');
			const [invoice] = await sandbox.control.state('invoices');
			const calls = {
				get_contact: { contactId: contact.id },
				search_contacts: { search: 'Smith' },
				list_sites: {},
				list_unit_types: {},
				get_invoice: { invoiceId: invoice.id },
				list_overdue_invoices: { limit: 5 },
				update_contact: { contactId: contact.id, phoneNumber: '+44 113 496 0001' },
			};
			for (const [name, args] of Object.entries(calls)) {
				const plain = await call(client, name, args);
				await sandbox.control.clearRequests();
				const extra = await call(client, name, {
					...args,
					siteId: 'site_unexpected',
					onlyOverdue: true,
				});
				assert(
					!plain.isError && !extra.isError,
					`${name}: ${plain.text.slice(0, 200)} / ${extra.text.slice(0, 200)}`,
				);
				const strip = (text) => text.replace(/"updated_at":"[^"]*"/g, '');
				assert(
					strip(extra.text) === strip(plain.text),
					`${name}: with an extra argument the answer differs:\n${extra.text.slice(0, 300)}`,
				);
				const sent = JSON.stringify(await sandbox.control.requests());
				assert(
					!/site_unexpected|onlyOverdue/.test(sent),
					`${name}: the extra argument reached Stora: ${sent.slice(0, 300)}`,
				);
			}
			// The tools that create a record: the extra argument changes nothing of what is sent.
			for (const [name, args] of Object.entries({
				create_task: { title: 'Extra argument check' },
				create_note: { content: 'Extra argument check', recordId: contact.id },
			})) {
				await sandbox.control.clearRequests();
				const extra = await call(client, name, {
					...args,
					siteId: 'site_unexpected',
					onlyOverdue: true,
				});
				assert(!extra.isError, `${name}: ${extra.text.slice(0, 200)}`);
				const sent = JSON.stringify(await sandbox.control.requests());
				assert(
					!/site_unexpected|onlyOverdue/.test(sent),
					`${name}: the extra argument reached Stora: ${sent.slice(0, 300)}`,
				);
			}
			log(
				`MCP: ${Object.keys(calls).length + 2} tools called with arguments they do not take: n8n dropped them, the answers unchanged`,
			);
		},
	);

	await check(
		'writes: create a task (a lost answer retried: applied once), create a note, update a contact; each lands in the sandbox once',
		async () => {
			const client = state.client;
			const [contact] = await sandbox.control.state('contacts');
			// The first POST is applied by the sandbox, then the connection drops: the node retries with the same key.
			await sandbox.control.fault({ method: 'POST', path: '/2025-09/tasks' }, [
				{ reset_after: true },
			]);
			await sandbox.control.clearRequests();
			let answer = await call(client, 'create_task', {
				title: 'Call back about the 50 sq ft unit',
				contactId: contact.id,
				dueAt: '2026-12-01T10:00:00Z',
			});
			assert(!answer.isError, `create_task: ${answer.text}`);
			const created = answer.json[0];
			const tasks = (await sandbox.control.state('tasks')).filter(
				(t) => t.title === 'Call back about the 50 sq ft unit',
			);
			assert(
				tasks.length === 1 && tasks[0].id === created.id,
				`create_task: ${tasks.length} tasks in the sandbox (answer ${answer.text.slice(0, 300)})`,
			);
			assertMatch(
				tasks[0],
				{ resource: { id: contact.id }, due_at: { $regex: '^2026-12-01T10:00:00' } },
				'the task in the sandbox',
			);
			const posts = (await sandbox.control.requests()).filter(
				(r) => r.method === 'POST' && r.path === '/2025-09/tasks',
			);
			assert(
				posts.length === 2 &&
					posts[0].headers['idempotency-key'] &&
					posts[0].headers['idempotency-key'] === posts[1].headers['idempotency-key'],
				`create_task: ${posts.length} POSTs, keys ${posts.map((p) => p.headers['idempotency-key']).join(', ')}`,
			);

			answer = await call(client, 'create_note', {
				content: 'Prefers a call after 5 pm.',
				recordId: contact.id,
			});
			assert(!answer.isError, `create_note: ${answer.text}`);
			const notes = (await sandbox.control.state('notes')).filter(
				(n) => n.content === 'Prefers a call after 5 pm.',
			);
			assert(
				notes.length === 1 && notes[0].id === answer.json[0].id,
				`create_note: ${notes.length} notes (answer ${answer.text.slice(0, 300)})`,
			);

			answer = await call(client, 'update_contact', {
				contactId: contact.id,
				phoneNumber: '+44 113 496 0000',
			});
			assert(!answer.isError, `update_contact: ${answer.text}`);
			const updated = (await sandbox.control.state('contacts')).find((c) => c.id === contact.id);
			assert(
				updated.phone_number === '+44 113 496 0000' &&
					answer.json[0].phone_number === '+44 113 496 0000',
				`update_contact: ${answer.text.slice(0, 300)}`,
			);
		},
	);

	await check(
		'bad arguments come back as tool errors naming the argument, what it takes and an example, with nothing sent to Stora',
		async () => {
			const client = state.client;
			await sandbox.control.clearRequests();
			const cases = [
				[
					'get_contact',
					{ contactId: '12345' },
					/The argument contactId, "12345", is not a contact ID[\s\S]*"con_"[\s\S]*con_a1b2c3/,
				],
				[
					'search_contacts',
					{ search: 'Smith', limit: 500 },
					/The argument limit, "?500"?, is out of range[\s\S]*at most 100, for example 10/,
				],
				[
					'create_task',
					{ title: '   ', contactId: 'con_x1', dueAt: '2026-12-01T10:00:00Z' },
					/The argument title is empty/,
				],
				['create_note', { content: 'x', recordId: 'site_1' }, /The argument recordId/],
			];
			for (const [name, args, expected] of cases) {
				const answer = await call(client, name, args);
				assert(
					answer.isError === true,
					`${name}(${JSON.stringify(args)}) is not a tool error: ${answer.text.slice(0, 300)}`,
				);
				assert(
					expected.test(answer.text),
					`${name}(${JSON.stringify(args)}): ${answer.text.slice(0, 500)}`,
				);
				assert(answer.text.length < 700, `${name}: an error of ${answer.text.length} characters`);
			}
			const sent = await sandbox.control.requests();
			assert(
				sent.length === 0,
				`bad arguments reached Stora: ${sent.map((r) => `${r.method} ${r.path}`).join(', ')}`,
			);
		},
	);

	// n8n wraps every tool's error in a NodeOperationError and its MCP Server Trigger sends `<class name>: <message>`:
	// the prefix is n8n's, for its own nodes too. Answering errors as results would drop it, and with it `isError`,
	// the failed run in the execution and Retry On Fail (docs/usage.md, "Errors a model can act on").
	await check(
		"a tool error reads as n8n frames every node's over MCP: n8n's own HTTP Request tool in the same run gets the same prefix, then ours is a sentence",
		async () => {
			const trigger = example.nodes.find(
				(node) => node.type === '@n8n/n8n-nodes-langchain.mcpTrigger',
			);
			const { client, close } = await publishHttpRequestTool({
				n8n,
				sandbox,
				workflows,
				version,
				trigger,
				path: `${path}-http-error`,
			});
			try {
				// By name: n8n 2.20 cannot list it (tool-schema-not-converted), and calls it all the same.
				const their = answerOf(
					await client.callTool({ name: toolName(HTTP_REQUEST_TOOL), arguments: {} }),
				);
				const ours = await call(state.client, 'get_contact', { contactId: '12345' });
				const prefix = (text) => /^(\w*Error): /.exec(text)?.[1];
				assert(
					their.isError === true && ours.isError === true,
					`isError: theirs ${their.isError}, ours ${ours.isError}`,
				);
				assert(
					prefix(their.text) !== undefined && prefix(their.text) === prefix(ours.text),
					`theirs "${their.text.slice(0, 120)}", ours "${ours.text.slice(0, 120)}"`,
				);
				assert(
					ours.text
						.slice(prefix(ours.text).length + 2)
						.startsWith('The argument contactId, "12345", is not a contact ID'),
					ours.text.slice(0, 200),
				);
				log(
					`MCP: a tool error, n8n's HTTP Request tool: "${their.text.split('\n')[0].slice(0, 100)}"; Stora: "${ours.text.split('\n')[0].slice(0, 100)}"`,
				);
			} finally {
				await close();
			}
		},
	);

	await check(
		'no credential in any of the tool answers (results and errors): not the access token, no Authorization header',
		async () => {
			const all = texts.join('\n');
			assert(texts.length >= 12, `only ${texts.length} answers collected`);
			assert(!all.includes(sandbox.token), 'the access token is in a tool answer');
			assert(!/Bearer /.test(all), 'an Authorization header is in a tool answer');
			await state.client.close();
			await n8n.deactivate(state.workflow);
		},
	);
}
