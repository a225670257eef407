/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test under test/, never published */
/**
 * The output schemas the package ships for n8n's editor (`nodes/<node>/__schema__/`, copied into dist/ by the build):
 * one for every operation of the Stora node and for each trigger version, equal to what scripts/outputSchemas.ts
 * generates from the nodes' output now, and fitting real output, including output the generator did not see.
 * `npm run schemas` (STORA_SCHEMAS=write) writes the files instead of comparing them.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { Stora } from '../../nodes/Stora/Stora.node';
import { StoraPollTrigger } from '../../nodes/StoraPollTrigger/StoraPollTrigger.node';
import { StoraTrigger } from '../../nodes/StoraTrigger/StoraTrigger.node';
import { locator } from '../helpers/n8n';
import { nodeOperations } from '../helpers/operations';
import { useSandboxForNode } from '../helpers/sandboxFixture';
import type { StateRecord } from '../../sandbox/client';
import {
	committedSchemas,
	fileText,
	generateOutputs,
	schemaFile,
	schemasOf,
	typeOf,
	writeSchemas,
	type JsonSchema,
} from '../../scripts/outputSchemas';

jest.setTimeout(300_000);

const REGENERATE = 'run `npm run schemas` to regenerate them';
const writing = process.env.STORA_SCHEMAS === 'write';

/** Where a value does not fit a schema, or holds a property the schema (and so the editor's preview) lacks. */
function misfits(value: unknown, schema: JsonSchema, path: string): string[] {
	const type = typeOf(value);
	if (type === 'null') {
		return schema.nullable || schema.type === 'null'
			? []
			: [`${path} is null, the schema says ${String(schema.type)}`];
	}
	if (![schema.type].flat().includes(type))
		return [`${path} is ${type}, the schema says ${String(schema.type)}`];
	// An object without properties is a map whose keys the user chooses (metadata).
	if (type === 'object' && schema.properties) {
		return Object.entries(value as IDataObject)
			.filter(([, member]) => member !== undefined)
			.flatMap(([name, member]) =>
				schema.properties![name]
					? misfits(member, schema.properties![name], `${path}.${name}`)
					: [`${path}.${name} is not in the schema`],
			);
	}
	if (type === 'array') {
		const items = schema.items as JsonSchema;
		return (value as unknown[]).flatMap((element, index) =>
			items.type
				? misfits(element, items, `${path}[${index}]`)
				: [`${path}[${index}]: the schema has no items`],
		);
	}
	return [];
}

describe('output schemas for the editor', () => {
	const fixture = useSandboxForNode({ allowHttpWebhooks: true, resetEach: false });
	// Generated once, inside the first test that needs it: the fixture sizes the node's rate-limit budget before each test.
	let generated:
		| Promise<{ outputs: Map<string, IDataObject[]>; schemas: Map<string, JsonSchema> }>
		| undefined;
	const generation = () =>
		(generated ??= generateOutputs(fixture.sandbox).then((outputs) => {
			const schemas = schemasOf(outputs);
			if (writing) writeSchemas(schemas);
			return { outputs, schemas };
		}));

	it(`are what the generator produces from the nodes' output now (${REGENERATE})`, async () => {
		const { schemas } = await generation();
		const committed = committedSchemas();
		const problems = [
			...[...schemas.keys()]
				.filter((file) => !committed.has(file))
				.map((file) => `${file} is missing`),
			...[...committed.keys()]
				.filter((file) => !schemas.has(file))
				.map((file) => `${file} is for no output`),
			...[...schemas]
				.filter(([file, schema]) => committed.has(file) && committed.get(file) !== fileText(schema))
				.map(([file]) => `${file} differs`),
		];
		if (problems.length)
			throw new Error(
				`${problems.join('\n')}\n\nThe output schemas are out of date: ${REGENERATE}.`,
			);
	});

	it(`exist for all ${nodeOperations().length} operations of the Stora node and for each trigger version (${REGENERATE})`, () => {
		const expected = [
			...[new Stora().description.version]
				.flat()
				.flatMap((version) =>
					nodeOperations().map(({ resource, operation }) =>
						schemaFile('Stora', version, resource, operation),
					),
				),
			...[new StoraTrigger().description.version]
				.flat()
				.map((version) => schemaFile('StoraTrigger', version)),
			...[new StoraPollTrigger().description.version]
				.flat()
				.map((version) => schemaFile('StoraPollTrigger', version)),
		];
		const committed = committedSchemas();
		const missing = expected.filter((file) => !committed.has(file));
		if (missing.length) throw new Error(`No output schema: ${missing.join(', ')}. ${REGENERATE}.`);
		for (const file of expected) {
			expect(JSON.parse(committed.get(file)!)).toMatchObject({
				type: 'object',
				properties: expect.any(Object),
			});
		}
	});

	it('fit every item the operations output, where a schema also draws on other outputs of the same record kind', async () => {
		const { outputs } = await generation();
		const committed = committedSchemas();
		const problems = [...outputs].flatMap(([file, items]) => {
			if (!committed.has(file)) return [`${file} is missing`];
			const schema = JSON.parse(committed.get(file)!) as JsonSchema;
			return items.flatMap((item, index) => misfits(item, schema, `${file}: item ${index}`));
		});
		expect(problems).toEqual([]);
	});

	/**
	 * Records created with every field given, which the generator (default parameters: the required fields only) never
	 * saw: each field they fill must have the type its schema took from other records of the kind.
	 */
	describe('fit records created with all their fields', () => {
		const first = async (
			collection: string,
			where: (record: StateRecord) => boolean = () => true,
		) => (await fixture.client.state(collection)).find(where)!.id;
		const metadata = { entry: [{ key: 'crm.id', value: 'HUB-42' }] };
		const cases: Array<[string, string, () => Promise<INodeParameters>]> = [
			[
				'contact',
				'create',
				async () => ({
					email: 'nina.lopez@example.com',
					additionalFields: {
						fullName: 'Nina Lopez',
						phoneNumber: '+44 7700 900123',
						type: 'company',
						source: 'external_enquiry',
						marketingSource: 'google_search',
						useCase: 'moving_home',
						taxId: 'GB123456789',
						companyRegistrationNumber: '01234567',
						address: {
							address: {
								line1: '1 Dock Road',
								city: 'Leeds',
								postalCode: 'LS1 1AA',
								countryAlpha2: 'gb',
							},
						},
						metadata,
					},
				}),
			],
			[
				'deal',
				'create',
				async () => {
					const site = await first('sites');
					return {
						dealContactId: locator(await first('contacts')),
						additionalFields: {
							name: 'Garage clear-out',
							stageId: await first('stages'),
							siteId: site,
							assigneeId: await first('staff'),
							note: 'About £60 per month',
							startsAt: '2027-03-01T09:30:00.000Z',
							unitTypeId: await first(
								'unit_types',
								(unitType) => (unitType.site as IDataObject).id === site,
							),
							metadata,
						},
					};
				},
			],
			[
				'task',
				'create',
				async () => ({
					title: 'Call about an upgrade',
					additionalFields: {
						description: '<p>Wants a bigger unit</p>',
						dueAt: '2027-01-15T17:00:00.000Z',
						assigneeId: await first('staff'),
						siteId: await first('sites'),
						resourceId: await first('contacts'),
						metadata,
					},
				}),
			],
			[
				'order',
				'create',
				async () => {
					const site = await first('sites');
					const unitType = await first(
						'unit_types',
						(record) => (record.site as IDataObject).id === site,
					);
					return {
						orderSiteId: site,
						additionalFields: {
							billingPeriod: 'monthly',
							startsAt: '2030-05-01T09:00:00.000Z',
							contactId: locator(await first('contacts')),
							purchaseOrderNumber: 'PO-1',
							lineItems: {
								lineItem: [{ type: 'unit_type', itemId: unitType, quantity: 1, price: '' }],
							},
							finalize: true,
							metadata,
						},
					};
				},
			],
			[
				'webhookEndpoint',
				'create',
				async () => ({
					name: 'Ledger',
					url: 'https://hooks.example.com/ledger',
					eventTypes: ['invoice.paid', 'contact.created'],
					additionalFields: { description: 'Paid invoices to the ledger', metadata },
				}),
			],
		];

		it.each(cases)('%s: %s', async (resource, operation, parameters) => {
			await fixture.client.reset('demo');
			const result = await fixture.run({ resource, operation, ...(await parameters()) });
			expect(result.error).toBeUndefined();
			const file = schemaFile('Stora', 1, resource, operation);
			const schema = JSON.parse(committedSchemas().get(file)!) as JsonSchema;
			expect(result.items.flatMap((item) => misfits(item.json, schema, `${file}: item`))).toEqual(
				[],
			);
		});
	});
});
