/** Contract templates (`/contract_templates`) over real HTTP. */
import type { Json } from '../../client';
import { useSandboxWithClients } from '../fixture';

const fx = useSandboxWithClients({
	seed: 'demo',
	resetEach: false,
	client: { redirect: 'follow' },
});
let contracts: Json[];

beforeAll(async () => {
	contracts = await fx.api.state('contracts');
});

const V = '/2025-09';

describe('contracts', () => {
	test('contract templates list; scopes', async () => {
		const res = await fx.api.get(`${V}/contract_templates`);
		expect(res.body.contract_templates.map((t: Json) => t.name).sort()).toEqual([
			'Business storage agreement',
			'Standard storage agreement',
		]);
		const token = await fx.api.token(['public.contract:read']);
		const denied = await fx.api.get(`${V}/contract_templates`, { token });
		expect(denied.status).toBe(403);
		expect(denied.body.error.message).toContain('public.contract_template:read');
		expect(
			(await fx.api.get(`${V}/contracts/${contracts[0].id}?expand=contract_template`, { token }))
				.status,
		).toBe(403);
	});
});
