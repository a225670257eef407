// Stora as AI tools (../mcp.mjs, ../agent.mjs); `--only mcp` or `--only agent` runs one of them alone.
import { agentChecks } from '../agent.mjs';
import { mcpChecks } from '../mcp.mjs';

export async function aiToolChecks(ctx) {
	const selects = (...names) =>
		!ctx.only || names.some((name) => name.toLowerCase().includes(ctx.only.toLowerCase()));
	if (selects('mcp', 'ai tools')) {
		console.log(
			'\nStora as AI tools: MCP Server Trigger and the official MCP client (test/e2e/mcp.mjs)',
		);
		await mcpChecks(ctx);
	}
	if (selects('agent', 'ai tools')) {
		console.log(
			'\nStora as AI tools: AI Agent with an OpenAI-compatible chat model scripted by the test (test/e2e/agent.mjs)',
		);
		await agentChecks(ctx);
	}
}
