// The MCP client side of the real-n8n checks (test/e2e/mcp.mjs, checks/builderHints.mjs): connecting to an MCP Server
// Trigger or to n8n's own MCP server, reading a tool's answer, and n8n's own HTTP Request tool behind a trigger of its
// own, to compare with and to tell n8n's bugs from the package's.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

import { KnownN8nBug } from '../realN8n/harness.mjs';

/** A connected MCP client for a path of the n8n instance; `transport` is 'http' (Streamable HTTP) or 'sse'. */
export async function mcpClient(n8n, path, transport = 'http') {
	const url = new URL(`${n8n.base}/mcp/${path}`);
	const client = new Client({ name: 'stora-e2e', version: '1.0.0' });
	await client.connect(
		transport === 'sse' ? new SSEClientTransport(url) : new StreamableHTTPClientTransport(url),
	);
	return client;
}

/**
 * A connected MCP client for n8n's own MCP server (Settings → Instance-level MCP), which n8n's AI workflow builder tools
 * are served from: the test turns the server on, takes a fresh API key and connects with it. `close` turns it off again.
 */
export async function instanceMcpClient(n8n) {
	await n8n.request('PATCH', '/rest/mcp/settings', { mcpAccessEnabled: true });
	const { apiKey } = await n8n.request('POST', '/rest/mcp/api-key/rotate');
	const client = new Client({ name: 'stora-e2e', version: '1.0.0' });
	await client.connect(
		new StreamableHTTPClientTransport(new URL(`${n8n.base}/mcp-server/http`), {
			requestInit: { headers: { authorization: `Bearer ${apiKey}` } },
		}),
	);
	const close = async () => {
		await client.close();
		await n8n.request('PATCH', '/rest/mcp/settings', { mcpAccessEnabled: false });
	};
	return { client, close };
}

/** A tool call's text answer, parsed when it is JSON (n8n hands a tool's items back as a JSON array). */
export function answerOf(result) {
	const text = result.content?.map((part) => part.text ?? '').join('') ?? '';
	try {
		return { ...result, text, json: JSON.parse(text) };
	} catch {
		return { ...result, text };
	}
}

/** The node name of n8n's HTTP Request tool in publishHttpRequestTool's workflow. */
export const HTTP_REQUEST_TOOL = 'n8n HTTP Request';

/** An MCP Server Trigger at `path` with n8n's own HTTP Request tool (a list Stora does not have) as its one tool. */
export async function publishHttpRequestTool({
	n8n,
	sandbox,
	workflows,
	version,
	trigger: example,
	path,
}) {
	const trigger = structuredClone(example);
	trigger.parameters.path = path;
	trigger.typeVersion = version.ai.mcpTrigger;
	const theirs = {
		name: HTTP_REQUEST_TOOL,
		type: 'n8n-nodes-base.httpRequestTool',
		typeVersion: 4.2,
		position: [0, 200],
	};
	theirs.parameters = {
		toolDescription: 'Reads a list that Stora does not have',
		url: `${sandbox.url}/2025-09/no-such-list`,
		options: {},
	};
	const workflow = await n8n.createWorkflow({
		name: 'e2e: n8n HTTP Request tool over MCP',
		nodes: [trigger, theirs],
		connections: {
			[theirs.name]: { ai_tool: [[{ node: trigger.name, type: 'ai_tool', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
	});
	workflows.push(workflow);
	await n8n.activate(workflow);
	const client = await mcpClient(n8n, path, 'http');
	const close = async () => {
		await client.close();
		await n8n.deactivate(workflow);
	};
	return { client, close };
}

const schemaWithoutType = (error) =>
	/inputSchema/.test(error?.message) && /expected \\?"object\\?"/.test(error?.message);

/**
 * `tools/list`, where n8n's answer fails the MCP client's schema check (n8n 2.20 sends input schemas without `type`):
 * the same list from n8n's own HTTP Request tool tells whether it is n8n's bug, reported as such.
 */
export async function listTools(client, reproduce) {
	try {
		return (await client.listTools()).tools;
	} catch (error) {
		if (!schemaWithoutType(error)) throw error;
		const theirs = await reproduce();
		try {
			await theirs.client.listTools();
		} catch (their) {
			if (schemaWithoutType(their)) throw new KnownN8nBug('tool-schema-not-converted', error);
		} finally {
			await theirs.close();
		}
		throw error;
	}
}
