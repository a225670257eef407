// The n8n versions this package supports, and what the test harness needs to know about each: the one place for the
// n8n version, the Node it runs on and the differences between n8n's APIs. n8n.mjs installs and starts the selected
// version; run.mjs, `npm run test:versions` (scripts/versions.mjs) and .ci/run read it. The README's version table
// is written from test:versions' output, not from here.
//
// Choose a version for one run with E2E_N8N_VERSION (an exact version, its line such as 1.123.x, `oldest` or
// `newest`); without it everything runs against the newest.

/**
 * Newest installable patch of each supported line, oldest first (`npm view n8n versions --json`). The registry's
 * newest n8n is 2.41.3 (there is no 2.41.2), and it does not install: 21 of the exact versions it pins are not in the
 * registry (@n8n/agents 0.26.2, n8n-core 2.41.2, @n8n/config 2.39.1, n8n-editor-ui 2.41.1, ...; checked 2026-11-27),
 * so 2.41.1 is the newest 2.x that installs. test/realN8n/registry.mjs checks this again at every
 * `npm run test:versions` and writes the answer under the versions tables.
 * - `node`: the Node major the version runs on here. n8n 1.123's default `vm` expression engine loads isolated-vm
 *   6.2, whose prebuilt binaries cover Node 22 and 24 only (on Node 20 it would need compiling, or the deprecated
 *   `legacy` engine); 22 is the newest Node 1.123 was released for in n8n's own images.
 * - `api`: where n8n's REST API or its request helpers differ, read by n8n.mjs and run.mjs (never by the package,
 *   which detects what it runs on).
 * - `knownBugs`: n8n bugs that have nothing to do with this package (KNOWN_N8N_BUGS), reproduced by the run itself.
 */
/**
 * n8n's AI nodes the tool checks use (test/e2e/mcp.mjs, agent.mjs), by type version: every supported line has the MCP
 * Server Trigger 2 (2.1 only from 2.41), the AI Agent 3 and the OpenAI Chat Model 1.2 (chat completions; 1.3 adds the
 * Responses API). A version without one sets `ai: { skip: '<why>' }` and the checks log that and do not run.
 */
const AI_NODES = { mcpTrigger: 2, agent: 3, chatModel: 1.2 };

export const N8N_VERSIONS = [
	{
		n8n: '1.123.81',
		line: '1.123.x',
		node: 22,
		api: {
			// POST /rest/workflows refuses a workflow without `active` (1.x keeps it on the workflow entity).
			createNeedsActive: true,
			// n8n-workflow 1.x takes `ignoreHttpStatusErrors` only as a boolean: the package's OAuth2 path for it sends
			// the expired token's request once more, so each expiry shows two 401s before the token request.
			statusErrorExceptions: false,
			// GET /rest/executions/:id answers 500 while the execution runs.
			executionBusy500: false,
			// n8n applies PKCE to an authorization-code credential's `usePkce` switch (before 2.41 only to its own
			// `pkce` grant type, so the Stora OAuth2 credential's Use PKCE has no effect there).
			pkceSwitch: false,
			// A webhook node's `onReceived` answer goes out before the execution is stored (2.x stores first, and answers
			// 500 when it cannot): an execution n8n cannot store is lost to Stora's retries (test/e2e/triggerLife.mjs).
			answersBeforeStoring: true,
			// n8n's HTTP Request node applies a credential's Allowed HTTP Request Domains to redirects only: its request
			// path (requestWithAuthentication → proxyRequestToAxios) never checks the first URL. 2.x checks it.
			httpRequestChecksDomains: false,
			// What n8n's MCP server offers its AI workflow builder clients: false for no builder tools, else whether
			// search_nodes shows a node's builderHint.searchHint (2.20 reads an older member, `message`) and whether
			// get_node_types serves a community node's definitions with its parameters' hints.
			builderTools: false,
		},
		knownBugs: ['vm-engine-code-node-item'],
		ai: AI_NODES,
	},
	{
		n8n: '2.20.12',
		line: '2.20.x',
		node: 24,
		api: {
			createNeedsActive: false,
			statusErrorExceptions: true,
			executionBusy500: true,
			pkceSwitch: false,
			httpRequestChecksDomains: true,
			builderTools: { nodeHint: false, parameterHints: false },
		},
		knownBugs: [],
		ai: AI_NODES,
	},
	{
		n8n: '2.30.8',
		line: '2.30.x',
		node: 24,
		api: {
			createNeedsActive: false,
			statusErrorExceptions: true,
			executionBusy500: false,
			pkceSwitch: false,
			httpRequestChecksDomains: true,
			builderTools: { nodeHint: true, parameterHints: true },
		},
		knownBugs: [],
		ai: AI_NODES,
	},
	{
		n8n: '2.41.1',
		line: '2.41.x',
		node: 24,
		api: {
			createNeedsActive: false,
			statusErrorExceptions: true,
			executionBusy500: false,
			pkceSwitch: true,
			httpRequestChecksDomains: true,
			builderTools: { nodeHint: true, parameterHints: true },
		},
		knownBugs: [],
		ai: AI_NODES,
		// The Chromium parts (OAuth2 in the editor, editor checks) run against the newest only.
		browser: true,
	},
];

/**
 * npm overrides of every host project (a version may set its own `overrides`): n8n-nodes-base's `xlsx` is a tarball
 * on a CDN this machine cannot reach, and linkedom 0.18.15 needs `cssomnom`, which the registry lacks.
 */
export const HOST_OVERRIDES = { xlsx: '0.18.5', linkedom: '0.18.12' };

export const OLDEST = N8N_VERSIONS[0];
export const NEWEST = N8N_VERSIONS.at(-1);

/**
 * n8n bugs that break workflow cases here and have nothing to do with the package. Each has a reproduction made of
 * n8n's own nodes only, which the run executes against the n8n under test before the cases: a case that fails on
 * a version where the reproduction shows the bug, and that `affects` names, is reported as that bug and not counted.
 */
export const KNOWN_N8N_BUGS = {
	// Reproduced inside its check (test/e2e/contract.mjs), which needs the run's proxy and https sandbox: not listed
	// in any version's `knownBugs`, so it has no `reproduction` here.
	'proxy-tunnel-checks-certificate': {
		title:
			'n8n before 2.41 (seen in 1.123, 2.20 and 2.30): its request helpers check the certificate of an https target reached through a proxy, whatever Ignore SSL Issues says',
		explanation:
			'These versions give `rejectUnauthorized: false` to the HttpsProxyAgent they make for a proxy, which applies it to the ' +
			'connection to the proxy, not to the TLS connection to the target inside the tunnel: a self-signed target fails ' +
			'with "self-signed certificate" (n8n 2.41 skips the check).',
		steps:
			"n8n's HTTP Request node, GET an https URL with a self-signed certificate, Options → Proxy (an http forward proxy) " +
			'and Ignore SSL Issues on: the proxy opens the tunnel, the run fails with "self-signed certificate"; without the ' +
			"proxy it works. test/e2e/contract.mjs runs it beside the Stora node's run the same way.",
	},
	// Reproduced inside its checks (test/e2e/mcp.mjs, with n8n's own HTTP Request tool behind an MCP Server Trigger;
	// test/e2e/agent.mjs, where the model is offered n8n's own schema object).
	'tool-schema-not-converted': {
		title:
			"n8n 2.20 does not turn tools' argument schemas into JSON Schema: MCP clients refuse its tool list, and an AI Agent's model is offered no argument names",
		explanation:
			'Its MCP Server Trigger answers `tools/list` with input schemas without `"type": "object"`, which the MCP specification ' +
			'requires: the official MCP TypeScript client rejects the whole list ("tools[0].inputSchema.type: expected ' +
			'"object""), n8n\'s own tools as well. Its AI Agent offers the model each tool\'s parameters as n8n\'s internal ' +
			'(zod) schema object serialized, not a JSON Schema, so the model learns no argument names. Tools called by name ' +
			'with the right arguments work.',
		steps:
			"An MCP Server Trigger with n8n's HTTP Request tool as its one tool, published; the MCP TypeScript client " +
			'connects and calls listTools: it throws. test/e2e/mcp.mjs runs it when the Stora tools cannot be listed.',
	},
	'vm-engine-code-node-item': {
		title:
			"n8n 1.123's default `vm` expression engine reads a Code node's output through `$('<Code node>')` as null",
		explanation:
			"With the default N8N_EXPRESSION_ENGINE=vm, `$('Code').item.json.x` and `$('Code').first().json.x` are null " +
			'when the node named is a Code node, while `$json.x` reads the same item; the `legacy` engine reads both. ' +
			'Cases that collect a list in a Code node and read it further on get null there.',
		steps:
			"Webhook → Code (`return [{ json: { word: 'expected' } }];`) → Set with `{{ $('Code').item.json.word }}` and " +
			'`{{ $json.word }}`: the first is null, the second `expected` (both `expected` with N8N_EXPRESSION_ENGINE=legacy, ' +
			'and on n8n 2.x).',
		// Webhook → Code (one item) → Set reading that item both ways; n8n's own nodes only.
		reproduction: {
			workflow: {
				name: 'Known n8n bug: $(Code node) in the vm engine',
				nodes: [
					{
						id: 'a1b2c3d4-0000-4000-8000-000000000001',
						name: 'Webhook',
						type: 'n8n-nodes-base.webhook',
						typeVersion: 2,
						position: [0, 0],
						webhookId: 'a1b2c3d4-0000-4000-8000-0000000000aa',
						parameters: {
							httpMethod: 'POST',
							path: 'known-bug-code-node-item',
							responseMode: 'lastNode',
							options: {},
						},
					},
					{
						id: 'a1b2c3d4-0000-4000-8000-000000000002',
						name: 'Code',
						type: 'n8n-nodes-base.code',
						typeVersion: 2,
						position: [240, 0],
						parameters: { jsCode: "return [{ json: { list: [1, 2], word: 'expected' } }];" },
					},
					{
						id: 'a1b2c3d4-0000-4000-8000-000000000003',
						name: 'Set',
						type: 'n8n-nodes-base.set',
						typeVersion: 3.4,
						position: [480, 0],
						parameters: {
							mode: 'manual',
							assignments: {
								assignments: [
									{
										id: 'x1',
										name: 'viaNode',
										value: "={{ $('Code').item.json.word }}",
										type: 'string',
									},
									{ id: 'x2', name: 'viaJson', value: '={{ $json.word }}', type: 'string' },
								],
							},
							options: {},
						},
					},
				],
				connections: {
					Webhook: { main: [[{ node: 'Code', type: 'main', index: 0 }]] },
					Code: { main: [[{ node: 'Set', type: 'main', index: 0 }]] },
				},
				settings: { executionOrder: 'v1' },
			},
			webhookPath: 'known-bug-code-node-item',
			// The bug shows when `$json` reads the word and `$('Code')` does not.
			shows: (answer) => answer?.viaJson === 'expected' && answer?.viaNode !== 'expected',
		},
		// The cases that read a Code node of their workflow through `$('<its name>')`.
		affects: (testCase) => {
			const workflow = testCase.workflow ?? testCase;
			const text = JSON.stringify(workflow);
			return (workflow.nodes ?? []).some(
				(node) => node.type === 'n8n-nodes-base.code' && text.includes(`$('${node.name}')`),
			);
		},
	},
};

/** The version E2E_N8N_VERSION names (exact version, line like 1.123.x or 1.123, `oldest`, `newest`), else the newest. */
export function selectedVersion(name = process.env.E2E_N8N_VERSION) {
	if (!name || name === 'newest') return NEWEST;
	if (name === 'oldest') return OLDEST;
	const found = N8N_VERSIONS.find(
		(v) => v.n8n === name || v.line === name || v.line === `${name}.x`,
	);
	if (!found)
		throw new Error(
			`E2E_N8N_VERSION=${name}: not a supported n8n (${N8N_VERSIONS.map((v) => v.n8n).join(', ')}, oldest, newest)`,
		);
	return found;
}
