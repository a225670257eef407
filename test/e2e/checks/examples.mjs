// "Example workflows": every examples/*.json as a user imports it.
import { UNFINISHED } from '../../realN8n/executions.mjs';
import { loadExamples, triggerOf, withCredentials } from '../../realN8n/examples.mjs';
import { redeliver } from '../../realN8n/sign.mjs';
import { until } from '../../realN8n/wait.mjs';
import { STORA, STORA_TRIGGER } from '../../realN8n/workflow.mjs';
import { TRIGGER_ONLY } from './trigger.mjs';

const storaTriggerOf = (workflow) => workflow.nodes.find((n) => n.type === STORA_TRIGGER);

export async function exampleChecks(ctx) {
	const all = loadExamples();
	// `--only <text>`: the examples whose file name or workflow name contains it (the trigger option: those with a Stora Trigger).
	const selected = ({ file, workflow }) =>
		file.includes(ctx.only) || workflow.name.includes(ctx.only);
	const examples = !ctx.only
		? all
		: ctx.only === TRIGGER_ONLY
			? all.filter(({ workflow }) => storaTriggerOf(workflow))
			: all.filter(selected);
	if (examples.length) console.log('\nExample workflows (examples/*.json)');
	for (const { file, workflow } of examples) {
		const repeat = storaTriggerOf(workflow)
			? '; an event delivered twice (same event id) passes Remove Duplicates once'
			: '';
		const recipe = RECIPES[file] ? `; ${RECIPES[file].what}` : '';
		await ctx.caseCheck(
			`${workflow.name} [examples/${file}] imports, publishes or runs, without errors${repeat}${recipe}`,
			workflow,
			() => runExample({ ...workflow, file }, ctx),
		);
	}
}

/** An example: imported with the run's credentials; manual ones are executed, webhook ones published and called. */
async function runExample(example, ctx) {
	const { n8n, sandbox, assert } = ctx;
	await sandbox.control.reset('demo');
	await ctx.freshClientCredentials();
	const { file, ...exported } = example;
	const workflow = await n8n.createWorkflow(
		withCredentials(RECIPES[file]?.prepare?.(exported) ?? exported, {
			storaApi: ctx.credentials.accessToken,
			storaOAuth2Api: ctx.credentials.oauth2ClientCredentials,
		}),
	);
	const trigger = triggerOf(example);
	const storaNodes = example.nodes.filter((n) => n.type === STORA).map((n) => n.name);
	if (trigger.kind === 'manual') {
		const execution = await n8n.runManually(workflow.id, trigger.node.name);
		const error = execution.data?.resultData?.error;
		assert(
			execution.status === 'success',
			`execution ${execution.status}: ${error?.message ?? ''} ${error?.description ?? ''}`,
		);
		const runData = execution.data.resultData.runData;
		for (const name of storaNodes) {
			const items = runData[name]?.[0]?.data?.main?.flat() ?? [];
			assert(items.length > 0, `node "${name}" returned no items`);
		}
		await RECIPES[file]?.(ctx, {
			workflow,
			first: execution,
			again: () => n8n.runManually(workflow.id, trigger.node.name),
		});
		return;
	}
	await n8n.activate(workflow);
	if (trigger.kind === 'webhook') {
		const [site] = await sandbox.control.state('sites');
		const { httpMethod = 'GET', path: webhookPath } = trigger.node.parameters;
		const response = await n8n.callWebhook(webhookPath, {
			method: httpMethod,
			query: { id: site.id },
			body: httpMethod === 'GET' ? undefined : { id: site.id },
		});
		assert(
			response.status < 500,
			`webhook answered ${response.status}: ${response.text.slice(0, 300)}`,
		);
		await RECIPES[file]?.(ctx, {
			post: (body) => n8n.callWebhook(webhookPath, { method: httpMethod, body }),
		});
	}
	if (storaTriggerOf(example)) await deliveredTwice(example, workflow, ctx);
	await n8n.deactivate(workflow);
}

/**
 * A published example with a Stora Trigger: the trigger keeps no memory of events, so the node right after it must be
 * Remove Duplicates across executions on the event id. One event of the trigger's type is delivered, then again as
 * Stora's retry would (same event, signed again): two executions, and only the first passes Remove Duplicates.
 */
async function deliveredTwice(example, workflow, ctx) {
	const { n8n, sandbox, assert } = ctx;
	const trigger = storaTriggerOf(example);
	const next = example.nodes.find(
		(n) => n.name === example.connections[trigger.name]?.main?.[0]?.[0]?.node,
	);
	const { operation, logic, dedupeValue } = next?.parameters ?? {};
	assert(
		next?.type === 'n8n-nodes-base.removeDuplicates' &&
			operation === 'removeItemsSeenInPreviousExecutions' &&
			logic === 'removeItemsWithAlreadySeenKeyValues' &&
			dedupeValue === '={{ $json.id }}',
		`the node after "${trigger.name}" is ${next?.type} ${JSON.stringify(next?.parameters)}, expected Remove Duplicates (Remove Items Processed in Previous Executions) on {{ $json.id }}`,
	);
	const [type] = trigger.parameters.events;
	const [noun, verb] = type.split('.');
	const records = await sandbox.control.state(`${noun}s`);
	// A record the event fits (a lost deal for deal.lost), so the nodes after Remove Duplicates run on real data.
	const record = records.find((r) => r.status === verb) ?? records[0];
	const [endpoint] = await sandbox.control.state('webhook_endpoints');
	const secret = sandbox.core.webhookSecrets.get(endpoint?.id);
	assert(endpoint?.url && secret, 'publishing registered no endpoint with a secret');

	const finished = async () =>
		(await n8n.allExecutions(workflow.id)).filter((e) => !UNFINISHED.includes(e.status));
	const event = await sandbox.control.emit(type, record.id);
	await until(async () => (await finished()).length >= 1, 'the execution of the event', {
		timeoutMs: 60_000,
	});
	const again = await redeliver(endpoint, secret, event);
	assert(
		again.status === 200,
		`the repeated delivery was answered ${again.status} ${JSON.stringify(again.body).slice(0, 200)}`,
	);
	await until(
		async () => (await finished()).length >= 2,
		'the execution of the repeated delivery',
		{ timeoutMs: 60_000 },
	);

	const executions = [...(await n8n.allExecutions(workflow.id))].sort(
		(a, b) => Number(a.id) - Number(b.id),
	);
	assert(
		executions.length === 2,
		`${executions.length} executions for two deliveries of one event`,
	);
	const passed = [];
	for (const summary of executions) {
		const execution = await n8n.execution(summary.id);
		assert(
			execution.status === 'success',
			`execution ${summary.id} ${execution.status}: ${execution.data?.resultData?.error?.message ?? ''}`,
		);
		const runData = execution.data?.resultData?.runData ?? {};
		const started = runData[trigger.name]?.[0]?.data?.main?.[0]?.[0]?.json;
		assert(
			started?.id === event.id,
			`execution ${summary.id} started with ${JSON.stringify(started).slice(0, 200)}, expected event ${event.id}`,
		);
		passed.push(runData[next.name]?.[0]?.data?.main?.[0]?.length ?? 0);
	}
	assert(
		passed[0] === 1 && passed[1] === 0,
		`"${next.name}" passed ${passed.join(' and ')} items, expected 1 then 0`,
	);
}

/**
 * What a recipe must have done in Stora, beyond running without errors: read back from the sandbox after the run
 * (manual ones) or after posts to its webhook. Keyed by file name; `what` is added to the check's title, `prepare`
 * sets what the user sets after importing (another service's account, which the test does not have).
 */
const RECIPES = {
	'paid-invoices-credit-notes-to-xero.json': Object.assign(
		async ({ sandbox, assert }, { first, again }) => {
			const sent = sentToXero(first);
			const [invoices, creditNotes] = await Promise.all([
				sandbox.control.state('invoices'),
				sandbox.control.state('credit_notes'),
			]);
			const expected = [...invoices.filter((invoice) => invoice.status === 'paid'), ...creditNotes];
			assert(
				sent.length === expected.length &&
					expected.every((record) => sent.some((item) => item.storaId === record.id)),
				`${sent.length} documents reached Xero (${sent.map((item) => item.storaId).join(', ')}), expected the ${expected.length} paid invoices and credit notes`,
			);
			for (const record of expected) {
				const item = sent.find((candidate) => candidate.storaId === record.id);
				const { document } = item;
				const digits = new Intl.NumberFormat('en', {
					style: 'currency',
					currency: record.total.currency,
				}).resolvedOptions().maximumFractionDigits;
				const total = document.LineItems.reduce(
					(sum, line) =>
						sum + line.UnitAmount * line.Quantity - line.DiscountAmount + line.TaxAmount,
					0,
				);
				assert(
					Math.round(total * 10 ** digits) === record.total.amount &&
						document.CurrencyCode === record.total.currency &&
						item.contact.number === record.contact.id &&
						/^\d{4}-\d{2}-\d{2}$/.test(document.Date),
					`${record.id} reached Xero as ${JSON.stringify(item).slice(0, 400)}, expected ${record.total.formatted} in ${record.total.currency} for contact ${record.contact.id}`,
				);
			}
			const second = await again();
			assert(second.status === 'success', `the second run ended ${second.status}`);
			const resent = sentToXero(second);
			assert(
				resent.length === 0,
				`the second run sent ${resent.length} documents to Xero again (Remove Duplicates across executions)`,
			);
		},
		{
			what: 'every paid invoice and credit note reaches Xero once, its total and currency as in Stora; nothing on a second run',
			prepare: (workflow) => ({
				...workflow,
				nodes: workflow.nodes.map((node) =>
					node.name === 'Your Xero organization'
						? withXeroTenant(node)
						: XERO_NODES.includes(node.name)
							? { ...node, disabled: true }
							: node,
				),
			}),
		},
	),
	'overdue-invoice-overlock.json': Object.assign(
		async ({ sandbox, assert }, { again }) => {
			const overdue = (await sandbox.control.state('invoices')).filter(
				(invoice) => invoice.collection_status === 'overdue',
			);
			const contacts = new Set(overdue.map((invoice) => invoice.contact.id));
			const contactOf = await unitContacts(sandbox);
			const occupiedLeft = (await sandbox.control.state('units')).filter(
				(unit) => unit.status === 'occupied' && contacts.has(contactOf(unit)),
			);
			assert(
				overdue.length > 0 && occupiedLeft.length === 0,
				`${occupiedLeft.length} units of contacts with an overdue invoice still occupied (not overlocked): ${occupiedLeft.map((u) => u.id).join(', ')}`,
			);
			const events = async () =>
				(await sandbox.control.state('timeline_events')).filter((event) =>
					/^Overlocked by n8n/.test(event.description ?? ''),
				);
			const first = await events();
			assert(
				first.length === overdue.length,
				`${first.length} timeline events for ${overdue.length} overdue invoices`,
			);
			const second = await again();
			assert(second.status === 'success', `the second run ended ${second.status}`);
			assert(
				(await events()).length === first.length,
				'the second run recorded the same overdue invoices again (Remove Duplicates across executions)',
			);
		},
		{
			what: 'every unit of an overdue contact overlocked, one timeline event per invoice, none again on a second run',
		},
	),
	'price-increase-monthly-site.json': Object.assign(
		async ({ sandbox, assert }, { again }) => {
			// The API creates no price adjustment, so a re-run could only change the drafts again: it must leave them as
			// the first run did (timestamps aside).
			const adjustments = async () =>
				JSON.stringify(
					(await sandbox.control.state('price_adjustments'))
						.map((adjustment) =>
							Object.fromEntries(
								Object.entries(adjustment).filter(([key]) => !key.endsWith('_at')),
							),
						)
						.sort((a, b) => String(a.id).localeCompare(String(b.id))),
				);
			const first = await adjustments();
			const second = await again();
			assert(second.status === 'success', `the second run ended ${second.status}`);
			assert(
				(await adjustments()) === first,
				'the second run changed the price adjustments the first had set',
			);
		},
		{ what: 'a second run leaves the price adjustments as the first set them' },
	),
	'move-in-grant-access.json': Object.assign(
		async ({ sandbox, assert }) => {
			const tenancies = new Map(
				(await sandbox.control.state('tenancies')).map((tenancy) => [tenancy.id, tenancy]),
			);
			const started = (allocation) =>
				Date.parse(tenancies.get(allocation.tenancy.id)?.starts_at) <= Date.now();
			const allocations = await sandbox.control.state('unit_allocations');
			const waiting = allocations.filter(
				(allocation) => !allocation.granted_access_at && started(allocation),
			);
			assert(
				waiting.length === 0,
				`allocations still without access on or after move-in day: ${waiting.map((a) => a.id).join(', ')}`,
			);
			const granted = (await sandbox.control.requests()).filter(
				(r) =>
					r.method === 'POST' &&
					/\/units\/unit_\w+\/grant_access$/.test(r.path) &&
					r.status === 200,
			);
			assert(
				granted.length > 0,
				'no unit was granted access (the demo has reserved units of started tenancies)',
			);
		},
		{ what: 'every reserved unit of a started tenancy granted access' },
	),
	'web-lead-contact-deal-once.json': Object.assign(
		async ({ sandbox, assert }, { post }) => {
			const lead = {
				email: ' Recipe.Lead@example.com',
				name: 'Recipe Lead',
				phone: '+447700900123',
				message: 'A 50 sq ft unit from next month',
			};
			const answers = [];
			for (let n = 0; n < 3; n++)
				answers.push(await post(n === 1 ? { ...lead, email: 'recipe.lead@EXAMPLE.com' } : lead));
			assert(
				answers.every((answer) => answer.status === 200),
				`answers ${answers.map((a) => a.status).join(', ')}: ${answers.map((a) => a.text.slice(0, 200)).join(' | ')}`,
			);
			const created = answers.map(
				(answer) => (Array.isArray(answer.body) ? answer.body[0] : answer.body)?.created,
			);
			assert(
				JSON.stringify(created) === '[true,false,false]',
				`created ${JSON.stringify(created)}, expected true, then false twice`,
			);
			const contacts = (await sandbox.control.state('contacts')).filter(
				(contact) => contact.email === 'recipe.lead@example.com',
			);
			const deals = (await sandbox.control.state('deals')).filter((deal) =>
				contacts.some((contact) => contact.id === deal.contact?.id),
			);
			assert(
				contacts.length === 1 && deals.length === 1,
				`${contacts.length} contacts and ${deals.length} deals for one lead posted three times`,
			);
		},
		{ what: 'one lead posted three times: one contact, one deal' },
	),
};

/** The contact whose tenancy holds a unit, through its unit allocation and tenancy as the sandbox holds them. */
async function unitContacts(sandbox) {
	const allocations = new Map(
		(await sandbox.control.state('unit_allocations')).map((allocation) => [
			allocation.id,
			allocation,
		]),
	);
	const tenancies = new Map(
		(await sandbox.control.state('tenancies')).map((tenancy) => [tenancy.id, tenancy]),
	);
	return (unit) =>
		tenancies.get(allocations.get(unit.unit_allocation?.id)?.tenancy?.id)?.contact?.id;
}

// The Xero end of the accounting recipe, disabled in the test: a disabled node passes on what reaches it, which is
// what the recipe checks.
const XERO_NODES = ['Xero contact', 'Send to Xero'];

function withXeroTenant(node) {
	const copy = structuredClone(node);
	copy.parameters.assignments.assignments[0].value = 'xero-tenant-under-test';
	return copy;
}

/** The documents that reached "Send to Xero" in an execution. */
function sentToXero(execution) {
	const run = execution.data?.resultData?.runData?.['Send to Xero'] ?? [];
	return run.flatMap((entry) => entry.data?.main?.[0] ?? []).map((item) => item.json);
}
