// "Builder hints": what n8n's AI workflow builder reads of the Stora nodes, asked of n8n's own MCP server with its
// builder tools (search_nodes, get_node_types), as an MCP client such as Claude or Cursor asks it. What each n8n reads
// is in test/realN8n/versions.mjs (api.builderTools), held both ways: an n8n that starts or stops reading a hint fails
// here. An n8n without those tools (1.123) reads none: there the nodes load with them. `--only builder` runs these.
import { createRequire } from 'node:module';
import path from 'node:path';

import { walk } from '../../helpers/properties.ts';
import { N8N_VERSION, REPO, VERSION } from '../../realN8n/n8n.mjs';
import { STORA, STORA_POLL_TRIGGER, STORA_TRIGGER } from '../../realN8n/workflow.mjs';
import { answerOf, instanceMcpClient } from '../mcpClient.mjs';

/** The built node descriptions, by node type: what n8n loaded from the packed package. */
function descriptions() {
	const load = (file, name) =>
		new (createRequire(import.meta.url)(path.join(REPO, 'dist/nodes', file))[name])().description;
	return {
		[STORA]: load('Stora/Stora.node.js', 'Stora'),
		[STORA_TRIGGER]: load('StoraTrigger/StoraTrigger.node.js', 'StoraTrigger'),
		[STORA_POLL_TRIGGER]: load('StoraPollTrigger/StoraPollTrigger.node.js', 'StoraPollTrigger'),
	};
}

const oneLine = (text) => text.replace(/\s+/g, ' ');

export async function builderHintChecks(ctx) {
	const { n8n, check, assert } = ctx;
	const selects = !ctx.only || 'builder hints'.includes(ctx.only.toLowerCase());
	if (!selects) return;
	console.log("\nBuilder hints: n8n's MCP server and its workflow-builder tools");
	const nodes = descriptions();

	if (!VERSION.api.builderTools) {
		await check(
			`n8n ${N8N_VERSION}'s MCP server has no workflow-builder tools: nothing reads the hints, and the nodes load with them`,
			async () => {
				const { client, close } = await instanceMcpClient(n8n);
				try {
					const tools = (await client.listTools()).tools.map((tool) => tool.name);
					assert(
						!tools.includes('search_nodes') && !tools.includes('get_node_types'),
						`n8n ${N8N_VERSION} offers ${tools.join(', ')}: set api.builderTools in test/realN8n/versions.mjs`,
					);
				} finally {
					await close();
				}
				const loaded = (await n8n.request('GET', '/types/nodes.json')).map((type) => type.name);
				for (const type of Object.keys(nodes))
					assert(loaded.includes(type), `n8n did not load ${type}`);
			},
		);
		return;
	}

	const { nodeHint, parameterHints } = VERSION.api.builderTools;
	await check(
		nodeHint
			? "search_nodes finds the three Stora nodes with each node's hint and the nodes it names beside it"
			: `search_nodes finds the three Stora nodes and the nodes each names beside it (n8n ${N8N_VERSION} reads a node's hint under an older name)`,
		async () => {
			const { client, close } = await instanceMcpClient(n8n);
			try {
				const answer = answerOf(
					await client.callTool({ name: 'search_nodes', arguments: { queries: ['stora'] } }),
				);
				assert(!answer.isError, `search_nodes: ${answer.text.slice(0, 400)}`);
				const text = oneLine(answer.text);
				for (const [type, description] of Object.entries(nodes)) {
					assert(text.includes(`- ${type}`), `search_nodes does not list ${type}:\n${answer.text}`);
					const { searchHint, relatedNodes = [] } = description.builderHint;
					assert(
						text.includes(oneLine(searchHint)) === nodeHint,
						`search_nodes ${nodeHint ? 'does not give' : 'gives'} ${type}'s hint (api.builderTools.nodeHint in test/realN8n/versions.mjs):\n${answer.text.slice(0, 3000)}`,
					);
					for (const related of relatedNodes)
						assert(
							text.includes(related.nodeType) && text.includes(oneLine(related.relationHint)),
							`search_nodes does not name ${related.nodeType} beside ${type}`,
						);
				}
			} finally {
				await close();
			}
		},
	);

	await check(
		parameterHints
			? 'get_node_types gives every parameter hint of the Stora nodes in their definitions (IDs, money, Return All, dates)'
			: `get_node_types of n8n ${N8N_VERSION} serves no community node's definitions, so no parameter hint reaches the builder`,
		async () => {
			const { client, close } = await instanceMcpClient(n8n);
			try {
				for (const [type, description] of Object.entries(nodes)) {
					const answer = answerOf(
						await client.callTool({
							name: 'get_node_types',
							arguments: { nodeIds: [{ nodeId: type }] },
						}),
					);
					const text = oneLine(answer.text);
					if (!parameterHints) {
						assert(
							!text.includes('@builderHint') && text.includes(type),
							`get_node_types ${type} answers with hints, or not about ${type} (api.builderTools.parameterHints in test/realN8n/versions.mjs): ${answer.text.slice(0, 400)}`,
						);
						continue;
					}
					assert(!answer.isError, `get_node_types ${type}: ${answer.text.slice(0, 400)}`);
					const hints = [
						...new Set(
							[...walk(description.properties)]
								.map(([, property]) => property.builderHint?.propertyHint)
								.filter(Boolean),
						),
					];
					if (type === STORA) assert(hints.length > 0, 'the Stora node has no parameter hints');
					const missing = hints.filter((hint) => !text.includes(`@builderHint ${oneLine(hint)}`));
					assert(
						missing.length === 0,
						`get_node_types ${type} leaves out ${missing.length} hints, e.g. "${missing[0]}"`,
					);
				}
			} finally {
				await close();
			}
		},
	);
}
