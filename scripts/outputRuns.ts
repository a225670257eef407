/**
 * The runs the output schemas are inferred from (scripts/outputSchemas.ts): each operation of the Stora node in n8n's
 * engine against the sandbox with its default parameters (Simplify off, JSON output, no Expand), on several records
 * where it takes one (`CASES`), and the two triggers' items from real deliveries and a real poll.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { EVENT_TYPE_OPTIONS } from '../nodes/Stora/helpers/events';
import { locator, runStora, tokenCredentials } from '../test/helpers/n8n';
import { PollHarness } from '../test/helpers/poll';
import { TriggerHarness } from '../test/helpers/trigger';
import type { StartedSandbox } from '../sandbox';
import { SandboxClient, type StateRecord } from '../sandbox/client';

/** One run of the Stora node: its parameters and input items (one empty item when not given). */
interface Run {
	parameters: INodeParameters;
	items?: IDataObject[];
}

/** What the cases read the sandbox's seed with, and how they prepare a record an operation needs. */
interface Seed {
	token: string;
	/** A new all-scope access token that expires in an hour. */
	expiringToken(): Promise<string>;
	all(collection: string, where?: (record: StateRecord) => boolean): Promise<StateRecord[]>;
	first(collection: string, where?: (record: StateRecord) => boolean): Promise<StateRecord>;
	/** Runs the node to prepare state (its output is not part of any schema). */
	prepare(parameters: INodeParameters): Promise<IDataObject[]>;
}

/**
 * The operation once per record (the record locator `parameter` reads each input item's ID), so the schema sees
 * every record of the seed: one record leaves a field that is null there typed as null only.
 */
const eachRecord = (
	parameter: string,
	records: StateRecord[],
	parameters: INodeParameters = {},
): Run => ({
	parameters: { ...parameters, [parameter]: locator('={{ $json.id }}') },
	items: records.map(({ id }) => ({ id })),
});
/** The same for a record picked from a dropdown, whose parameter holds the ID itself. */
const eachOption = (parameter: string, records: StateRecord[]): Run => ({
	parameters: { [parameter]: '={{ $json.id }}' },
	items: records.map(({ id }) => ({ id })),
});
const once = (parameters: INodeParameters = {}): Run[] => [{ parameters }];
const open = (deal: StateRecord) => deal.status === 'open';
const basePrices = (billingPeriod: string) => ({
	basePrices: { price: [{ billingPeriod, amount: 1250 }] },
});

/**
 * Runs per operation (`resource.operation`), beyond `resource` and `operation` themselves. Values are the seed's
 * records; required parameters are given, optional ones left at their defaults (an update changes one field). Get Many
 * runs as it comes: its first 50 records, every seeded record but some orders and units.
 */
const CASES: Record<string, (seed: Seed) => Promise<Run[]>> = {
	'accessToken.getInfo': async () => once(),
	// An active token's introspection (one that never expires, one that does) and an unknown one's (`{ active: false }`).
	'accessToken.introspect': async ({ token, expiringToken }) => [
		...once({ token }),
		...once({ token: await expiringToken() }),
		...once({ token: 'not-a-real-token' }),
	],
	'contact.create': async () => once({ email: 'schema.lead@example.com' }),
	// Stora deletes leads only.
	'contact.delete': async ({ all }) => [
		eachRecord('contactId', await all('contacts', (contact) => contact.status === 'lead')),
	],
	'contact.get': async ({ all }) => [eachRecord('contactId', await all('contacts'))],
	'contact.getAll': async () => once(),
	'contact.update': async ({ all }) => [
		eachRecord('contactId', await all('contacts'), { updateFields: { useCase: 'refurb' } }),
	],
	// Only a signed contract has a PDF.
	'contract.downloadPdf': async ({ all }) => [
		eachRecord('contractId', await all('contracts', (contract) => contract.status === 'signed')),
	],
	'contract.get': async ({ all }) => [eachRecord('contractId', await all('contracts'))],
	'contract.getAll': async () => once(),
	'contractTemplate.getAll': async () => once(),
	'coupon.get': async ({ all }) => [eachRecord('couponId', await all('coupons'))],
	'coupon.getAll': async () => once(),
	'creditNote.downloadPdf': async ({ all }) => [
		eachRecord('creditNoteId', await all('credit_notes')),
	],
	'creditNote.get': async ({ all }) => [eachRecord('creditNoteId', await all('credit_notes'))],
	'creditNote.getAll': async () => once(),
	'deal.create': async ({ first }) =>
		once({ dealContactId: locator((await first('contacts')).id) }),
	'deal.get': async ({ all }) => [eachRecord('dealId', await all('deals'))],
	'deal.getAll': async () => once(),
	'deal.lose': async ({ all }) => [eachRecord('dealId', await all('deals', open))],
	'deal.reopen': async ({ all }) => [
		eachRecord('dealId', await all('deals', (deal) => !open(deal))),
	],
	'deal.update': async ({ all }) => [
		eachRecord('dealId', await all('deals'), { updateFields: { note: 'Checked' } }),
	],
	'deal.win': async ({ all }) => [eachRecord('dealId', await all('deals', open))],
	'dealStage.get': async ({ all }) => [eachOption('dealStageId', await all('stages'))],
	'dealStage.getAll': async () => once(),
	'identityVerification.get': async ({ all }) => [
		eachRecord('identityVerificationId', await all('identity_verifications')),
	],
	'identityVerification.getAll': async () => once(),
	'image.download': async ({ all }) => [
		{
			parameters: { imageUrl: '={{ $json.images.default.original }}' },
			items: (await all('sites', (site) => !!(site.images as IDataObject | null)?.default)).map(
				({ images }) => ({
					images: images as IDataObject,
				}),
			),
		},
	],
	'invoice.downloadPdf': async ({ all }) => [eachRecord('invoiceId', await all('invoices'))],
	'invoice.get': async ({ all }) => [eachRecord('invoiceId', await all('invoices'))],
	'invoice.getAll': async () => once(),
	'note.create': async ({ first }) =>
		once({ content: 'Asked about parking', noteRecordId: (await first('contacts')).id }),
	'note.get': async ({ all }) => [eachRecord('noteId', await all('notes'))],
	'note.getAll': async () => once(),
	'note.update': async ({ all }) => [
		eachRecord('noteId', await all('notes'), { updateFields: { content: 'Checked' } }),
	],
	'opportunity.associateDeal': async ({ first }) =>
		once({
			opportunityId: locator((await first('opportunities')).id),
			opportunityDealId: locator((await first('deals')).id),
		}),
	'opportunity.disassociateDeal': async ({ all }) => [
		eachRecord('opportunityId', await all('opportunities', (opportunity) => !!opportunity.deal)),
	],
	'order.create': async ({ first }) => once({ orderSiteId: (await first('sites')).id }),
	'order.finalize': async (seed) => [eachRecord('orderId', await readyOrders(seed))],
	'order.get': async ({ all }) => [eachRecord('orderId', await all('orders'))],
	'order.getAll': async () => once(),
	// An order that is not ready fails validation with the API's error: the output is a ready order's.
	'order.validate': async (seed) => [eachRecord('orderId', await readyOrders(seed))],
	'orderLineItem.create': async ({ first }) => {
		const order = await first('orders', (record) => record.status === 'draft');
		const unitType = await first('unit_types', (record) => idOf(record.site) === idOf(order.site));
		return once({ orderLineItemOrderId: locator(order.id), orderLineItemUnitTypeId: unitType.id });
	},
	'priceAdjustment.update': async ({ all }) => [
		eachRecord(
			'priceAdjustmentId',
			await all('price_adjustments', (adjustment) => adjustment.status === 'draft'),
			{
				updateFields: { percentage: 5 },
			},
		),
	],
	'product.get': async ({ all }) => [eachRecord('productId', await all('products'))],
	'product.getAll': async () => once(),
	'product.setBasePrice': async ({ all }) => [
		eachRecord('productId', await all('products'), basePrices('monthly')),
	],
	'productCategory.get': async ({ all }) => [
		eachRecord('productCategoryId', await all('product_categories')),
	],
	'productCategory.getAll': async () => once(),
	'protectionLevel.get': async ({ all }) => [
		eachRecord('protectionLevelId', await all('protection_levels')),
	],
	'protectionLevel.getAll': async () => once(),
	'protectionLevel.setBasePrice': async ({ all }) => [
		eachRecord('protectionLevelId', await all('protection_levels'), basePrices('monthly')),
	],
	'site.get': async ({ all }) => [eachRecord('siteId', await all('sites'))],
	'site.getAll': async () => once(),
	'subscription.get': async ({ all }) => [eachRecord('subscriptionId', await all('subscriptions'))],
	'subscription.getAll': async () => once(),
	'task.create': async () => once({ title: 'Call back about a bigger unit' }),
	'task.delete': async ({ all }) => [eachRecord('taskId', await all('tasks'))],
	'task.getAll': async () => once(),
	'task.reopen': async ({ all }) => [
		eachRecord('taskId', await all('tasks', (task) => task.status === 'completed')),
	],
	'task.update': async ({ all }) => [
		eachRecord('taskId', await all('tasks'), { updateFields: { title: 'Checked' } }),
	],
	'tenancy.get': async ({ all }) => [eachRecord('tenancyId', await all('tenancies'))],
	'tenancy.getAll': async () => once(),
	// The template's predefined variables (contact, site) are required; its own (gate) too.
	'timelineEvent.create': async ({ first }) =>
		once({
			timelineEventTimelineSourceId: (
				await first('sources', (source) => source.name === 'Acme Gate Control')
			).id,
			timelineEventTimelineTemplateId: (
				await first('templates', (template) => template.name === 'Gate access')
			).id,
			timelineEventContactId: locator((await first('contacts')).id),
			variables: { entry: [{ key: 'gate', value: 'North gate' }] },
			additionalFields: { siteId: (await first('sites')).id },
		}),
	'timelineEvent.update': async ({ all }) => [
		eachRecord('timelineEventId', await all('timeline_events'), {
			updateFields: { description: 'Checked' },
		}),
	],
	'timelineSource.getAll': async () => once(),
	'timelineTemplate.get': async ({ all }) => [
		eachOption('timelineTemplateId', await all('templates')),
	],
	'timelineTemplate.getAll': async () => once(),
	// An overlocked unit cannot be deallocated.
	'unit.deallocate': async ({ all }) => [
		eachRecord(
			'unitId',
			await all('units', (unit) => !!unit.unit_allocation && unit.status !== 'overlocked'),
		),
	],
	'unit.get': async ({ all }) => [eachRecord('unitId', await all('units'))],
	'unit.getAll': async () => once(),
	'unit.grantAccess': async (seed) =>
		once({
			unitId: locator(await reservedUnit(seed)),
			unitTenancyId: locator((await openTenancy(seed)).id),
		}),
	'unit.overlock': async ({ first }) =>
		once({ unitContactId: locator((await first('contacts')).id) }),
	'unit.removeOverlock': async ({ first, prepare }) => {
		const contact = locator((await first('contacts')).id);
		await prepare({ resource: 'unit', operation: 'overlock', unitContactId: contact });
		return once({ unitContactId: contact });
	},
	'unit.reserve': async (seed) =>
		once({
			unitId: locator((await availableUnit(seed)).id),
			unitTenancyId: locator((await openTenancy(seed)).id),
		}),
	'unitAllocation.get': async ({ all }) => [
		eachRecord('unitAllocationId', await all('unit_allocations')),
	],
	'unitAllocation.getAll': async () => once(),
	'unitType.get': async ({ all }) => [eachRecord('unitTypeId', await all('unit_types'))],
	'unitType.getAll': async () => once(),
	'unitType.setBasePrice': async ({ all }) => [
		eachRecord('unitTypeId', await all('unit_types'), basePrices('monthly')),
	],
	'webhookEndpoint.create': async () => once(WEBHOOK_ENDPOINT),
	'webhookEndpoint.delete': async (seed) => [
		eachRecord('webhookEndpointId', await webhookEndpoints(seed)),
	],
	'webhookEndpoint.get': async (seed) => [
		eachRecord('webhookEndpointId', await webhookEndpoints(seed)),
	],
	'webhookEndpoint.getAll': async (seed) => (await webhookEndpoints(seed), once()),
	'webhookEndpoint.update': async (seed) => [
		eachRecord('webhookEndpointId', await webhookEndpoints(seed), {
			updateFields: { name: 'Checked' },
		}),
	],
};

const WEBHOOK_ENDPOINT = {
	name: 'Ledger',
	url: 'https://hooks.example.com/stora',
	eventTypes: ['invoice.paid'],
};

/** The demo seed has no webhook endpoints: two are registered through the node first. */
async function webhookEndpoints({ prepare, all }: Seed) {
	await prepare({ resource: 'webhookEndpoint', operation: 'create', ...WEBHOOK_ENDPOINT });
	const described = { ...WEBHOOK_ENDPOINT, additionalFields: { description: 'Paid invoices' } };
	await prepare({ resource: 'webhookEndpoint', operation: 'create', ...described });
	return await all('endpoints');
}

/** A reference's ID: the API renders an unexpanded reference as `{ id }`. */
const idOf = (reference: unknown) => (reference as { id?: string } | null)?.id;

/** Draft orders Stora would finalize: a contact, a billing period, a start and a unit type line. */
async function readyOrders({ all }: Seed) {
	const unitTypeLines = new Set(
		(await all('order_line_items', (line) => line.type === 'unit_type')).map(({ id }) => id),
	);
	return await all(
		'orders',
		(order) =>
			order.status === 'draft' &&
			!!order.contact &&
			!!order.billing_period &&
			!!order.starts_at &&
			(order.line_items as Array<{ id: string }>).some(({ id }) => unitTypeLines.has(id)),
	);
}

const openTenancy = async ({ first }: Seed) =>
	await first('tenancies', (tenancy) => tenancy.ends_at === null);
const availableUnit = async (seed: Seed) => {
	const tenancy = await openTenancy(seed);
	return await seed.first(
		'units',
		(unit) => unit.status === 'available' && idOf(unit.site) === idOf(tenancy.site),
	);
};

/** A unit the open tenancy has just reserved (access is granted to a reservation). */
async function reservedUnit(seed: Seed) {
	const unitId = locator((await availableUnit(seed)).id);
	const unitTenancyId = locator((await openTenancy(seed)).id);
	await seed.prepare({ resource: 'unit', operation: 'reserve', unitId, unitTenancyId });
	return unitId.value;
}

/** The sandbox's seed as the cases read it, with the node run that prepares state. */
function seedOf(sandbox: StartedSandbox): Seed {
	const client = new SandboxClient(sandbox.url);
	const all = async (collection: string, where: (record: StateRecord) => boolean = () => true) =>
		(await client.state(collection)).filter(where);
	return {
		token: sandbox.token,
		expiringToken: async () => await client.token('all', 3600),
		all,
		first: async (collection, where) => {
			const [record] = await all(collection, where);
			if (!record) throw new Error(`The demo seed has no ${collection} record for this case`);
			return record;
		},
		prepare: async (parameters) => await runItems(sandbox, { parameters }),
	};
}

/** The node's output items (their JSON) for one run; an error or no item fails the generation, naming the run. */
async function runItems(sandbox: StartedSandbox, run: Run): Promise<IDataObject[]> {
	const result = await runStora({
		...run,
		credentials: tokenCredentials(sandbox.url, sandbox.token),
	});
	const what = `${String(run.parameters.resource)}.${String(run.parameters.operation)}`;
	if (result.error)
		throw new Error(`${what}: ${result.error.message} ${result.error.description ?? ''}`);
	if (!result.items.length) throw new Error(`${what} returned no item`);
	return result.items.map((item) => item.json);
}

/** Every item one operation of the Stora node outputs in its runs, the seed reset first. */
export async function operationOutput(
	sandbox: StartedSandbox,
	resource: string,
	operation: string,
): Promise<IDataObject[]> {
	const cases = CASES[`${resource}.${operation}`];
	if (!cases)
		throw new Error(
			`${resource}.${operation} has no runs: add them to CASES in scripts/outputRuns.ts`,
		);
	await new SandboxClient(sandbox.url).reset('demo');
	const items: IDataObject[] = [];
	for (const run of await cases(seedOf(sandbox))) {
		items.push(
			...(await runItems(sandbox, {
				...run,
				parameters: { resource, operation, ...run.parameters },
			})),
		);
	}
	return items;
}

/**
 * The Stora Trigger's items: a delivery of each event type the Events list offers (the default, none, starts
 * nothing), through a real registration and signed deliveries over HTTP (test/helpers/trigger.ts).
 */
export async function triggerOutput(sandbox: StartedSandbox): Promise<IDataObject[]> {
	const client = new SandboxClient(sandbox.url);
	await client.reset('demo');
	const events = EVENT_TYPE_OPTIONS.map(({ value }) => value);
	const harness = await new TriggerHarness(tokenCredentials(sandbox.url, sandbox.token), {
		events,
	}).start();
	try {
		await harness.activate();
		for (const type of events) await client.emit(type);
		await harness.waitForDeliveries(events.length);
	} finally {
		await harness.close();
	}
	const items = harness.received.flatMap((received) => received.workflowData ?? []);
	if (items.length !== events.length) {
		throw new Error(
			`The Stora Trigger started ${items.length} runs for ${events.length} deliveries`,
		);
	}
	return items;
}

/** The Stora Polling Trigger's item with its defaults (new contacts), as the editor's test run fetches it. */
export async function pollOutput(sandbox: StartedSandbox): Promise<IDataObject[]> {
	await new SandboxClient(sandbox.url).reset('demo');
	const items = await new PollHarness(tokenCredentials(sandbox.url, sandbox.token), {}).poll(
		'manual',
	);
	if (!items?.length) throw new Error('The Stora Polling Trigger fetched nothing');
	return items;
}
