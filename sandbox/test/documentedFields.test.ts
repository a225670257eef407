/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- sandbox test, never published */
/**
 * The sandbox held to the docs: every record it returns, for every resource of the demo seed, has exactly
 * the documented fields with the documented types (fixtures/documentedFields.json: the API reference's field lists,
 * the spec winning where they differ, each such point in its `differences`). The output schemas the package ships
 * (nodes/Stora/__schema__, generated from the node's output against this sandbox) pass the same lists: no property
 * the docs do not show, none they show left out.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { pages, type Json } from './calls';
import {
	DOCUMENTED,
	objectProblems,
	recordSchemaProblems,
	type JsonSchema,
} from './documentedFields';
import { useSandboxWithClients } from './fixture';

const fx = useSandboxWithClients({ resetEach: false });
const { all } = pages(fx);

/** Expanded references of a list: the records that have no endpoint of their own but show through `expand`. */
async function expanded(path: string, fields: string[], prefix: string): Promise<Json[]> {
	const records = await all(`${path}?expand=${fields.join(',')}`);
	const values = records.flatMap((record) => fields.flatMap((field) => [record[field]].flat()));
	const found = values.filter(
		(value): value is Json =>
			!!value && typeof value === 'object' && String(value.id).startsWith(prefix),
	);
	return [...new Map(found.map((record) => [record.id, record])).values()];
}

/** Records the API returns only from writes (opportunities, price adjustments, timeline events): as it renders them. */
async function state(collection: string): Promise<Json[]> {
	return (await fx.control.call<Record<string, Json[]>>('GET', `/__sandbox/state/${collection}`))[
		collection
	];
}

/** What the token endpoints answer for the startup (static) token and for an OAuth client's token. */
async function tokens(path: string): Promise<Json[]> {
	const app = fx.sandbox.createOAuthClient({
		redirectUris: ['https://app.example.test/callback'],
		name: 'Field check',
	});
	const issued = await fx.call('POST', '/oauth2/token', {
		token: null,
		body: {
			grant_type: 'client_credentials',
			client_id: app.clientId,
			client_secret: app.clientSecret,
			scope: 'public.contact:read',
		},
	});
	const out: Json[] = [];
	for (const token of [fx.sandbox.token, issued.body.access_token as string]) {
		const answer =
			path === 'info'
				? await fx.call('GET', '/oauth2/token/info', { token })
				: await fx.call('POST', '/oauth2/introspect', { body: { token } });
		out.push(answer.body);
	}
	return out;
}

const V = '/2025-09';
/** Where each resource's records come from: its list, else references expanded on a list, else the store. */
const SOURCES: Record<string, () => Promise<Json[]>> = {
	contact: () => all(`${V}/contacts`),
	contract: () => all(`${V}/contracts`),
	contractTemplate: () => all(`${V}/contract_templates`),
	coupon: () => all(`${V}/coupons`),
	creditNote: () => all(`${V}/credit_notes`),
	deal: () => all(`${V}/deals`),
	dealStage: () => all(`${V}/deals/stages`),
	identityVerification: () => all(`${V}/identity_verifications`),
	invoice: () => all(`${V}/invoices`),
	note: () => all(`${V}/notes`),
	opportunity: () => state('opportunities'),
	order: () => all(`${V}/orders`),
	orderLineItem: () => expanded(`${V}/orders`, ['line_items'], 'olitm_'),
	priceAdjustment: () => state('price_adjustments'),
	product: () => all(`${V}/products`),
	productCategory: () => all(`${V}/product_categories`),
	protectionLevel: () => all(`${V}/protection_levels`),
	site: () => all(`${V}/sites`),
	staff: () => expanded(`${V}/deals`, ['assignee', 'creator'], 'staff_'),
	subscription: () => all(`${V}/subscriptions`),
	task: () => all(`${V}/tasks`),
	tenancy: () => all(`${V}/tenancies`),
	timelineEvent: () => state('timeline_events'),
	timelineSource: () => all(`${V}/timeline/sources`),
	timelineTemplate: () => all(`${V}/timeline/templates`),
	tokenInfo: () => tokens('info'),
	tokenIntrospection: () => tokens('introspect'),
	unit: () => all(`${V}/units`),
	unitAllocation: () => all(`${V}/unit_allocations`),
	unitType: () => all(`${V}/unit_types`),
	webhookEndpoint: () => all(`${V}/webhook_endpoints`),
};

/** One line per problem and the number of records it was seen in (the same problem in 40 contacts is one line). */
function summary(records: Json[], resource: string): string[] {
	const counts = new Map<string, number>();
	for (const record of records) {
		for (const problem of objectProblems(record, DOCUMENTED.resources[resource].fields)) {
			const key = `${resource} ${problem.replace(/\[\d+\]/g, '[]')}`;
			counts.set(key, (counts.get(key) ?? 0) + 1);
		}
	}
	return [...counts].map(([problem, n]) => `${problem} (${n} of ${records.length} records)`);
}

let createdEndpoint: Json;
beforeAll(async () => {
	// The demo seed has no webhook endpoint: one through the API (its create answer, with the secret, is checked too).
	const created = await fx.call('POST', `${V}/webhook_endpoints`, {
		body: {
			name: 'Field check',
			api_version: '2025-09',
			url: 'https://hooks.example.test/stora',
			event_types: ['contact.created'],
			metadata: { team: 'ops' },
		},
	});
	expect(created.status).toBeLessThan(300);
	createdEndpoint = created.body.endpoint as Json;
});

describe('sandbox records against the documented fields', () => {
	it('has a way to every documented resource', () => {
		expect(Object.keys(SOURCES).sort()).toEqual(Object.keys(DOCUMENTED.resources).sort());
	});

	it.each(Object.keys(DOCUMENTED.resources).sort())('%s', async (resource) => {
		const records = await SOURCES[resource]();
		if (resource === 'webhookEndpoint') records.push(createdEndpoint);
		expect(records.length).toBeGreaterThan(0);
		expect(summary(records, resource)).toEqual([]);
	});

	it('lists every difference with the docs with its reason, naming documented fields', () => {
		for (const { resource, field, ...difference } of DOCUMENTED.differences) {
			expect(difference).toEqual(
				expect.objectContaining({
					docs: expect.any(String),
					spec: expect.any(String),
					followed: expect.any(String),
				}),
			);
			if (resource === '*') continue;
			const fields = DOCUMENTED.resources[resource]?.fields;
			expect({ resource, documented: !!fields }).toEqual({ resource, documented: true });
			// Top-level names (not `*`, not `a.b` or `a[].b`) are among the fields followed.
			const names = field.split(', ').filter((name) => /^\w+$/.test(name));
			expect(
				names.filter((name) => !(name in fields)).map((name) => `${resource}.${name}`),
			).toEqual([]);
		}
	});
});

describe('shipped output schemas against the documented fields', () => {
	const nodes = join(__dirname, '..', '..', 'nodes');
	/** `<node>/__schema__/v<version>[/<resource>/<operation>]`, as n8n looks them up. */
	const files = (node: string) =>
		readdirSync(join(nodes, node, '__schema__'), { recursive: true, encoding: 'utf8' })
			.filter((file) => file.endsWith('.json'))
			.map(
				(file) =>
					`${node}/${file
						.split(/[\\/]/)
						.join('/')
						.replace(/\.json$/, '')}`,
			)
			.sort();
	const schema = (name: string) =>
		JSON.parse(
			readFileSync(join(nodes, name.replace('/', '/__schema__/') + '.json'), 'utf8'),
		) as JsonSchema;
	const camel = (key: string) => key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

	/** Outputs that are no record: the node's deletion summary, a file's binary properties, an overlock summary. */
	const NOT_RECORDS = ['delete', 'download', 'downloadPdf', 'overlock', 'removeOverlock'];
	/** Schema folders named for the node's resource where the record is another kind. */
	const KINDS: Record<string, string> = {
		'accessToken/getInfo': 'tokenInfo',
		'accessToken/introspect': 'tokenIntrospection',
	};
	const operations = files('Stora').filter((name) => !NOT_RECORDS.includes(name.split('/')[3]));

	it('covers every record output of the Stora node', () => {
		expect(operations.length).toBeGreaterThan(60);
	});

	it.each(operations)('%s', (name) => {
		const [, , resource, operation] = name.split('/');
		const fields = DOCUMENTED.resources[KINDS[`${resource}/${operation}`] ?? resource]?.fields;
		expect({ name, documented: !!fields }).toEqual({ name, documented: true });
		expect(
			recordSchemaProblems(schema(name), fields).map((problem) => `${name}: ${problem}`),
		).toEqual([]);
	});

	// The polling trigger's schema is its default poll's item: a new contact.
	it.each(files('StoraPollTrigger'))('%s', (name) => {
		expect(
			recordSchemaProblems(schema(name), DOCUMENTED.resources.contact.fields).map(
				(problem) => `${name}: ${problem}`,
			),
		).toEqual([]);
	});

	// The webhook trigger's schema is a delivery: the record of each event type under `data.<resource key>`.
	it.each(files('StoraTrigger'))('%s', (name) => {
		const records = Object.entries(schema(name).properties?.data.properties ?? {});
		expect(records.length).toBeGreaterThan(0);
		const problems = records.flatMap(([key, record]) => {
			const fields = DOCUMENTED.resources[camel(key)]?.fields;
			if (!fields) return [`${name}: data.${key}: no documented resource`];
			return recordSchemaProblems(record, fields, true).map(
				(problem) => `${name}: data.${key}.${problem}`,
			);
		});
		expect(problems).toEqual([]);
	});
});
