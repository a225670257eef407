// Publishing a Stora Trigger workflow on main registers exactly one endpoint in Stora, at the webhook processor's
// URL (WEBHOOK_URL), not main's. Leaves `ctx.trigger` for the delivery checks that follow.
import { assert } from '../../realN8n/harness.mjs';
import { chain, noOpNode, storaTriggerNode } from '../../realN8n/workflow.mjs';
import { registeredEndpoint } from '../helpers.mjs';

export const title = () =>
	"Stora Trigger: publishing on main registers one endpoint in Stora for the webhook processor's URL";

export async function run(ctx) {
	const { main, sandbox, reset } = ctx;
	await reset();
	const workflow = await main.createWorkflow(
		chain('queue: Stora Trigger → Done', [
			storaTriggerNode('Stora Trigger', { events: ['contact.created'] }, ctx.token),
			noOpNode(),
		]),
	);
	ctx.workflows.push(workflow);
	await sandbox.control.clearRequests();
	await main.activate(workflow);
	const endpoint = await registeredEndpoint(ctx, ['contact.created']);
	const registrations = (await sandbox.control.requests()).filter(
		(r) => r.path === '/2025-09/webhook_endpoints' && r.method === 'POST',
	);
	assert(
		registrations.length === 1 && registrations[0].status < 300,
		`registrations: ${JSON.stringify(registrations.map((r) => r.status))}`,
	);
	const secret = sandbox.core.webhookSecrets.get(endpoint.id);
	ctx.trigger = { workflow, endpoint, secret, events: [] };
}
