/**
 * No duplicate writes: every POST carries an Idempotency-Key derived from the execution, node, run and item, so the
 * transport's own retries and n8n's Retry On Fail (the same execution running the node again) replay the first
 * answer instead of creating a second record.
 */
import { runStora } from '../helpers/n8n';
import { useSandboxForNode } from '../helpers/sandboxFixture';

describe('Stora node: idempotent writes', () => {
	const fixture = useSandboxForNode();
	const createEndpoint = {
		resource: 'webhookEndpoint',
		operation: 'create',
		name: 'Ledger sync',
		url: 'https://hooks.example.com/ledger',
		eventTypes: ['invoice.paid'],
	};
	const endpointsNamed = async (name: string) =>
		(await fixture.client.state('webhook_endpoints')).filter((endpoint) => endpoint.name === name);

	it('retries a POST that failed with 503 under the same Idempotency-Key', async () => {
		await fixture.client.fault({ method: 'POST', path: '/2025-09/webhook_endpoints' }, [{ status: 503 }]);
		const result = await runStora({ credentials: fixture.credentials(), parameters: createEndpoint });
		expect(result.error).toBeUndefined();
		const posts = (await fixture.client.requests()).filter((request) => request.method === 'POST');
		expect(posts.map((request) => request.status)).toEqual([503, 200]);
		expect(posts[0].headers['idempotency-key']).toMatch(/^n8n-[0-9a-f]{32}$/);
		expect(posts[1].headers['idempotency-key']).toBe(posts[0].headers['idempotency-key']);
		expect(await endpointsNamed('Ledger sync')).toHaveLength(1);
	});

	it('replays the first answer when n8n retries the node in the same execution', async () => {
		const first = await runStora({ credentials: fixture.credentials(), parameters: createEndpoint, executionId: 'exec-42' });
		const again = await runStora({ credentials: fixture.credentials(), parameters: createEndpoint, executionId: 'exec-42' });
		expect(again.items[0].json.id).toBe(first.items[0].json.id);
		expect(await endpointsNamed('Ledger sync')).toHaveLength(1);
		const keys = (await fixture.client.requests()).map((request) => request.headers['idempotency-key']);
		expect(keys[0]).toBe(keys[1]);
	});

	it('creates a new record in a new execution, and one per item', async () => {
		await runStora({ credentials: fixture.credentials(), parameters: createEndpoint, executionId: 'exec-1' });
		await runStora({ credentials: fixture.credentials(), parameters: createEndpoint, executionId: 'exec-2' });
		expect(await endpointsNamed('Ledger sync')).toHaveLength(2);

		const perItem = await runStora({
			credentials: fixture.credentials(),
			parameters: { ...createEndpoint, name: 'Per item' },
			items: [{}, {}],
			executionId: 'exec-3',
		});
		expect(perItem.items).toHaveLength(2);
		expect(await endpointsNamed('Per item')).toHaveLength(2);
	});

	it("uses the user's own Idempotency Key, so a repeat in another execution replays too", async () => {
		const withKey = { ...createEndpoint, options: { idempotencyKey: 'shop-order-1042' } };
		const first = await runStora({ credentials: fixture.credentials(), parameters: withKey, executionId: 'exec-a' });
		const second = await runStora({ credentials: fixture.credentials(), parameters: withKey, executionId: 'exec-b' });
		expect(second.items[0].json.id).toBe(first.items[0].json.id);
		expect(await endpointsNamed('Ledger sync')).toHaveLength(1);
		const keys = (await fixture.client.requests()).map((request) => request.headers['idempotency-key']);
		expect(keys).toEqual(['shop-order-1042', 'shop-order-1042']);
	});

	it('refuses one fixed Idempotency Key on several items before any request, naming the items', async () => {
		const result = await runStora({
			credentials: fixture.credentials(),
			parameters: { ...createEndpoint, options: { idempotencyKey: 'shop-order-1042' } },
			items: [{}, {}, {}],
		});
		expect(result.error?.message).toBe('Idempotency Key "shop-order-1042" is the same for items 1, 2, 3');
		expect(String((result.error as { description?: string }).description)).toMatch(/differs per item/);
		expect(await fixture.client.requests()).toEqual([]);
		expect(await endpointsNamed('Ledger sync')).toHaveLength(0);
	});

	it('takes a key expression that differs per item, and refuses one that gives two items the same key', async () => {
		const perItem = await runStora({
			credentials: fixture.credentials(),
			parameters: { ...createEndpoint, options: { idempotencyKey: '=order-{{ $json.order }}' } },
			items: [{ order: 1 }, { order: 2 }],
		});
		expect(perItem.error).toBeUndefined();
		expect((await fixture.client.requests()).map((request) => request.headers['idempotency-key'])).toEqual(['order-1', 'order-2']);
		expect(await endpointsNamed('Ledger sync')).toHaveLength(2);

		await fixture.client.clearRequests();
		const clash = await runStora({
			credentials: fixture.credentials(),
			parameters: { ...createEndpoint, options: { idempotencyKey: '=order-{{ $json.order }}' } },
			items: [{ order: 7 }, { order: 8 }, { order: 7 }],
		});
		expect(clash.error?.message).toBe('Idempotency Key "order-7" is the same for items 1, 3');
		expect(await fixture.client.requests()).toEqual([]);
	});

	it('refuses a key that cannot be a header value (a line break, too long) before any request, naming it', async () => {
		for (const idempotencyKey of ['order-1\nX-Other: 1', 'k'.repeat(256)]) {
			const result = await runStora({ credentials: fixture.credentials(), parameters: { ...createEndpoint, options: { idempotencyKey } } });
			expect(result.error?.message).toMatch(/^Idempotency Key: ".*" is not a valid key$/s);
		}
		expect(await fixture.client.requests()).toEqual([]);
	});

	it('does not retry a POST that failed with a client error', async () => {
		await fixture.client.fault({ method: 'POST', path: '/2025-09/webhook_endpoints' }, [{ status: 409 }]);
		const result = await runStora({ credentials: fixture.credentials(), parameters: createEndpoint });
		expect((result.error as { httpCode?: string }).httpCode).toBe('409');
		expect((await fixture.client.requests()).filter((request) => request.method === 'POST')).toHaveLength(1);
	});
});
