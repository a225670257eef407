import { locator as rl } from '../../helpers/n8n';
import { useResourceFixture } from '../../helpers/sandboxFixture';

describe('Stora node: Webhook Endpoint', () => {
	const { client, run } = useResourceFixture();

	const create = async (name: string, extra: Record<string, unknown> = {}) => {
		const result = await run({
			resource: 'webhookEndpoint',
			operation: 'create',
			name,
			url: `https://hooks.example.com/${name}`,
			eventTypes: ['invoice.paid'],
			...extra,
		});
		expect(result.error).toBeUndefined();
		return result.items[0].json;
	};

	it('creates an endpoint with POST /webhook_endpoints and returns its signing secret once', async () => {
		const result = await run({
			resource: 'webhookEndpoint',
			operation: 'create',
			name: 'Billing sync',
			url: 'https://hooks.example.com/stora',
			eventTypes: ['invoice.paid', 'contact.created'],
			additionalFields: {
				description: 'Sends paid invoices to the ledger',
				metadata: { entry: [{ key: 'crm.id', value: '42' }] },
			},
		});
		expect(result.error).toBeUndefined();
		const requests = await client.requests();
		expect(requests).toHaveLength(1);
		expect(requests[0]).toMatchObject({
			method: 'POST',
			path: '/2025-09/webhook_endpoints',
			query: {},
		});
		expect(requests[0].body).toEqual({
			api_version: '2025-09',
			name: 'Billing sync',
			url: 'https://hooks.example.com/stora',
			event_types: ['invoice.paid', 'contact.created'],
			description: 'Sends paid invoices to the ledger',
			metadata: { 'crm.id': '42' },
		});
		expect(requests[0].headers['idempotency-key']).toMatch(/^n8n-/);

		const endpoint = result.items[0].json;
		expect(endpoint.secret).toMatch(/^[0-9a-f]{64}$/);
		const stored = (await client.state('webhook_endpoints')).find(
			(record) => record.id === endpoint.id,
		);
		expect(stored).toEqual({ ...endpoint, secret: null });

		const fetched = await run({
			resource: 'webhookEndpoint',
			operation: 'get',
			webhookEndpointId: rl(String(endpoint.id)),
		});
		expect(fetched.items[0].json).toEqual(stored);
		expect((await client.requests())[1]).toMatchObject({
			method: 'GET',
			path: `/2025-09/webhook_endpoints/${String(endpoint.id)}`,
		});
	});

	it('accepts event types from an expression as a comma-separated string', async () => {
		await create('from-expression', { eventTypes: 'unit.updated, deal.lost' });
		expect((await client.requests())[0].body).toMatchObject({
			event_types: ['unit.updated', 'deal.lost'],
		});
	});

	it.each([
		['an http:// URL', { url: 'http://hooks.example.com/stora' }, 'is not an https:// URL'],
		['a URL that is not one', { url: 'hooks.example.com/stora' }, 'is not an https:// URL'],
		['no event types', { eventTypes: [] }, 'Parameter "Event Types" is required'],
		[
			'an expression giving no event types',
			{ eventTypes: '={{ "" }}' },
			'choose at least one event type',
		],
	])('rejects %s before any request', async (_case, override, message) => {
		const result = await run({
			resource: 'webhookEndpoint',
			operation: 'create',
			name: 'Bad',
			url: 'https://hooks.example.com/stora',
			eventTypes: ['invoice.paid'],
			...override,
		});
		expect(result.error?.message).toContain(message);
		expect(await client.requests()).toEqual([]);
	});

	it('updates only the given fields with PATCH, and can disable the endpoint', async () => {
		const endpoint = await create('to-update', {
			additionalFields: { metadata: { entry: [{ key: 'team', value: 'ops' }] } },
		});
		await client.clearRequests();
		const result = await run({
			resource: 'webhookEndpoint',
			operation: 'update',
			webhookEndpointId: rl(String(endpoint.id)),
			updateFields: {
				name: 'Renamed',
				eventTypes: ['unit.updated'],
				status: 'disabled',
				description: '',
				metadata: { entry: [{ key: 'owner', value: 'finance' }] },
			},
		});
		expect(result.error).toBeUndefined();
		const requests = await client.requests();
		expect(requests).toHaveLength(1);
		expect(requests[0]).toMatchObject({
			method: 'PATCH',
			path: `/2025-09/webhook_endpoints/${String(endpoint.id)}`,
		});
		expect(requests[0].body).toEqual({
			name: 'Renamed',
			event_types: ['unit.updated'],
			status: 'disabled',
			description: null,
			metadata: { owner: 'finance' },
		});
		expect(requests[0].headers['idempotency-key']).toBeUndefined();
		const stored = (await client.state('webhook_endpoints')).find(
			(record) => record.id === endpoint.id,
		)!;
		expect(result.items[0].json).toEqual(stored);
		expect(stored).toMatchObject({
			name: 'Renamed',
			url: endpoint.url,
			status: 'disabled',
			secret: null,
			metadata: { team: 'ops', owner: 'finance' },
		});
		expect(stored.disabled_at).not.toBeNull();
	});

	it.each([
		['no fields', {}, 'add at least one field'],
		['an http:// URL', { url: 'http://hooks.example.com/x' }, 'is not an https:// URL'],
		['an empty event type list', { eventTypes: [] }, 'choose at least one event type'],
	])('rejects an update with %s before any request', async (_case, updateFields, message) => {
		const endpoint = await create('unchanged');
		await client.clearRequests();
		const result = await run({
			resource: 'webhookEndpoint',
			operation: 'update',
			webhookEndpointId: rl(String(endpoint.id)),
			updateFields,
		});
		expect(result.error?.message).toContain(message);
		expect(await client.requests()).toEqual([]);
	});

	it('gets many endpoints filtered by status and metadata', async () => {
		const first = await create('first', {
			additionalFields: { metadata: { entry: [{ key: 'env', value: 'prod' }] } },
		});
		await create('second', {
			additionalFields: { metadata: { entry: [{ key: 'env', value: 'test' }] } },
		});
		const third = await create('third', {
			additionalFields: { metadata: { entry: [{ key: 'env', value: 'prod' }] } },
		});
		await run({
			resource: 'webhookEndpoint',
			operation: 'update',
			webhookEndpointId: rl(String(third.id)),
			updateFields: { status: 'disabled' },
		});
		await client.clearRequests();

		const result = await run({
			resource: 'webhookEndpoint',
			operation: 'getAll',
			returnAll: false,
			limit: 10,
			filters: { status: ['enabled'], metadata: { entry: [{ key: 'env', value: 'prod' }] } },
		});
		expect(result.error).toBeUndefined();
		const requests = await client.requests();
		expect(requests[0]).toMatchObject({ method: 'GET', path: '/2025-09/webhook_endpoints' });
		expect(requests[0].query).toEqual({ limit: '10', status: 'enabled', 'metadata[env]': 'prod' });
		expect(result.items.map((item) => item.json.id)).toEqual([first.id]);
	});

	it('deletes an endpoint', async () => {
		const endpoint = await create('to-delete');
		await client.clearRequests();
		const result = await run({
			resource: 'webhookEndpoint',
			operation: 'delete',
			webhookEndpointId: rl(String(endpoint.id)),
		});
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ deleted: true, id: endpoint.id });
		expect((await client.requests())[0]).toMatchObject({
			method: 'DELETE',
			path: `/2025-09/webhook_endpoints/${String(endpoint.id)}`,
		});
		expect((await client.state('webhook_endpoints')).map((record) => record.id)).not.toContain(
			endpoint.id,
		);
	});

	it('reports a missing endpoint with the API code, and a foreign ID before any request', async () => {
		const missing = await run({
			resource: 'webhookEndpoint',
			operation: 'get',
			webhookEndpointId: rl('we_doesnotexist'),
		});
		expect(missing.error?.message).toMatch(/\[resource_not_found\]$/);
		await client.clearRequests();
		const foreign = await run({
			resource: 'webhookEndpoint',
			operation: 'delete',
			webhookEndpointId: rl('con_abc123'),
		});
		expect(foreign.error?.message).toMatch(/webhook endpoint ID starts with "we_"/);
		expect(await client.requests()).toEqual([]);
	});
});
